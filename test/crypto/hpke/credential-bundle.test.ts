import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { decryptCredentialBundle, generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { bytesToHex, hexToBytes } from "../../../src/crypto/bytes.js";
import { encryptCredentialBundle } from "../../../src/crypto/hpke/index.js";
import { seededRandomBytes } from "./seeded-random.js";

const apiPrivateKey = hexToBytes("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721");

describe("encryptCredentialBundle", () => {
  it("is opened by @turnkey/crypto decryptCredentialBundle for an uncompressed target", async () => {
    const target = generateP256KeyPair();
    const bundle = await encryptCredentialBundle({
      plaintext: apiPrivateKey,
      targetPublicKey: target.publicKeyUncompressed,
    });
    expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(bytesToHex(apiPrivateKey));
  });

  it("is opened by @turnkey/crypto decryptCredentialBundle for a compressed target", async () => {
    const target = generateP256KeyPair();
    const bundle = await encryptCredentialBundle({ plaintext: apiPrivateKey, targetPublicKey: target.publicKey });
    expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(bytesToHex(apiPrivateKey));
  });

  it("accepts a 0x-prefixed upper-case target key", async () => {
    const target = generateP256KeyPair();
    const bundle = await encryptCredentialBundle({
      plaintext: apiPrivateKey,
      targetPublicKey: `0x${target.publicKey.toUpperCase()}`,
    });
    expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(bytesToHex(apiPrivateKey));
  });

  it("carries plaintexts of any length", async () => {
    const target = generateP256KeyPair();
    for (const length of [1, 31, 33, 200]) {
      const plaintext = seededRandomBytes(`pt-${length}`)(length);
      const bundle = await encryptCredentialBundle({ plaintext, targetPublicKey: target.publicKey });
      expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(bytesToHex(plaintext));
    }
  });

  it("lays the bundle out as bs58check(compressed enc ‖ ciphertext ‖ tag)", async () => {
    const target = generateP256KeyPair();
    const bundle = await encryptCredentialBundle({ plaintext: apiPrivateKey, targetPublicKey: target.publicKey });
    const bytes = createBase58check(sha256).decode(bundle);
    expect(bytes.length).toBe(33 + 32 + 16);
    expect([2, 3]).toContain(bytes[0]);
  });

  it("does not open with another private key", async () => {
    const target = generateP256KeyPair();
    const other = generateP256KeyPair();
    const bundle = await encryptCredentialBundle({ plaintext: apiPrivateKey, targetPublicKey: target.publicKey });
    expect(() => decryptCredentialBundle(bundle, other.privateKey)).toThrow();
  });

  it("gives the same bundle for the same injected randomness and a different one otherwise", async () => {
    const target = generateP256KeyPair();
    const make = (seed: string) =>
      encryptCredentialBundle({
        plaintext: apiPrivateKey,
        targetPublicKey: target.publicKey,
        randomBytes: seededRandomBytes(seed),
      });
    const [a, b, c] = await Promise.all([make("one"), make("one"), make("two")]);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(decryptCredentialBundle(a, target.privateKey)).toBe(bytesToHex(apiPrivateKey));
  });

  it.each([
    ["not hex", "zz"],
    ["odd hex", "02abc"],
    ["empty", ""],
    ["a 32-byte key", "11".repeat(32)],
    ["a 64-byte raw x‖y without prefix", "11".repeat(64)],
    ["a compressed key with a bad prefix", `05${"11".repeat(32)}`],
    ["an x coordinate off the curve", `02${"ff".repeat(32)}`],
    ["an uncompressed point off the curve", `04${"01".repeat(64)}`],
  ])("refuses %s as targetPublicKey with INVALID_ARGUMENT naming parameters.targetPublicKey", async (_, key) => {
    const error = await encryptCredentialBundle({ plaintext: apiPrivateKey, targetPublicKey: key }).catch((e) => e);
    expect(error).toBeInstanceOf(CustodyError);
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.field).toBe("parameters.targetPublicKey");
  });
});
