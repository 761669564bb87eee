/**
 * Key material sent in the wrong field: a failed activity keeps no member made to carry key material, in
 * the record every member can read, in the error, or in the store's files.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { afterAll, describe, expect, it } from "vitest";
import { REDACTED } from "../../src/engine/pipeline/failed-activity.js";
import { CustodyEngine, CustodyError } from "../../src/index.js";
import { FileStore } from "../../src/storage/file/index.js";
import { p256KeyPair } from "../support/engine.js";

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

async function fileEngine() {
  const directory = mkdtempSync(join(tmpdir(), "custodian-failed-"));
  directories.push(directory);
  const store = await FileStore.open(directory);
  const engine = new CustodyEngine({ store, keyEncryptionKey: randomBytes(32) });
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Acme",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  const userId = rootUserIds[0] as string;
  return { directory, store, engine, organizationId, userId, root: engine.as({ userId }) };
}

async function failure(promise: Promise<unknown>): Promise<CustodyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

describe("failed activities", () => {
  it.each([
    ["a mnemonic", () => generateMnemonic(wordlist, 256)],
    ["a private key", () => randomBytes(32).toString("hex")],
  ])("keep no trace of %s put in an import's encryptedBundle", async (_, secretOf) => {
    const f = await fileEngine();
    const secret = secretOf();
    await f.root.initImportWallet({ organizationId: f.organizationId, parameters: { userId: f.userId } });
    const error = await failure(
      f.root.importWallet({
        organizationId: f.organizationId,
        parameters: { userId: f.userId, walletName: "w", encryptedBundle: secret, accounts: [] },
      }),
    );
    const activityId = error.details.activityId as string;
    const { activity } = await f.root.getActivity({ organizationId: f.organizationId, activityId });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect((activity.intent.importWalletIntent as { encryptedBundle: string }).encryptedBundle).toBe(REDACTED);
    const word = secret.split(" ")[0] as string;
    const seen = JSON.stringify([activity, error.message, error.details, error.toRpcStatus()]);
    expect(seen).not.toContain(secret);
    await f.store.close();
    const files = readdirSync(f.directory).map((name) => readFileSync(join(f.directory, name)).toString("latin1"));
    for (const text of files) {
      expect(text).not.toContain(secret);
      if (word.length > 20) expect(text).not.toContain(word);
    }
  });
});
