/**
 * The shared-hash sighash encoder against @scure/btc-signer's own `preimageWitnessV0` / `preimageWitnessV1`, for
 * every sighash type, and its linearity: signing every input reads each input and output a constant number of
 * times, counted, where computing each digest from scratch reads the whole transaction per input.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { OutScript, p2pkh, p2wpkh, SigHash, Transaction } from "@scure/btc-signer";
import { describe, expect, it } from "vitest";
import { type SighashInput, type SighashOutput, TransactionSighashes } from "../../../src/crypto/tx/bitcoin-sighash.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const KEYS = Array.from({ length: 64 }, (_, byte) => secp256k1.getPublicKey(new Uint8Array(32).fill(byte + 1), true));
const key = (index: number) => KEYS[index % KEYS.length] as Uint8Array;
const ECDSA_TYPES = [
  SigHash.ALL,
  SigHash.NONE,
  SigHash.SINGLE,
  SigHash.ALL_ANYONECANPAY,
  SigHash.NONE_ANYONECANPAY,
  SigHash.SINGLE_ANYONECANPAY,
];
const TAPROOT_OUTPUT = OutScript.encode({ type: "tr", pubkey: key(0x07).subarray(1) });

/** A transaction of `inputs` inputs (varied sequences, amounts and scripts) and `outputs` outputs. */
function transaction(inputs: number, outputs: number) {
  const tx = new Transaction({ allowUnknownOutputs: true, version: 2, lockTime: 812_345 });
  const previous: SighashOutput[] = [];
  for (let index = 0; index < inputs; index++) {
    const txid = new Uint8Array(32).map((_, byte) => (index * 31 + byte * 7) & 0xff);
    const script = index % 2 === 0 ? p2wpkh(key(index + 1)).script : TAPROOT_OUTPUT;
    const amount = 10_000n + BigInt(index) * 1_234n;
    tx.addInput({ txid, index: index % 3, sequence: 0xfffffffd - index, witnessUtxo: { script, amount } });
    previous.push({ script, amount });
  }
  for (let index = 0; index < outputs; index++) {
    const script = index % 2 === 0 ? p2pkh(key(index + 40)).script : TAPROOT_OUTPUT;
    tx.addOutput({ script, amount: 5_000n + BigInt(index) });
  }
  const view = {
    version: tx.version,
    lockTime: tx.lockTime,
    inputs: Array.from({ length: inputs }, (_, index) => {
      const input = tx.getInput(index);
      return { txid: input.txid!, index: input.index!, sequence: input.sequence! };
    }),
    outputs: Array.from({ length: outputs }, (_, index) => {
      const output = tx.getOutput(index);
      return { script: output.script!, amount: output.amount! };
    }),
  };
  return { tx, view, previous };
}

describe("segwit and taproot sighashes with shared hashes", () => {
  it("equal btc-signer's BIP143 digests for every sighash type, input and script code", () => {
    const { tx, view, previous } = transaction(5, 3);
    const ours = new TransactionSighashes(view);
    for (const hashType of ECDSA_TYPES) {
      for (let index = 0; index < 5; index++) {
        const scriptCode = p2pkh(key(index + 1)).script;
        const amount = previous[index]!.amount;
        expect(hex(ours.segwitV0(index, scriptCode, amount, hashType)), `type ${hashType} input ${index}`).toBe(
          hex(tx.preimageWitnessV0(index, scriptCode, hashType, amount)),
        );
      }
    }
  });

  it("equal btc-signer's BIP341 key-path digests for DEFAULT and every other sighash type", () => {
    const { tx, view, previous } = transaction(5, 5);
    const ours = new TransactionSighashes(view);
    const scripts = previous.map((entry) => entry.script);
    const amounts = previous.map((entry) => entry.amount);
    for (const hashType of [SigHash.DEFAULT, ...ECDSA_TYPES]) {
      for (let index = 0; index < 5; index++) {
        expect(hex(ours.taprootKeyPath(index, previous, hashType)), `type ${hashType} input ${index}`).toBe(
          hex(tx.preimageWitnessV1(index, scripts, hashType, amounts)),
        );
      }
    }
  });

  it("reads each input and output a bounded number of times however many inputs are signed", () => {
    const reads = (inputs: number) => {
      const { view, previous } = transaction(inputs, 4);
      let count = 0;
      const counted = <T extends object>(items: readonly T[]): readonly T[] =>
        new Proxy(items as T[], {
          get(target, property, receiver) {
            if (typeof property === "string" && /^[0-9]+$/.test(property)) count++;
            return Reflect.get(target, property, receiver);
          },
        });
      const ours = new TransactionSighashes({
        ...view,
        inputs: counted<SighashInput>(view.inputs),
        outputs: counted<SighashOutput>(view.outputs),
      });
      const previousCounted = counted(previous);
      for (let index = 0; index < inputs; index++) {
        ours.segwitV0(index, p2pkh(key(1)).script, 1n, SigHash.ALL);
        ours.taprootKeyPath(index, previousCounted, SigHash.DEFAULT);
      }
      return count;
    };
    const small = reads(50);
    const large = reads(500);
    // Linear: ten times the inputs, ten times the reads (a digest per input recomputing the shared hashes
    // would read about a hundred times as much).
    expect(large / small).toBeLessThan(11);
    expect(large).toBeLessThan(500 * 12);
  });

  it("refuses an input the transaction does not have", () => {
    const { view, previous } = transaction(2, 1);
    const ours = new TransactionSighashes(view);
    expect(() => ours.segwitV0(2, new Uint8Array(25), 1n, SigHash.ALL)).toThrow(/no input 2/);
    expect(() => ours.taprootKeyPath(0, previous.slice(1), SigHash.DEFAULT)).toThrow(/previous output/);
  });
});
