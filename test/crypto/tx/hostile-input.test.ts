/**
 * Hostile input to the Solana, Tron and Bitcoin codecs: random strings and valid transactions with random bytes
 * changed or cut off. Whatever comes in, parsing, the policy view and signing either work or refuse with a
 * `CustodyError` naming a request field; nothing else escapes.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import fc from "fast-check";
import { utils as tronUtils } from "tronweb";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { prepareSigner } from "../../../src/crypto/sign/index.js";
import { type TransactionType, transactionCodec } from "../../../src/crypto/tx/index.js";
import { bitcoin, unsignedPsbt } from "../../support/bitcoin.js";

const FIELD = "parameters.unsignedTransaction";
const SIGN_WITH = "parameters.signWith";
const FIELDS = [FIELD, SIGN_WITH];

const edSeed = new Uint8Array(32).fill(3);
const secpKey = new Uint8Array(32).fill(4);
const edKey = { signer: prepareSigner("CURVE_ED25519", edSeed), publicKey: ed25519.getPublicKey(edSeed) };
const secpPublicKey = secp256k1.getPublicKey(secpKey);
const secp = { signer: prepareSigner("CURVE_SECP256K1", secpKey), publicKey: secpPublicKey };

function solanaSample(): string {
  const from = new PublicKey(edKey.publicKey);
  const tx = new Transaction().add(
    SystemProgram.transfer({ fromPubkey: from, toPubkey: PublicKey.default, lamports: 5 }),
  );
  tx.recentBlockhash = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
  tx.feePayer = from;
  return Buffer.from(tx.serialize({ requireAllSignatures: false })).toString("hex");
}

function tronSample(): string {
  const owner = `41${"11".repeat(20)}`;
  const raw_data = {
    contract: [
      {
        parameter: {
          value: { owner_address: owner, contract_address: owner, data: "a9059cbb" },
          type_url: "type.googleapis.com/protocol.TriggerSmartContract",
        },
        type: "TriggerSmartContract",
      },
    ],
    ref_block_bytes: "4c1a",
    ref_block_hash: "a3f1c2d4e5b6a7f8",
    expiration: 1773600060000,
    timestamp: 1773600000000,
  };
  return tronUtils.transaction.txPbToRawDataHex(
    tronUtils.transaction.txJsonToPb({ visible: false, raw_data } as never),
  );
}

function bitcoinSample(): string {
  const network = bitcoin.networks.testnet;
  const ours = bitcoin.payments.p2wpkh({ pubkey: secpPublicKey, network }).address!;
  const taproot = bitcoin.payments.p2tr({ internalPubkey: secpPublicKey.subarray(1), network }).address!;
  return unsignedPsbt(
    network,
    [
      { address: ours, value: 5_000n },
      { address: taproot, value: 5_000n },
    ],
    [{ address: ours, value: 9_000n }],
  ).toHex();
}

const SAMPLES: [TransactionType, () => string, typeof edKey][] = [
  ["TRANSACTION_TYPE_SOLANA", solanaSample, edKey],
  ["TRANSACTION_TYPE_TRON", tronSample, secp],
  ["TRANSACTION_TYPE_BITCOIN", bitcoinSample, secp],
];

/** Runs the whole codec on `input`: a refusal must be a CustodyError naming a request field. */
async function survive(type: TransactionType, input: string, key: typeof edKey): Promise<void> {
  try {
    const parsed = transactionCodec(type, "parameters.type").parse(input, FIELD);
    parsed.policyData({ interfaces: new Map(), signer: { publicKey: key.publicKey } });
    await parsed.sign(key, SIGN_WITH);
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    expect(FIELDS).toContain((error as CustodyError).details.field);
  }
}

describe.each(SAMPLES)("%s under hostile input", (type, sample, key) => {
  const valid = sample();

  it("signs the untouched sample", async () => {
    const signed = await transactionCodec(type, "parameters.type").parse(valid, FIELD).sign(key, SIGN_WITH);
    expect(signed).not.toBe("");
  });

  it("refuses or handles any string", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString("hex")),
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString("base64")),
        ),
        (input) => survive(type, input, key),
      ),
      { numRuns: 200 },
    );
  });

  it("refuses or handles the sample with bytes changed or cut off", async () => {
    const bytes = Buffer.from(valid, "hex");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(bytes.length),
        async (changes, cut) => {
          const mutated = Buffer.from(bytes);
          for (const [index, value] of changes) mutated[index] = value;
          await survive(type, mutated.subarray(0, cut === 0 ? bytes.length : cut).toString("hex"), key);
        },
      ),
      { numRuns: 300 },
    );
  });
});
