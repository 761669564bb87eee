/**
 * Segwit v0 (BIP143) and taproot key-path (BIP341) signature hashes of a whole transaction, with the hashes every
 * input's digest shares (of the prevouts, amounts, previous scripts, sequences and outputs) computed once.
 *
 * `@scure/btc-signer`'s `preimageWitnessV0` and `preimageWitnessV1` recompute those shared hashes for every input,
 * so signing n inputs hashes n times the whole transaction: a PSBT of 1,500 inputs held the event loop for
 * seconds. BIP143 and BIP341 define the shared hashes precisely so that they can be computed once; this small
 * encoder does that, and the tests check it against btc-signer's digests for every sighash type. The hashing is
 * `@noble/hashes`' SHA-256.
 *
 * Legacy (pre-segwit) sighashes are not here: that algorithm serializes the whole transaction for every input,
 * so its cost is quadratic by design; `bitcoin-psbt.ts` bounds how much of it one request may ask for.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { CompactSize, SigHash } from "@scure/btc-signer";
import { utf8ToBytes } from "../bytes.js";

/** An input as the sighash sees it; `txid` in btc-signer's order (as shown, reversed on the wire). */
export interface SighashInput {
  readonly txid: Uint8Array;
  readonly index: number;
  readonly sequence: number;
}

/** An output as the sighash sees it: what it pays and to which script. */
export interface SighashOutput {
  readonly script: Uint8Array;
  readonly amount: bigint;
}

/** The parts of a transaction a segwit or taproot sighash commits to. */
export interface SighashTransaction {
  readonly version: number;
  readonly lockTime: number;
  readonly inputs: readonly SighashInput[];
  readonly outputs: readonly SighashOutput[];
}

type Hash = ReturnType<typeof sha256.create>;

const ZERO_HASH: Uint8Array = new Uint8Array(32);
// The flag bit of SIGHASH_ANYONECANPAY (btc-signer names only its combinations).
const ANYONECANPAY = 0x80;
const OUTPUT_MASK = 0x03;
// BIP341: the key-path spend type byte, without an annex.
const KEY_PATH_SPEND = 0;
// BIP341: SigMsg is preceded by the epoch byte 0.
const SIGHASH_EPOCH = 0;

function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value >>> 0, true);
  return bytes;
}

function u64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

/** A script with its CompactSize length in front, as transactions serialize it. */
function varBytes(bytes: Uint8Array): Uint8Array[] {
  return [CompactSize.encode(BigInt(bytes.length)), bytes];
}

/** The outpoint as serialized: the txid reversed to wire order, then the output index. */
function outpoint(input: SighashInput): Uint8Array[] {
  return [Uint8Array.from(input.txid).reverse(), u32(input.index)];
}

function output(entry: SighashOutput): Uint8Array[] {
  return [u64(entry.amount), ...varBytes(entry.script)];
}

function feed(hash: Hash, parts: readonly Uint8Array[]): Hash {
  for (const part of parts) hash.update(part);
  return hash;
}

const sha256d = (hash: Hash): Uint8Array => sha256(hash.digest());

/** Memoizes one hash: computed at its first use, then shared by every input. */
function once(compute: () => Uint8Array): () => Uint8Array {
  let value: Uint8Array | undefined;
  return () => {
    value ??= compute();
    return value;
  };
}

/** Hashes `parts(item)` of every item in one pass; `finish` is SHA-256 (BIP341) or double SHA-256 (BIP143). */
function hashAll<T>(items: readonly T[], parts: (item: T) => Uint8Array[], double: boolean): Uint8Array {
  const hash = sha256.create();
  for (const item of items) feed(hash, parts(item));
  return double ? sha256d(hash) : hash.digest();
}

const TAP_SIGHASH_TAG = sha256(utf8ToBytes("TapSighash"));

/** The signature hashes of one transaction's inputs; the shared parts are computed at most once each. */
export class TransactionSighashes {
  readonly #tx: SighashTransaction;
  // BIP143 (double SHA-256).
  readonly #hashPrevouts = once(() => hashAll(this.#tx.inputs, outpoint, true));
  readonly #hashSequence = once(() => hashAll(this.#tx.inputs, (input) => [u32(input.sequence)], true));
  readonly #hashOutputs = once(() => hashAll(this.#tx.outputs, output, true));
  // BIP341 (single SHA-256).
  readonly #shaPrevouts = once(() => hashAll(this.#tx.inputs, outpoint, false));
  readonly #shaSequences = once(() => hashAll(this.#tx.inputs, (input) => [u32(input.sequence)], false));
  readonly #shaOutputs = once(() => hashAll(this.#tx.outputs, output, false));

  constructor(tx: SighashTransaction) {
    this.#tx = tx;
  }

  /**
   * The BIP143 digest of input `index` spending `amount` with `scriptCode` (for P2WPKH, the P2PKH script of the
   * key hash). SIGHASH_SINGLE without an output of the same index commits to a zero hash, as BIP143 says.
   */
  segwitV0(index: number, scriptCode: Uint8Array, amount: bigint, hashType: number): Uint8Array {
    const tx = this.#tx;
    const input = this.#input(index);
    const anyoneCanPay = (hashType & ANYONECANPAY) !== 0;
    const outputs = hashType & 0x1f;
    const single = outputs === SigHash.SINGLE;
    const none = outputs === SigHash.NONE;
    const hashPrevouts = anyoneCanPay ? ZERO_HASH : this.#hashPrevouts();
    const hashSequence = anyoneCanPay || single || none ? ZERO_HASH : this.#hashSequence();
    let hashOutputs: Uint8Array = ZERO_HASH;
    if (!single && !none) hashOutputs = this.#hashOutputs();
    else if (single && index < tx.outputs.length) {
      hashOutputs = sha256d(feed(sha256.create(), output(tx.outputs[index] as SighashOutput)));
    }
    return sha256d(
      feed(sha256.create(), [
        u32(tx.version),
        hashPrevouts,
        hashSequence,
        ...outpoint(input),
        ...varBytes(scriptCode),
        u64(amount),
        u32(input.sequence),
        hashOutputs,
        u32(tx.lockTime),
        u32(hashType),
      ]),
    );
  }

  /**
   * The BIP341 key-path digest (no annex) of input `index`, given every input's previous output (`previous`, in
   * input order, as BIP341 commits to all of them). The caller has refused SIGHASH_SINGLE without its output,
   * for which BIP341 defines no digest.
   */
  taprootKeyPath(index: number, previous: readonly SighashOutput[], hashType: number): Uint8Array {
    const tx = this.#tx;
    const input = this.#input(index);
    if (previous.length !== tx.inputs.length) throw new Error("one previous output per input is needed");
    const anyoneCanPay = (hashType & ANYONECANPAY) !== 0;
    const outputs = hashType === SigHash.DEFAULT ? SigHash.ALL : hashType & OUTPUT_MASK;
    const hash = sha256.create().update(TAP_SIGHASH_TAG).update(TAP_SIGHASH_TAG);
    feed(hash, [Uint8Array.of(SIGHASH_EPOCH, hashType), u32(tx.version), u32(tx.lockTime)]);
    if (!anyoneCanPay) {
      feed(hash, [
        this.#shaPrevouts(),
        this.#shaAmounts(previous),
        this.#shaScriptPubkeys(previous),
        this.#shaSequences(),
      ]);
    }
    if (outputs === SigHash.ALL) hash.update(this.#shaOutputs());
    hash.update(Uint8Array.of(KEY_PATH_SPEND));
    if (anyoneCanPay) {
      const spent = previous[index] as SighashOutput;
      feed(hash, [...outpoint(input), u64(spent.amount), ...varBytes(spent.script), u32(input.sequence)]);
    } else {
      hash.update(u32(index));
    }
    if (outputs === SigHash.SINGLE) {
      const paid = tx.outputs[index];
      if (!paid) throw new Error(`SIGHASH_SINGLE needs output ${index}`);
      hash.update(feed(sha256.create(), output(paid)).digest());
    }
    return hash.digest();
  }

  // The previous outputs are the caller's; they are hashed once per list handed in.
  #amounts?: { readonly of: readonly SighashOutput[]; readonly hash: Uint8Array };
  #scripts?: { readonly of: readonly SighashOutput[]; readonly hash: Uint8Array };

  #shaAmounts(previous: readonly SighashOutput[]): Uint8Array {
    if (this.#amounts?.of !== previous) {
      this.#amounts = { of: previous, hash: hashAll(previous, (entry) => [u64(entry.amount)], false) };
    }
    return this.#amounts.hash;
  }

  #shaScriptPubkeys(previous: readonly SighashOutput[]): Uint8Array {
    if (this.#scripts?.of !== previous) {
      this.#scripts = { of: previous, hash: hashAll(previous, (entry) => varBytes(entry.script), false) };
    }
    return this.#scripts.hash;
  }

  #input(index: number): SighashInput {
    const input = this.#tx.inputs[index];
    if (!input) throw new Error(`the transaction has no input ${index}`);
    return input;
  }
}
