import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { type Address, concatHex, keccak256, numberToHex, recoverAddress, toRlp } from "viem";
import { hashAuthorization, recoverAuthorizationAddress } from "viem/utils";
import { describe, expect, it } from "vitest";
import { signRawPayload } from "../../../src/crypto/sign/index.js";
import { compact, expectInvalid, secp256k1Key, viemSignature } from "./fixtures.js";

const key = secp256k1Key(0x44);
const DELEGATE = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B" as Address;

function signAuthorization(
  payload: string,
  hashFunction:
    | "HASH_FUNCTION_NO_OP"
    | "HASH_FUNCTION_SHA256"
    | "HASH_FUNCTION_KECCAK256"
    | "HASH_FUNCTION_NOT_APPLICABLE" = "HASH_FUNCTION_NO_OP",
) {
  return signRawPayload({
    curve: "CURVE_SECP256K1",
    privateKey: key.privateKey,
    payload,
    encoding: "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
    hashFunction,
  });
}

async function expectAuthorizes(authorization: { address: Address; chainId: number; nonce: number }, payload: string) {
  const signature = signAuthorization(payload);
  const digest = hexToBytes(hashAuthorization(authorization).slice(2));
  expect(secp256k1.verify(compact(signature), digest, key.publicKey, { prehash: false })).toBe(true);
  expect(await recoverAuthorizationAddress({ authorization, signature: viemSignature(signature) })).toBe(key.address);
}

describe("EIP-7702 authorization payloads", () => {
  it("signs what @turnkey/viem's signAuthorization sends so viem recovers the authority", async () => {
    const authorization = { address: DELEGATE, chainId: 1, nonce: 7 };
    await expectAuthorizes(authorization, JSON.stringify(authorization));
  });

  it("accepts chain id 0 (any chain), a lowercase address, and the members in any order", async () => {
    const authorization = { address: DELEGATE, chainId: 0, nonce: 0 };
    await expectAuthorizes(authorization, JSON.stringify({ nonce: 0, chainId: 0, address: DELEGATE.toLowerCase() }));
  });

  it("accepts integers as decimal or hex strings, up to the largest uint64 nonce", async () => {
    const signature = signAuthorization(
      JSON.stringify({ address: DELEGATE, chainId: "0x2105", nonce: "18446744073709551615" }),
    );
    // viem's Authorization holds the nonce as a number, which cannot carry 2^64 - 1, so the digest is built here
    // from EIP-7702's definition with viem's RLP and keccak: keccak256(0x05 || rlp([chain_id, address, nonce])).
    const digest = keccak256(concatHex(["0x05", toRlp([numberToHex(8453n), DELEGATE, numberToHex(2n ** 64n - 1n)])]));
    expect(await recoverAddress({ hash: digest, signature: viemSignature(signature) })).toBe(key.address);
  });

  it("refuses every hash function but NO_OP, naming the hash function", () => {
    const payload = JSON.stringify({ address: DELEGATE, chainId: 1, nonce: 1 });
    for (const hashFunction of [
      "HASH_FUNCTION_SHA256",
      "HASH_FUNCTION_KECCAK256",
      "HASH_FUNCTION_NOT_APPLICABLE",
    ] as const) {
      expectInvalid(() => signAuthorization(payload, hashFunction), "parameters.hashFunction");
    }
  });

  describe("refuses, naming the payload,", () => {
    const ok = { address: DELEGATE, chainId: 1, nonce: 1 };
    const refused: Record<string, unknown> = {
      "a missing address": { chainId: 1, nonce: 1 },
      "a missing chain id": { address: DELEGATE, nonce: 1 },
      "a missing nonce": { address: DELEGATE, chainId: 1 },
      "an extra member": { ...ok, contractAddress: DELEGATE },
      "a negative nonce": { ...ok, nonce: -1 },
      "a fractional chain id": { ...ok, chainId: 1.5 },
      "a chain id past 2^53 as a JSON number": { ...ok, chainId: 2 ** 60 },
      "a nonce of 2^64": { ...ok, nonce: "18446744073709551616" },
      "a chain id of 2^256": { ...ok, chainId: `0x1${"0".repeat(64)}` },
      "a decimal string with a leading zero": { ...ok, nonce: "07" },
      "a numeric string with spaces": { ...ok, nonce: " 7" },
      "a short address": { ...ok, address: DELEGATE.slice(0, 40) },
      "an address without 0x": { ...ok, address: DELEGATE.slice(2) },
      "an address with a wrong EIP-55 checksum": { ...ok, address: DELEGATE.replace("B52", "b52") },
      "a JSON array": [DELEGATE, 1, 1],
    };
    for (const [name, doc] of Object.entries(refused)) {
      it(name, () => {
        expectInvalid(() => signAuthorization(JSON.stringify(doc)), "parameters.payload");
      });
    }
    it("text that is not JSON", () => {
      expectInvalid(() => signAuthorization("address=0x..."), "parameters.payload");
    });
    it("a __proto__ member", () => {
      expectInvalid(
        () => signAuthorization(`{"address":"${DELEGATE}","chainId":1,"nonce":1,"__proto__":{"nonce":2}}`),
        "parameters.payload",
      );
    });
  });
});
