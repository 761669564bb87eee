/**
 * `custodian/testing` with the official clients: the in-process fetch as the global fetch for
 * @turnkey/sdk-server (and @turnkey/viem over its client), @turnkey/http's signed requests sent through it,
 * the stamped client, seeds and snapshots.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { recoverMessageAddress } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore, MemoryStoreSnapshot } from "../../src/index.js";
import {
  createInProcessFetch,
  createStampedClient,
  createTestOrganization,
  ETHEREUM_ACCOUNT,
  generateApiKeyPair,
  stampWithApiKey,
} from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";

let restoreFetch: (() => void) | undefined;
afterEach(() => {
  restoreFetch?.();
  restoreFetch = undefined;
});

describe("createTestOrganization", () => {
  it("serves @turnkey/sdk-server in-process when its fetch is the global fetch, with no port", async () => {
    const org = await createTestOrganization();
    restoreFetch = org.installGlobalFetch();
    const client = new Turnkey(org.turnkeyConfig).apiClient();
    const whoami = await client.getWhoami();
    expect(whoami).toMatchObject({ organizationId: org.organizationId, userId: org.rootUserId });
    const wallet = await client.createWallet({ walletName: "main", accounts: [ETHEREUM_ACCOUNT] });
    expect(wallet.addresses).toHaveLength(1);
    expect(org.baseUrl).toBe("http://custodian.test");
  });

  it("gives @turnkey/viem an account whose signatures viem recovers", async () => {
    const org = await createTestOrganization();
    restoreFetch = org.installGlobalFetch();
    const client = new Turnkey(org.turnkeyConfig).apiClient();
    const [address] = (await client.createWallet({ walletName: "eth", accounts: [ETHEREUM_ACCOUNT] })).addresses;
    // @turnkey/viem pins its own copy of the client types: same runtime client, another type identity.
    const account = await createAccount({
      client: client as never,
      organizationId: org.organizationId,
      signWith: address as string,
    });
    const message = "hello from a test suite";
    const signature = await account.signMessage({ message });
    expect(await recoverMessageAddress({ message, signature })).toBe(address);
  });

  it("answers @turnkey/http's signed requests handed to its fetch", async () => {
    const org = await createTestOrganization();
    const stamper = new ApiKeyStamper(org.apiKey);
    const http = new TurnkeyClient({ baseUrl: org.baseUrl }, stamper);
    const signed = await http.stampGetWhoami({ organizationId: org.organizationId });
    const response = await org.fetch(signed.url, {
      method: "POST",
      body: signed.body,
      headers: { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ userId: org.rootUserId });
  });

  it("passes other origins to the fetch it wraps", async () => {
    const seen: string[] = [];
    const fetch = createInProcessFetch(
      "http://custodian.test",
      async () => new Response("engine"),
      async (input) => {
        seen.push(String(input));
        return new Response("elsewhere");
      },
    );
    expect(await (await fetch("http://custodian.test/public/v1/query/whoami")).text()).toBe("engine");
    expect(await (await fetch("https://example.test/x")).text()).toBe("elsewhere");
    expect(seen).toEqual(["https://example.test/x"]);
  });

  it("binds the in-process engine view and the stamped client to the root user", async () => {
    const org = await createTestOrganization();
    const { activity } = await org.root.createWallet({
      organizationId: org.organizationId,
      parameters: { walletName: "in-process", accounts: [ETHEREUM_ACCOUNT] },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const wallets = await org.client.post<{ wallets: { walletName: string }[] }>("/public/v1/query/list_wallets");
    expect(wallets.wallets.map((wallet) => wallet.walletName)).toEqual(["in-process"]);
    await expectCustodyError(
      org.client.post("/public/v1/submit/create_wallet", {
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        parameters: { walletName: "in-process", accounts: [] },
      }),
      "ALREADY_EXISTS",
      "parameters.walletName",
    );
  });

  it("is reproducible with a seed: the same ids, keys and addresses", async () => {
    const run = async () => {
      const org = await createTestOrganization({ seed: "suite" });
      const { activity } = await org.root.createWallet({
        organizationId: org.organizationId,
        parameters: { walletName: "w", accounts: [ETHEREUM_ACCOUNT] },
      });
      return { org: org.organizationId, key: org.apiKey, activityId: activity.id, result: activity.result };
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const other = await createTestOrganization({ seed: "another suite" });
    expect(other.apiKey).not.toEqual(first.key);
  });

  it("serves the official clients when seeded with a wall-clock start", async () => {
    const org = await createTestOrganization({ seed: "wall clock", startMs: Date.now() });
    restoreFetch = org.installGlobalFetch();
    expect(await new Turnkey(org.turnkeyConfig).apiClient().getWhoami()).toMatchObject({ userId: org.rootUserId });
  });

  it("rewinds to a snapshot, dropping what was written after it", async () => {
    const org = await createTestOrganization();
    await org.root.createWallet({
      organizationId: org.organizationId,
      parameters: { walletName: "kept", accounts: [] },
    });
    const saved = await org.snapshot();
    await org.root.createWallet({
      organizationId: org.organizationId,
      parameters: { walletName: "dropped", accounts: [] },
    });
    const names = async () =>
      (await org.root.getWallets({ organizationId: org.organizationId })).wallets.map((wallet) => wallet.walletName);
    expect(await names()).toEqual(["kept", "dropped"]);
    await org.restore(saved);
    expect(await names()).toEqual(["kept"]);
    // The snapshot stays usable, and the engine keeps working after a restore.
    await org.root.createWallet({
      organizationId: org.organizationId,
      parameters: { walletName: "again", accounts: [] },
    });
    await org.restore(saved);
    expect(await names()).toEqual(["kept"]);
  });

  it("refuses a store other than a MemoryStore, and a snapshot of nothing", async () => {
    await expect(createTestOrganization({ engine: { store: {} as MemoryStore } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      details: { field: "engine.store" },
    });
    await expect(new MemoryStore().restore(new MemoryStoreSnapshot())).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      details: { field: "snapshot" },
    });
  });
});

describe("API keys and stamps", () => {
  it("makes compressed P-256 key pairs whose stamps the engine accepts", async () => {
    const org = await createTestOrganization();
    const key = generateApiKeyPair();
    expect(key.apiPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(key.apiPrivateKey).toMatch(/^[0-9a-f]{64}$/);
    await org.root.createApiKeys({
      organizationId: org.organizationId,
      parameters: {
        userId: org.rootUserId,
        apiKeys: [{ apiKeyName: "second", publicKey: key.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    });
    const client = createStampedClient({
      baseUrl: org.baseUrl,
      apiKey: key,
      organizationId: org.organizationId,
      fetch: org.fetch,
    });
    expect(await client.post("/public/v1/query/whoami")).toMatchObject({ userId: org.rootUserId });
  });

  it("stamps as @turnkey/api-key-stamper does", async () => {
    const key = generateApiKeyPair();
    const body = JSON.stringify({ organizationId: "o" });
    const ours = JSON.parse(Buffer.from(stampWithApiKey(body, key).stampHeaderValue, "base64url").toString());
    const theirs = JSON.parse(
      Buffer.from((await new ApiKeyStamper(key).stamp(body)).stampHeaderValue, "base64url").toString(),
    );
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(ours.publicKey).toBe(theirs.publicKey);
    expect(ours.scheme).toBe(theirs.scheme);
  });

  it("reports a refused credential as the server's CustodyError", async () => {
    const org = await createTestOrganization();
    const stranger = createStampedClient({
      baseUrl: org.baseUrl,
      apiKey: generateApiKeyPair(),
      organizationId: org.organizationId,
      fetch: org.fetch,
    });
    await expectCustodyError(stranger.post("/public/v1/query/whoami"), "UNAUTHENTICATED");
  });
});
