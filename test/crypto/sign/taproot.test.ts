import { schnorr } from "@noble/curves/secp256k1.js";
import { WIF } from "@scure/btc-signer";
import { taprootTweakPrivKey } from "@scure/btc-signer/utils.js";
import { describe, expect, it } from "vitest";
import { prepareSigner, signRawPayload } from "../../../src/crypto/sign/index.js";
import { bitcoin, ecc } from "../../support/bitcoin.js";
import { custodyErrorOf, ed25519Key, secp256k1Key } from "./fixtures.js";

// BIP86's test vector: the first receiving key of m/86'/0'/0' under the all-"abandon ... about" mnemonic.
const BIP86 = {
  privateKeyWif: "KyRv5iFPHG7iB5E4CqvMzH3WFJVhbfYK4VY7XAedd9Ys69mEsPLQ",
  internalKey: "cc8a4bc64d897bddc5fbc2f670f7a8ba0b386779106cf1223c6fc5d7cd6fc115",
  outputKey: "a60869f0dbcf1dc659c9cecbaf8050135ea9e8cdc487053f1dc6880949dc684c",
};
const DIGEST = "4f2a8b1c9d0e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a";
const request = {
  payload: DIGEST,
  encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
  hashFunction: "HASH_FUNCTION_NO_OP",
  taproot: true,
} as const;

describe("taproot signatures", () => {
  it("tweaks the key as BIP86's test vector does", () => {
    const signer = prepareSigner("CURVE_SECP256K1", WIF().decode(BIP86.privateKeyWif));
    expect(Buffer.from(signer.taproot!.outputKey).toString("hex")).toBe(BIP86.outputKey);
    // bitcoinjs-lib computes the same output key from the internal key on its own.
    const internalPubkey = Buffer.from(BIP86.internalKey, "hex");
    expect(Buffer.from(bitcoin.payments.p2tr({ internalPubkey }).pubkey!).toString("hex")).toBe(BIP86.outputKey);
  });

  it("signs BIP340 Schnorr by the tweaked key, deterministically, in the r/s/v layout", () => {
    const key = secp256k1Key(0x42);
    const signature = signRawPayload({ curve: "CURVE_SECP256K1", privateKey: key.privateKey, ...request });
    expect(signature.v).toBe("00");
    const outputKey = bitcoin.payments.p2tr({ internalPubkey: key.publicKey.subarray(1) }).pubkey!;
    const bytes = Buffer.from(signature.r + signature.s, "hex");
    expect(ecc.verifySchnorr(Buffer.from(DIGEST, "hex"), outputKey, bytes)).toBe(true);
    // Not a signature of the untweaked key.
    expect(ecc.verifySchnorr(Buffer.from(DIGEST, "hex"), key.publicKey.subarray(1), bytes)).toBe(false);
    expect(signRawPayload({ curve: "CURVE_SECP256K1", privateKey: key.privateKey, ...request })).toEqual(signature);
  });

  it("signs byte for byte what @noble/curves' BIP340 signs with the same key and zero auxiliary data", () => {
    for (const byte of [0x01, 0x42, 0x99, 0xfe]) {
      const key = secp256k1Key(byte);
      const tweaked = taprootTweakPrivKey(key.privateKey);
      for (const digest of [DIGEST, "00".repeat(32), "ff".repeat(32)]) {
        const ours = prepareSigner("CURVE_SECP256K1", key.privateKey).taproot!.sign(Buffer.from(digest, "hex"), "d");
        const noble = schnorr.sign(Buffer.from(digest, "hex"), tweaked, new Uint8Array(32));
        expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(noble).toString("hex"));
      }
    }
  });

  it("refuses a digest of another length, naming the payload", () => {
    const key = secp256k1Key(0x43);
    for (const payload of ["", "ab".repeat(31), "ab".repeat(33)]) {
      const error = custodyErrorOf(() =>
        signRawPayload({ curve: "CURVE_SECP256K1", privateKey: key.privateKey, ...request, payload }),
      );
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.details.field).toBe("parameters.payload");
    }
    const signer = prepareSigner("CURVE_SECP256K1", key.privateKey);
    expect(custodyErrorOf(() => signer.taproot!.sign(new Uint8Array(33), "digest")).details.field).toBe("digest");
  });

  it("refuses the Ethereum encodings and Ed25519 keys, naming the field", () => {
    const key = secp256k1Key(0x44);
    const typedData = custodyErrorOf(() =>
      signRawPayload({
        curve: "CURVE_SECP256K1",
        privateKey: key.privateKey,
        ...request,
        payload: `{"types":{"T":[{"name":"x","type":"uint8"}]},"primaryType":"T","domain":{},"message":{"x":1}}`,
        encoding: "PAYLOAD_ENCODING_EIP712",
      }),
    );
    expect(typedData.details.field).toBe("parameters.encoding");
    const ed = ed25519Key(0x45);
    const edError = custodyErrorOf(() =>
      signRawPayload({
        curve: "CURVE_ED25519",
        privateKey: ed.seed,
        ...request,
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      }),
    );
    expect(edError.code).toBe("INVALID_ARGUMENT");
    expect(prepareSigner("CURVE_ED25519", ed.seed).taproot).toBeUndefined();
  });
});
