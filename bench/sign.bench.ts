/**
 * Raw-payload signing throughput next to the primitive it wraps. Run: `npx tsx bench/sign.bench.ts`.
 *
 * For each case it compares custodian's `signRawPayload` (one-shot with a raw key, and with a prepared signer as
 * the engine keeps per account) with the bare primitive (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { createPrivateKey, sign as nodeSign } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { signTyped } from "micro-eth-signer";
import { prepareSigner, type SignRawPayloadRequest, signRawPayload } from "../src/crypto/sign/index.js";
import { BenchReport } from "./harness.js";

const report = new BenchReport("sign");

/** Each of `ours` against the bare primitive, in interleaved rounds. */
async function compare(name: string, primitive: () => unknown, ours: Record<string, () => unknown>): Promise<void> {
  for (const [label, run] of Object.entries(ours)) {
    await report.compare(name, { label, run }, { label: "primitive", run: primitive });
  }
}

const secpKey = hexToBytes("4c0883a69102937d6231471b5dbb6204fe512961708279f1d7b1b8e7e8b1b1e1");
const digest = hexToBytes("9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658");
const secpRequest: SignRawPayloadRequest = {
  curve: "CURVE_SECP256K1",
  privateKey: secpKey,
  payload: `0x${bytesToHex(digest)}`,
  encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
  hashFunction: "HASH_FUNCTION_NO_OP",
};
const secpSigner = prepareSigner("CURVE_SECP256K1", secpKey);
await compare(
  "secp256k1, 32-byte digest, NO_OP",
  () => secp256k1.sign(digest, secpKey, { prehash: false, format: "recovered" }),
  {
    "signRawPayload (raw key)": () => signRawPayload(secpRequest),
    "signRawPayload (prepared)": () => signRawPayload({ ...secpRequest, signer: secpSigner }),
  },
);

const seed = hexToBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
const message = new Uint8Array(256).map((_, i) => i);
const edKeyObject = createPrivateKey({
  key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
  format: "der",
  type: "pkcs8",
});
const edRequest: SignRawPayloadRequest = {
  curve: "CURVE_ED25519",
  privateKey: seed,
  payload: bytesToHex(message),
  encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
  hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
};
const edSigner = prepareSigner("CURVE_ED25519", seed);
await compare("ed25519, 256-byte message", () => nodeSign(null, message, edKeyObject), {
  "signRawPayload (raw key)": () => signRawPayload(edRequest),
  "signRawPayload (prepared)": () => signRawPayload({ ...edRequest, signer: edSigner }),
});

const typedData = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Permit: [
      { name: "owner", type: "address" },
      { name: "spender", type: "address" },
      { name: "value", type: "uint256" },
      { name: "nonce", type: "uint256" },
      { name: "deadline", type: "uint256" },
    ],
  },
  primaryType: "Permit",
  domain: {
    name: "USD Coin",
    version: "2",
    chainId: "1",
    verifyingContract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  },
  message: {
    owner: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    spender: "0x000000000022d473030f116ddee9f6b43ac78ba3",
    value: "1000000",
    nonce: "0",
    deadline: "1893456000",
  },
};
const typedPayload = JSON.stringify(typedData);
await compare("secp256k1, EIP-712 permit", () => signTyped(JSON.parse(typedPayload), secpKey, false), {
  "signRawPayload (prepared)": () =>
    signRawPayload({
      signer: secpSigner,
      payload: typedPayload,
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    }),
});

report.finish();
