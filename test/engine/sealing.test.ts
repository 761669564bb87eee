/**
 * Secrets at rest: on a FileStore, no mnemonic or private key appears in any file; the store opens only
 * with its key-encryption key; rotation re-wraps the data key without rewriting records.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { hashMessage, recoverAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createSealer } from "../../src/crypto/seal/index.js";
import { CustodyEngine, CustodyError } from "../../src/index.js";
import { FileStore } from "../../src/storage/file/index.js";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";

async function openEngine(directory: string, keyEncryptionKey?: Uint8Array) {
  const store = await FileStore.open(directory);
  return new CustodyEngine({ store, ...(keyEncryptionKey ? { keyEncryptionKey } : {}) });
}

/** Every file of the store directory, as bytes. */
function rawFiles(directory: string): Buffer[] {
  return readdirSync(directory).map((name) => readFileSync(join(directory, name)));
}

async function populate(engine: CustodyEngine) {
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Sealed",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [
          {
            apiKeyName: "k",
            publicKey: bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true)),
            curveType: "API_KEY_CURVE_P256",
          },
        ],
      },
    ],
  });
  const root = engine.as({ userId: rootUserIds[0]! });
  const wallet = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "w",
      accounts: [ETHEREUM_ACCOUNT],
    },
  });
  const keys = await root.createPrivateKeys({
    organizationId,
    parameters: {
      privateKeys: [
        { privateKeyName: "k", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_SOLANA"] },
      ],
    },
  });
  const { walletId, addresses } = wallet.activity.result!.createWalletResult as {
    walletId: string;
    addresses: string[];
  };
  const [{ privateKeyId }] = (
    keys.activity.result!.createPrivateKeysResultV2 as { privateKeys: { privateKeyId: string }[] }
  ).privateKeys as [{ privateKeyId: string }];
  return { organizationId, userId: rootUserIds[0]!, walletId, address: addresses[0]!, privateKeyId };
}

/** Unseals the stored secrets the way only a holder of the key-encryption key can, to know what to look for. */
async function storedSecrets(
  engine: CustodyEngine,
  keyEncryptionKey: Uint8Array,
  ids: { organizationId: string; walletId: string; privateKeyId: string },
) {
  return engine.store.read(async (reader) => {
    const meta = (await reader.get("meta", "sealing.dataKey")) as unknown as { value: string };
    const wallet = (await reader.get("wallets", ids.walletId)) as unknown as { sealedMnemonic: string };
    const key = (await reader.get("privateKeys", ids.privateKeyId)) as unknown as { sealedPrivateKey: string };
    const sealer = createSealer({ keyEncryptionKey, wrappedDataKey: meta.value });
    return {
      mnemonic: new TextDecoder().decode(sealer.open(wallet.sealedMnemonic, `wallet:${ids.walletId}:mnemonic`)),
      privateKeyHex: bytesToHex(sealer.open(key.sealedPrivateKey, `privateKey:${ids.privateKeyId}`)),
      sealedMnemonic: wallet.sealedMnemonic,
    };
  });
}

async function signsAs(engine: CustodyEngine, ids: { organizationId: string; userId: string; address: string }) {
  const digest = hashMessage("still mine");
  const { activity } = await engine.as({ userId: ids.userId }).signRawPayload({
    organizationId: ids.organizationId,
    parameters: {
      signWith: ids.address,
      payload: digest,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    },
  });
  const { r, s, v } = activity.result!.signRawPayloadResult as { r: string; s: string; v: string };
  return recoverAddress({ hash: digest, signature: `0x${r}${s}${v === "00" ? "1b" : "1c"}` });
}

async function expectPrecondition(promise: Promise<unknown>, reason: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  expect((error as CustodyError).code).toBe("FAILED_PRECONDITION");
  expect((error as CustodyError).details.reason).toBe(reason);
}

describe("secrets sealed at rest", () => {
  it("keeps every mnemonic word run and private key out of the store's files", async () => {
    const directory = mkdtempSync(join(tmpdir(), "custodian-sealed-"));
    const kek = randomBytes(32);
    const engine = await openEngine(directory, kek);
    const ids = await populate(engine);
    const secrets = await storedSecrets(engine, kek, ids);
    await engine.store.close();
    expect(secrets.mnemonic.split(" ")).toHaveLength(12);
    const files = rawFiles(directory);
    expect(files.length).toBeGreaterThan(0);
    const words = secrets.mnemonic.split(" ");
    for (const file of files) {
      const text = file.toString("latin1");
      expect(text).not.toContain(secrets.mnemonic);
      // Not even three consecutive words of it.
      for (let i = 0; i + 3 <= words.length; i++) expect(text).not.toContain(words.slice(i, i + 3).join(" "));
      expect(text.toLowerCase()).not.toContain(secrets.privateKeyHex);
      expect(file.includes(Buffer.from(secrets.privateKeyHex, "hex"))).toBe(false);
      expect(text).not.toContain(bytesToHex(kek));
    }
  });

  it("reopens with its key, and refuses a wrong or missing key at open", async () => {
    const directory = mkdtempSync(join(tmpdir(), "custodian-sealed-"));
    const kek = randomBytes(32);
    const first = await openEngine(directory, kek);
    const ids = await populate(first);
    await first.store.close();

    const wrong = await openEngine(directory, randomBytes(32));
    await expectPrecondition(wrong.open(), "KEY_ENCRYPTION_KEY_MISMATCH");
    await wrong.store.close();
    const missing = await openEngine(directory);
    await expectPrecondition(missing.open(), "KEY_ENCRYPTION_KEY_MISSING");
    await missing.store.close();

    const again = await openEngine(directory, kek);
    await again.open();
    expect(await signsAs(again, ids)).toBe(ids.address);
    await again.store.close();
  });

  it("rotates the key-encryption key without rewriting sealed records", async () => {
    const directory = mkdtempSync(join(tmpdir(), "custodian-sealed-"));
    const oldKek = randomBytes(32);
    const newKek = randomBytes(32);
    const engine = await openEngine(directory, oldKek);
    const ids = await populate(engine);
    const before = await storedSecrets(engine, oldKek, ids);
    await engine.rotateKeyEncryptionKey(newKek);
    expect(await signsAs(engine, ids)).toBe(ids.address);
    await engine.store.close();

    const withOld = await openEngine(directory, oldKek);
    await expectPrecondition(withOld.open(), "KEY_ENCRYPTION_KEY_MISMATCH");
    await withOld.store.close();
    const withNew = await openEngine(directory, newKek);
    const after = await storedSecrets(withNew, newKek, ids);
    expect(after.sealedMnemonic).toBe(before.sealedMnemonic);
    expect(after.mnemonic).toBe(before.mnemonic);
    expect(await signsAs(withNew, ids)).toBe(ids.address);
    await withNew.store.close();
  });
});
