/**
 * The WebAuthn relying party: its options, and the origins each organization's passkeys may use
 * (`FEATURE_NAME_WEBAUTHN_ORIGINS` on the organization, else on its parent, else the engine's).
 */
import { describe, expect, it } from "vitest";
import { WebauthnRelyingParty } from "../../src/auth/relying-party.js";
import { CustodyError, MemoryStore } from "../../src/index.js";
import { DataReader, DataWriter } from "../../src/model/data.js";
import type { OrganizationRecord } from "../../src/model/records.js";

function organization(id: string, parent: string | null, origins?: string): OrganizationRecord {
  return {
    id,
    name: id,
    parentOrganizationId: parent,
    rootQuorum: { threshold: 1, userIds: [] },
    features: origins === undefined ? [] : [{ name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: origins }],
    settings: {},
    createdAtMs: 0,
    updatedAtMs: 0,
  };
}

async function storeWith(...organizations: OrganizationRecord[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.transaction(async (tx) => {
    const data = new DataWriter(tx);
    for (const record of organizations) await data.put("organizations", record);
  });
  return store;
}

describe("WebauthnRelyingParty", () => {
  it("defaults to localhost and http://localhost", () => {
    const party = new WebauthnRelyingParty();
    expect(party.rpId).toBe("localhost");
    expect(party.origins).toEqual(["http://localhost"]);
  });

  it("takes an organization's origins, else its parent's, else the engine's", async () => {
    const party = new WebauthnRelyingParty({ rpId: "wallet.example", origins: ["https://wallet.example"] });
    const parent = organization("parent", null, "https://app.wallet.example, https://m.wallet.example");
    const child = organization("child", "parent");
    const own = organization("own", "parent", "android:apk-key-hash:abc");
    const plain = organization("plain", null);
    const store = await storeWith(parent, child, own, plain);
    await store.read(async (reader) => {
      const data = new DataReader(reader);
      expect(await party.originsFor(data, parent)).toEqual(["https://app.wallet.example", "https://m.wallet.example"]);
      expect(await party.originsFor(data, child)).toEqual(["https://app.wallet.example", "https://m.wallet.example"]);
      expect(await party.originsFor(data, own)).toEqual(["android:apk-key-hash:abc"]);
      expect(await party.originsFor(data, plain)).toEqual(["https://wallet.example"]);
      expect(await party.originsFor(data, undefined)).toEqual(["https://wallet.example"]);
    });
  });

  it("refuses options that could never match a browser's client data", () => {
    const cases = [
      { rpId: "https://wallet.example" },
      { rpId: "wallet.example:443" },
      { origins: [] },
      { origins: ["https://wallet.example/"] },
      { origins: ["https://wallet.example/login"] },
      { origins: ["wallet example"] },
    ];
    for (const options of cases) {
      expect(() => new WebauthnRelyingParty(options), JSON.stringify(options)).toThrow(CustodyError);
    }
  });
});
