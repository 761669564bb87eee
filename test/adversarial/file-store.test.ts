/**
 * The file store under attack: a durable store without the host's key-encryption key is refused before
 * anything is sealed, and every file the store writes is readable by its owner only.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CustodyEngine } from "../../src/index.js";
import { FileStore } from "../../src/storage/file/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { p256KeyPair } from "../support/engine.js";

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function tempDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "custodian-adversarial-"));
  directories.push(directory);
  return directory;
}

async function createOrganization(engine: CustodyEngine) {
  return engine.createOrganization({
    organizationName: "Acme",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
}

describe("FileStore without a key-encryption key", () => {
  it("is refused at open, naming the option, and nothing is sealed", async () => {
    const store = await FileStore.open(tempDirectory());
    const engine = new CustodyEngine({ store });
    await expectCustodyError(engine.open(), "FAILED_PRECONDITION", "keyEncryptionKey");
    await expectCustodyError(createOrganization(engine), "FAILED_PRECONDITION", "keyEncryptionKey");
    await store.read(async (reader) => expect(await reader.list("meta", "")).toEqual([]));
    await store.close();
  });

  it("opens with an ephemeral key when the host asks for one explicitly", async () => {
    const store = await FileStore.open(tempDirectory());
    const engine = new CustodyEngine({ store, ephemeralKeyEncryptionKey: true });
    await engine.open();
    expect((await createOrganization(engine)).organizationId).toBeTruthy();
    await engine.close();
    await store.close();
  });
});

describe("FileStore file modes", () => {
  it.skipIf(process.platform === "win32")("creates its directory 0700 and every file 0600", async () => {
    const directory = join(tempDirectory(), "store");
    const store = await FileStore.open(directory, { snapshotAfterBytes: 1 });
    const engine = new CustodyEngine({ store, keyEncryptionKey: randomBytes(32) });
    await createOrganization(engine);
    await store.snapshot();
    await engine.close();
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    const names = readdirSync(directory);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect([name, statSync(join(directory, name)).mode & 0o777]).toEqual([name, 0o600]);
    await store.close();
  });
});
