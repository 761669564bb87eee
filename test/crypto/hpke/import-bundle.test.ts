import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { base58 } from "@scure/base";
import { encryptPrivateKeyToBundle, encryptWalletToBundle } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { bytesToHex, hexToBytes } from "../../../src/crypto/bytes.js";
import { createImportTarget, decryptImportBundle, enclaveQuorumPublicKey } from "../../../src/crypto/hpke/index.js";
import { seededRandomBytes } from "./seeded-random.js";

const organizationId = "org-import";
const userId = "user-import";
const signerPrivateKey = p256.utils.randomSecretKey(seededRandomBytes("import-signer")(48));
const signerPublicKey = enclaveQuorumPublicKey(signerPrivateKey);
const mnemonic = "legal winner thank year wave sausage worth useful legal winner thank yellow";

function newTarget(seed?: string) {
  return createImportTarget({
    organizationId,
    userId,
    signerPrivateKey,
    ...(seed === undefined ? {} : { randomBytes: seededRandomBytes(seed) }),
  });
}

async function expectBundleRefused(promise: Promise<unknown>, field: string): Promise<CustodyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  const custodyError = error as CustodyError;
  expect(custodyError.code).toBe("INVALID_ARGUMENT");
  expect(custodyError.field).toBe(field);
  return custodyError;
}

describe("createImportTarget", () => {
  it("signs {targetPublic, organizationId, userId} with the uncompressed public key of the returned target key", () => {
    const { importBundle, targetPrivateKey } = newTarget();
    const bundle = JSON.parse(importBundle);
    expect(bundle.version).toBe("v1.0.0");
    expect(bundle.enclaveQuorumPublic).toBe(signerPublicKey);
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(bundle.data)));
    expect(Object.keys(data)).toEqual(["targetPublic", "organizationId", "userId"]);
    expect(data).toEqual({
      targetPublic: bytesToHex(p256.getPublicKey(targetPrivateKey, false)),
      organizationId,
      userId,
    });
  });

  it("derives the same target from the same injected randomness and a new one otherwise", () => {
    expect(newTarget("a").importBundle).toBe(newTarget("a").importBundle);
    expect(bytesToHex(newTarget("a").targetPrivateKey)).not.toBe(bytesToHex(newTarget("b").targetPrivateKey));
  });

  it("is refused by the client for another user or organization", async () => {
    const { importBundle } = newTarget();
    const common = { mnemonic, importBundle, dangerouslyOverrideSignerPublicKey: signerPublicKey };
    await expect(encryptWalletToBundle({ ...common, userId: "someone-else", organizationId })).rejects.toThrow(
      /user id does not match/,
    );
    await expect(encryptWalletToBundle({ ...common, userId, organizationId: "other-org" })).rejects.toThrow(
      /organization id does not match/,
    );
  });
});

describe("decryptImportBundle", () => {
  it("opens what encryptWalletToBundle sealed to our target", async () => {
    const { importBundle, targetPrivateKey } = newTarget();
    const bundle = await encryptWalletToBundle({
      mnemonic,
      importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
    });
    const plaintext = await decryptImportBundle({ bundle, targetPrivateKey });
    expect(new TextDecoder().decode(plaintext)).toBe(mnemonic);
  });

  it("opens what encryptPrivateKeyToBundle sealed for a hexadecimal key", async () => {
    const { importBundle, targetPrivateKey } = newTarget();
    const privateKey = seededRandomBytes("imported-key")(32);
    const bundle = await encryptPrivateKeyToBundle({
      privateKey: `0x${bytesToHex(privateKey)}`,
      keyFormat: "HEXADECIMAL",
      importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
    });
    expect(bytesToHex(await decryptImportBundle({ bundle, targetPrivateKey }))).toBe(bytesToHex(privateKey));
  });

  it("opens what encryptPrivateKeyToBundle sealed for a SOLANA key (the 32-byte seed)", async () => {
    const { importBundle, targetPrivateKey } = newTarget();
    const seed = seededRandomBytes("solana-import")(32);
    const solanaKey = new Uint8Array(64);
    solanaKey.set(seed, 0);
    solanaKey.set(ed25519.getPublicKey(seed), 32);
    const bundle = await encryptPrivateKeyToBundle({
      privateKey: base58.encode(solanaKey),
      keyFormat: "SOLANA",
      importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
    });
    expect(bytesToHex(await decryptImportBundle({ bundle, targetPrivateKey }))).toBe(bytesToHex(seed));
  });

  it("refuses a bundle sealed to another target", async () => {
    const first = newTarget();
    const second = newTarget();
    const bundle = await encryptWalletToBundle({
      mnemonic,
      importBundle: first.importBundle,
      userId,
      organizationId,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
    });
    const error = await expectBundleRefused(
      decryptImportBundle({ bundle, targetPrivateKey: second.targetPrivateKey }),
      "parameters.encryptedBundle",
    );
    expect(error.message).not.toContain(bytesToHex(second.targetPrivateKey));
  });

  it("refuses a bundle whose ciphertext or encapsulated key was altered", async () => {
    const { importBundle, targetPrivateKey } = newTarget();
    const bundle = JSON.parse(
      await encryptWalletToBundle({
        mnemonic,
        importBundle,
        userId,
        organizationId,
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
      }),
    );
    const ciphertext = hexToBytes(bundle.ciphertext);
    ciphertext[0] = (ciphertext[0] as number) ^ 1;
    await expectBundleRefused(
      decryptImportBundle({
        bundle: JSON.stringify({ ...bundle, ciphertext: bytesToHex(ciphertext) }),
        targetPrivateKey,
      }),
      "parameters.encryptedBundle",
    );
    const otherEnc = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false));
    await expectBundleRefused(
      decryptImportBundle({ bundle: JSON.stringify({ ...bundle, encappedPublic: otherEnc }), targetPrivateKey }),
      "parameters.encryptedBundle",
    );
  });

  it.each([
    ["not JSON", "{", "parameters.encryptedBundle"],
    ["a JSON array", "[]", "parameters.encryptedBundle"],
    ["missing encappedPublic", JSON.stringify({ ciphertext: "00" }), "parameters.encryptedBundle.encappedPublic"],
    [
      "a non-point encappedPublic",
      JSON.stringify({ encappedPublic: `04${"01".repeat(64)}`, ciphertext: "00" }),
      "parameters.encryptedBundle.encappedPublic",
    ],
    [
      "a non-hex ciphertext",
      JSON.stringify({
        encappedPublic: bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false)),
        ciphertext: "xyz",
      }),
      "parameters.encryptedBundle.ciphertext",
    ],
    [
      "an empty ciphertext",
      JSON.stringify({
        encappedPublic: bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false)),
        ciphertext: "",
      }),
      "parameters.encryptedBundle",
    ],
  ])("refuses %s with INVALID_ARGUMENT naming %s", async (_, bundle, field) => {
    const { targetPrivateKey } = newTarget();
    await expectBundleRefused(decryptImportBundle({ bundle, targetPrivateKey }), field);
  });

  it("refuses a target private key that is not a P-256 scalar", async () => {
    await expectBundleRefused(
      decryptImportBundle({ bundle: "{}", targetPrivateKey: new Uint8Array(32) }),
      "targetPrivateKey",
    );
  });
});
