import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { type Hex, hashMessage, keccak256, recoverAddress, recoverMessageAddress, sha256, toHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signRawPayload } from "../../../src/crypto/sign/index.js";
import { compact, custodyErrorOf, expectInvalid, secp256k1Key, viemSignature } from "./fixtures.js";

const key = secp256k1Key(0x11);
const HALF_ORDER = secp256k1.Point.CURVE().n / 2n;

function sign(
  payload: string,
  encoding: "PAYLOAD_ENCODING_HEXADECIMAL" | "PAYLOAD_ENCODING_TEXT_UTF8",
  hashFunction:
    | "HASH_FUNCTION_NO_OP"
    | "HASH_FUNCTION_SHA256"
    | "HASH_FUNCTION_KECCAK256"
    | "HASH_FUNCTION_NOT_APPLICABLE",
) {
  return signRawPayload({ curve: "CURVE_SECP256K1", privateKey: key.privateKey, payload, encoding, hashFunction });
}

describe("secp256k1 raw-payload signatures", () => {
  const message = "custodian signs this";
  const messageHex = toHex(message);
  const cases: { name: string; sig: () => ReturnType<typeof sign>; digest: Hex }[] = [
    {
      name: "a 32-byte hex digest with NO_OP",
      sig: () => sign(keccak256(messageHex), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"),
      digest: keccak256(messageHex),
    },
    {
      name: "hex bytes with SHA256",
      sig: () => sign(messageHex, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_SHA256"),
      digest: sha256(messageHex),
    },
    {
      name: "hex bytes with KECCAK256",
      sig: () => sign(messageHex.slice(2).toUpperCase(), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_KECCAK256"),
      digest: keccak256(messageHex),
    },
    {
      name: "UTF-8 text with SHA256",
      sig: () => sign(message, "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_SHA256"),
      digest: sha256(messageHex),
    },
    {
      name: "UTF-8 text with KECCAK256",
      sig: () => sign(message, "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_KECCAK256"),
      digest: keccak256(messageHex),
    },
    {
      name: "32 bytes of UTF-8 text with NO_OP",
      sig: () => sign("a".repeat(32), "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_NO_OP"),
      digest: toHex("a".repeat(32)),
    },
  ];

  for (const { name, sig, digest } of cases) {
    it(`signs ${name} so that viem recovers the account's address and noble verifies it`, async () => {
      const signature = sig();
      expect(signature.r).toMatch(/^[0-9a-f]{64}$/);
      expect(signature.s).toMatch(/^[0-9a-f]{64}$/);
      expect(["00", "01"]).toContain(signature.v);
      expect(await recoverAddress({ hash: digest, signature: viemSignature(signature) })).toBe(key.address);
      expect(secp256k1.verify(compact(signature), hexToBytes(digest.slice(2)), key.publicKey, { prehash: false })).toBe(
        true,
      );
    });
  }

  it("signs what @turnkey/viem's signMessage sends (the EIP-191 hash, hex, NO_OP) so recoverMessageAddress finds the account", async () => {
    const signature = sign(hashMessage("hello"), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    expect(await recoverMessageAddress({ message: "hello", signature: viemSignature(signature) })).toBe(key.address);
  });

  it("is deterministic and equals noble's RFC 6979 signature of the same digest", () => {
    const digest = keccak256(messageHex);
    const first = sign(digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    expect(sign(digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")).toEqual(first);
    const noble = secp256k1.sign(hexToBytes(digest.slice(2)), key.privateKey, { prehash: false, format: "recovered" });
    expect(first).toEqual({
      r: bytesToHex(noble.subarray(1, 33)),
      s: bytesToHex(noble.subarray(33)),
      v: `0${noble[0]}`,
    });
  });

  it("recovers to the signer for any key and any digest, always low-S", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k)),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (privateKey, digest) => {
          const digestHex = `0x${bytesToHex(digest)}` as Hex;
          const signature = signRawPayload({
            curve: "CURVE_SECP256K1",
            privateKey,
            payload: digestHex,
            encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction: "HASH_FUNCTION_NO_OP",
          });
          expect(BigInt(`0x${signature.s}`) <= HALF_ORDER).toBe(true);
          const address = privateKeyToAddress(`0x${bytesToHex(privateKey)}`);
          expect(await recoverAddress({ hash: digestHex, signature: viemSignature(signature) })).toBe(address);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("refuses a NO_OP payload that is not exactly 32 bytes, naming the payload", () => {
    for (const bytes of [1, 31, 33, 64]) {
      const error = expectInvalid(
        () => sign("ab".repeat(bytes), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"),
        "parameters.payload",
      );
      expect(error.message).toContain(`got ${bytes} bytes`);
    }
  });

  it("refuses HASH_FUNCTION_NOT_APPLICABLE, naming the hash function", () => {
    const error = expectInvalid(
      () => sign("ab".repeat(32), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NOT_APPLICABLE"),
      "parameters.hashFunction",
    );
    expect(error.message).toContain("HASH_FUNCTION_NO_OP");
  });

  it("refuses a key that is not a secp256k1 scalar without quoting it", () => {
    const order = secp256k1.Point.CURVE().n;
    const badKeys = [
      new Uint8Array(32),
      hexToBytes(order.toString(16)),
      new Uint8Array(31).fill(1),
      new Uint8Array(33).fill(1),
    ];
    for (const privateKey of badKeys) {
      const error = custodyErrorOf(() =>
        signRawPayload({
          curve: "CURVE_SECP256K1",
          privateKey,
          payload: "ab".repeat(32),
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        }),
      );
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.field).toBe("privateKey");
      expect(JSON.stringify(error.toJSON())).not.toContain(bytesToHex(privateKey));
    }
  });
});
