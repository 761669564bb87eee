import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { prepareSigner, signRawPayload } from "../../../src/crypto/sign/index.js";
import { ed25519Key, expectInvalid } from "./fixtures.js";

const key = ed25519Key(0x22);

function signHex(payload: string) {
  return signRawPayload({
    curve: "CURVE_ED25519",
    privateKey: key.seed,
    payload,
    encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
    hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
  });
}

function joined(sig: { r: string; s: string }): Uint8Array {
  return Uint8Array.from(Buffer.from(sig.r + sig.s, "hex"));
}

describe("Ed25519 raw-payload signatures", () => {
  it("signs the payload bytes themselves (RFC 8032), verified by noble, with v = 00", () => {
    const message = utf8ToBytes("custodian signs this");
    const signature = signHex(bytesToHex(message));
    expect(signature.r).toMatch(/^[0-9a-f]{64}$/);
    expect(signature.s).toMatch(/^[0-9a-f]{64}$/);
    expect(signature.v).toBe("00");
    expect(ed25519.verify(joined(signature), message, key.publicKey)).toBe(true);
    expect(joined(signature)).toEqual(ed25519.sign(message, key.seed));
  });

  it("signs UTF-8 text as its bytes", () => {
    const text = "héllo, Solana ✓";
    const signature = signRawPayload({
      curve: "CURVE_ED25519",
      privateKey: key.seed,
      payload: text,
      encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
      hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
    });
    expect(ed25519.verify(joined(signature), utf8ToBytes(text), key.publicKey)).toBe(true);
  });

  it("signs a Solana transaction message that @solana/web3.js then verifies, as @turnkey/solana does", () => {
    const payer = Keypair.fromSeed(key.seed);
    expect(payer.publicKey.toBytes()).toEqual(key.publicKey);
    const tx = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: new PublicKey(new Uint8Array(32).fill(9)).toBase58(),
    });
    tx.add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: new PublicKey(new Uint8Array(32).fill(3)),
        lamports: 1_000,
      }),
    );
    const signature = signHex(tx.serializeMessage().toString("hex"));
    tx.addSignature(payer.publicKey, Buffer.from(joined(signature)));
    expect(tx.verifySignatures()).toBe(true);
  });

  it("gives the same signatures from a prepared signer reused across payloads", () => {
    const signer = prepareSigner("CURVE_ED25519", key.seed);
    for (const payload of ["00", "ff".repeat(1232), bytesToHex(utf8ToBytes("again"))]) {
      const viaSigner = signRawPayload({
        signer,
        payload,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      });
      expect(viaSigner).toEqual(signHex(payload));
    }
  });

  for (const hashFunction of ["HASH_FUNCTION_NO_OP", "HASH_FUNCTION_SHA256", "HASH_FUNCTION_KECCAK256"] as const) {
    it(`refuses ${hashFunction}, naming the hash function`, () => {
      const error = expectInvalid(
        () =>
          signRawPayload({
            curve: "CURVE_ED25519",
            privateKey: key.seed,
            payload: "ab".repeat(32),
            encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction,
          }),
        "parameters.hashFunction",
      );
      expect(error.message).toContain("HASH_FUNCTION_NOT_APPLICABLE");
    });
  }

  for (const encoding of ["PAYLOAD_ENCODING_EIP712", "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION"] as const) {
    it(`refuses the Ethereum encoding ${encoding}, naming the encoding`, () => {
      expectInvalid(
        () =>
          signRawPayload({
            curve: "CURVE_ED25519",
            privateKey: key.seed,
            payload: "{}",
            encoding,
            hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
          }),
        "parameters.encoding",
      );
    });
  }

  it("refuses a seed that is not 32 bytes", () => {
    expectInvalid(() => prepareSigner("CURVE_ED25519", new Uint8Array(64).fill(1)), "privateKey");
  });
});
