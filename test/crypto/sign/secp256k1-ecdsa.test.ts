import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { recoverAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signSecp256k1Recovered } from "../../../src/crypto/sign/secp256k1-ecdsa.js";
import { prepareSigner } from "../../../src/crypto/sign/signer.js";

// libsecp256k1 (WebAssembly) signs instead of @noble/curves for speed; nothing a verifier or a snapshot sees
// may change: the signatures must be noble's and viem's, byte for byte, recovery id included.
const validKey = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .filter((bytes) => secp256k1.utils.isValidSecretKey(bytes));
const digest = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe("secp256k1 ECDSA by libsecp256k1", () => {
  it("gives exactly noble's RFC 6979, low-S signature and recovery id", () => {
    fc.assert(
      fc.property(validKey, digest, (key, hash) => {
        const ours = signSecp256k1Recovered(hash, key);
        const noble = secp256k1.sign(hash, key, { prehash: false, format: "recovered" });
        expect(bytesToHex(ours)).toBe(bytesToHex(noble));
      }),
      { numRuns: 300 },
    );
  });

  it("gives exactly viem's local account signature, which recovers to the account", async () => {
    await fc.assert(
      fc.asyncProperty(validKey, digest, async (key, hash) => {
        const account = privateKeyToAccount(`0x${bytesToHex(key)}`);
        const hashHex = `0x${bytesToHex(hash)}` as const;
        const signed = prepareSigner("CURVE_SECP256K1", key).sign({ kind: "digest", digest: hash });
        const viem = await account.sign({ hash: hashHex });
        expect(`0x${signed.r}${signed.s}${signed.v === "00" ? "1b" : "1c"}`).toBe(viem);
        expect(await recoverAddress({ hash: hashHex, signature: viem })).toBe(account.address);
      }),
      { numRuns: 100 },
    );
  });

  it("signs the edges of the scalar range", () => {
    const order = secp256k1.Point.CURVE().n;
    for (const scalar of [1n, 2n, order - 1n, order / 2n]) {
      const key = secp256k1.Point.Fn.toBytes(scalar);
      const hash = new Uint8Array(32).fill(0xab);
      expect(bytesToHex(signSecp256k1Recovered(hash, key))).toBe(
        bytesToHex(secp256k1.sign(hash, key, { prehash: false, format: "recovered" })),
      );
    }
  });

  it("leaves the caller's key and digest as they were", () => {
    const key = secp256k1.utils.randomSecretKey();
    const hash = new Uint8Array(32).fill(7);
    const keyBefore = bytesToHex(key);
    signSecp256k1Recovered(hash, key);
    expect(bytesToHex(key)).toBe(keyBefore);
    expect(hash.every((byte) => byte === 7)).toBe(true);
  });
});
