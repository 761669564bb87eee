import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { keccak256, recoverAddress, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { prepareSigner, signRawPayload } from "../../../src/crypto/sign/index.js";
import { custodyErrorOf, ed25519Key, expectInvalid, secp256k1Key, viemSignature } from "./fixtures.js";

const secp = secp256k1Key(0x88);
const ed = ed25519Key(0x99);
const DIGEST = keccak256(toHex("prepared"));

describe("prepareSigner", () => {
  it("signs like the one-shot form, and keeps working after the caller wipes its key bytes", async () => {
    const callerCopy = Uint8Array.from(secp.privateKey);
    const signer = prepareSigner("CURVE_SECP256K1", callerCopy);
    callerCopy.fill(0);
    const request = {
      payload: DIGEST,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    } as const;
    const prepared = signRawPayload({ signer, ...request });
    expect(prepared).toEqual(signRawPayload({ curve: "CURVE_SECP256K1", privateKey: secp.privateKey, ...request }));
    expect(await recoverAddress({ hash: DIGEST, signature: viemSignature(prepared) })).toBe(secp.address);
  });

  it("keeps an Ed25519 signer independent of the caller's seed bytes", () => {
    const callerCopy = Uint8Array.from(ed.seed);
    const signer = prepareSigner("CURVE_ED25519", callerCopy);
    callerCopy.fill(0);
    const request = {
      payload: "00ff",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
    } as const;
    expect(signRawPayload({ signer, ...request })).toEqual(
      signRawPayload({ curve: "CURVE_ED25519", privateKey: ed.seed, ...request }),
    );
  });

  it("refuses to sign an input its curve cannot take", () => {
    const secpSigner = prepareSigner("CURVE_SECP256K1", secp.privateKey);
    const edSigner = prepareSigner("CURVE_ED25519", ed.seed);
    expect(custodyErrorOf(() => secpSigner.sign({ kind: "message", message: new Uint8Array(3) })).code).toBe(
      "INVALID_ARGUMENT",
    );
    expect(custodyErrorOf(() => edSigner.sign({ kind: "digest", digest: hexToBytes(DIGEST.slice(2)) })).code).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("never quotes the key in an error", () => {
    const failures = [
      () => prepareSigner("CURVE_SECP256K1", new Uint8Array(32).fill(0xff)),
      () => prepareSigner("CURVE_ED25519", new Uint8Array(31).fill(0x5a)),
      () =>
        signRawPayload({
          curve: "CURVE_SECP256K1",
          privateKey: secp.privateKey,
          payload: `{"types":{"T":[{"name":"x","type":"uint8"}]},"primaryType":"T","domain":{},"message":{"x":300}}`,
          encoding: "PAYLOAD_ENCODING_EIP712",
          hashFunction: "HASH_FUNCTION_NO_OP",
        }),
    ];
    const secrets = [
      bytesToHex(new Uint8Array(32).fill(0xff)),
      bytesToHex(new Uint8Array(31).fill(0x5a)),
      bytesToHex(secp.privateKey),
    ];
    for (const [i, fail] of failures.entries()) {
      const error = custodyErrorOf(fail);
      const text = `${error.message} ${JSON.stringify(error.toJSON())} ${String(error.cause ?? "")}`;
      expect(text.toLowerCase()).not.toContain(secrets[i]);
    }
  });

  it("refuses a key that is not a byte array", () => {
    expectInvalid(
      () => prepareSigner("CURVE_SECP256K1", bytesToHex(secp.privateKey) as unknown as Uint8Array),
      "privateKey",
    );
  });
});
