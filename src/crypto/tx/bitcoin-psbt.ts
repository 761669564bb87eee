/**
 * Signing a PSBT's inputs with a custodian key: `bitcoin-sighash.ts` computes the segwit v0 (BIP143) and
 * taproot (BIP341) sighashes, `@scure/btc-signer` the legacy one for P2PKH and carries the PSBT fields; the signature
 * itself comes from the {@link PreparedSigner}, so the private key never leaves it (btc-signer's own `signIdx`
 * would need the raw key).
 *
 * An input is this key's when the output it spends pays one of the key's scripts: P2WPKH, P2SH-P2WPKH, P2PKH
 * (compressed key), or P2TR key path with the BIP86-tweaked key. Every such input is signed with the sighash
 * type the PSBT asks for (default: ALL, or DEFAULT for taproot); the others are left as they are.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { DEFAULT_SEQUENCE, OutScript, p2pkh, p2sh, p2wpkh, SigHash, type Transaction } from "@scure/btc-signer";
import { invalidArgument } from "../../common/errors.js";
import { bytesEqual, concatBytes } from "../bytes.js";
import type { PreparedSigner } from "../sign/signer.js";
import { type SighashTransaction, TransactionSighashes } from "./bitcoin-sighash.js";
import { MAX_LEGACY_SIGHASH_BYTES } from "./limits.js";

/** The output an input spends, from `witnessUtxo` or the output `nonWitnessUtxo` names. */
export interface PreviousOutput {
  readonly script: Uint8Array;
  readonly amount: bigint;
}

type Input = ReturnType<Transaction["getInput"]>;

/** The previous output of `input`, when the PSBT carries it. */
export function previousOutput(input: Input): PreviousOutput | undefined {
  if (input.witnessUtxo) return { script: input.witnessUtxo.script, amount: input.witnessUtxo.amount };
  const output = input.index === undefined ? undefined : input.nonWitnessUtxo?.outputs[input.index];
  return output ? { script: output.script, amount: output.amount } : undefined;
}

/** How an input of this key is spent. */
type Spend = "p2wpkh" | "p2sh-p2wpkh" | "p2pkh" | "p2tr";

/** The scripts of one key, to recognise the inputs it controls. */
interface KeyScripts {
  readonly p2wpkh: Uint8Array;
  readonly p2shP2wpkh: Uint8Array;
  readonly p2pkh: Uint8Array;
  readonly p2tr: Uint8Array;
}

function keyScripts(publicKey: Uint8Array, taprootOutputKey: Uint8Array): KeyScripts {
  const witness = p2wpkh(publicKey);
  return {
    p2wpkh: witness.script,
    p2shP2wpkh: p2sh(witness).script,
    p2pkh: p2pkh(publicKey).script,
    p2tr: OutScript.encode({ type: "tr", pubkey: taprootOutputKey }),
  };
}

function spendOf(script: Uint8Array, scripts: KeyScripts): Spend | undefined {
  if (bytesEqual(script, scripts.p2wpkh)) return "p2wpkh";
  if (bytesEqual(script, scripts.p2shP2wpkh)) return "p2sh-p2wpkh";
  if (bytesEqual(script, scripts.p2pkh)) return "p2pkh";
  if (bytesEqual(script, scripts.p2tr)) return "p2tr";
  return undefined;
}

// The sighash types a signature may commit to (BIP143/BIP341); DEFAULT exists for taproot only.
const ECDSA_SIGHASHES: readonly number[] = [
  SigHash.ALL,
  SigHash.NONE,
  SigHash.SINGLE,
  SigHash.ALL_ANYONECANPAY,
  SigHash.NONE_ANYONECANPAY,
  SigHash.SINGLE_ANYONECANPAY,
];
const TAPROOT_SIGHASHES: readonly number[] = [SigHash.DEFAULT, ...ECDSA_SIGHASHES];
const SINGLE_MASK = 0x1f;

/** btc-signer computes the legacy sighash in a method its type declarations mark private. */
interface LegacySighash {
  preimageLegacy(index: number, prevOutScript: Uint8Array, hashType: number): Uint8Array;
}

/** Which fields errors name: the request's transaction and its `signWith`. */
export interface PsbtFields {
  readonly transaction: string;
  readonly signWith: string;
}

/**
 * Signs, in place, every input of `tx` that `publicKey` (33-byte compressed secp256k1) controls. Returns how many
 * it signed. A finalized input is never touched.
 *
 * The work is linear in the transaction: segwit and taproot digests share their transaction-wide hashes
 * (`bitcoin-sighash.ts`), and the legacy digests, quadratic by design, are bounded by
 * {@link MAX_LEGACY_SIGHASH_BYTES}. Every {@link SIGNATURES_PER_SLICE} signatures the event loop is given back, so
 * a PSBT of hundreds of inputs does not keep other requests waiting while it is signed.
 *
 * @throws CustodyError `INVALID_ARGUMENT` naming `fields.transaction` when an input of this key cannot be signed
 *   (an unknown sighash type, SIGHASH_SINGLE without its output, a taproot input while another input's previous
 *   output is missing), or when its legacy inputs would hash more than {@link MAX_LEGACY_SIGHASH_BYTES}.
 */
export async function signOwnInputs(
  tx: Transaction,
  signer: PreparedSigner,
  publicKey: Uint8Array,
  fields: PsbtFields,
): Promise<number> {
  const taproot = signer.taproot;
  if (signer.curve !== "CURVE_SECP256K1" || !taproot || publicKey.length !== 33) {
    throw invalidArgument(`${fields.signWith} must name a secp256k1 key to sign a Bitcoin PSBT`, fields.signWith);
  }
  const scripts = keyScripts(publicKey, taproot.outputKey);
  const inputs = Array.from({ length: tx.inputsLength }, (_, index) => tx.getInput(index));
  const previous = inputs.map(previousOutput);
  const spends = inputs.map((input, index) => {
    if (input.finalScriptSig || input.finalScriptWitness) return undefined;
    const spent = previous[index];
    return spent && spendOf(spent.script, scripts);
  });
  assertLegacyWorkBounded(tx, spends, fields.transaction);
  let shared: TransactionSighashes | undefined;
  const sighashes = () => {
    shared ??= new TransactionSighashes(sighashTransaction(tx, inputs));
    return shared;
  };
  let taprootPrevious: readonly PreviousOutput[] | undefined;
  let signed = 0;
  for (const [index, spend] of spends.entries()) {
    const input = inputs[index] as Input;
    const spent = previous[index];
    if (!spend || !spent) continue;
    if (signed > 0 && signed % SIGNATURES_PER_SLICE === 0) await yieldToEventLoop();
    const at = `${fields.transaction} input ${index}`;
    if (spend === "p2tr") {
      const sighash = sighashType(input, TAPROOT_SIGHASHES, tx, index, fields.transaction);
      taprootPrevious ??= allPreviousOutputs(previous, fields.transaction);
      const digest = sighashes().taprootKeyPath(index, taprootPrevious, sighash);
      const signature = taproot.sign(digest, at);
      const tapKeySig = sighash === SigHash.DEFAULT ? signature : concatBytes(signature, Uint8Array.of(sighash));
      tx.updateInput(index, { tapKeySig }, true);
    } else {
      // A P2SH-P2WPKH input needs its redeem script to be finalized; it is this key's, so add it if missing.
      if (spend === "p2sh-p2wpkh" && !input.redeemScript) {
        tx.updateInput(index, { redeemScript: scripts.p2wpkh }, true);
      } else if (spend === "p2sh-p2wpkh" && !bytesEqual(input.redeemScript as Uint8Array, scripts.p2wpkh)) {
        throw invalidArgument(`${at} carries a redeem script that is not its previous output's`, fields.transaction);
      }
      const sighash = sighashType(input, ECDSA_SIGHASHES, tx, index, fields.transaction);
      const digest =
        spend === "p2pkh"
          ? (tx as unknown as LegacySighash).preimageLegacy(index, spent.script, sighash)
          : // BIP143: a P2WPKH input's script code is the P2PKH script of its key hash.
            sighashes().segwitV0(index, scripts.p2pkh, spent.amount, sighash);
      const { r, s } = signer.sign({ kind: "digest", digest });
      const der = secp256k1.Signature.fromHex(r + s, "compact").toBytes("der");
      tx.updateInput(index, { partialSig: [[publicKey, concatBytes(der, Uint8Array.of(sighash))]] }, true);
    }
    signed++;
  }
  return signed;
}

/**
 * How many inputs are signed between two turns of the event loop: a few milliseconds of signatures (a BIP340
 * or ECDSA signature and its sighash take about 0.2 ms on a server core), small next to the ~100 ms a request
 * may hold the loop, large enough that the turns cost nothing noticeable.
 */
export const SIGNATURES_PER_SLICE = 25;

/** Lets the event loop run what is waiting (I/O first, then timers) before the work goes on. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The transaction as its segwit and taproot sighashes read it. */
function sighashTransaction(tx: Transaction, inputs: readonly Input[]): SighashTransaction {
  return {
    version: tx.version,
    lockTime: tx.lockTime,
    inputs: inputs.map((input, index) => {
      if (input.txid === undefined || input.index === undefined) {
        throw new Error(`input ${index} has no previous transaction id and output index`);
      }
      return { txid: input.txid, index: input.index, sequence: input.sequence ?? DEFAULT_SEQUENCE };
    }),
    outputs: Array.from({ length: tx.outputsLength }, (_, index) => {
      const { script, amount } = tx.getOutput(index);
      if (script === undefined || amount === undefined) throw new Error(`output ${index} has no script or amount`);
      return { script, amount };
    }),
  };
}

/**
 * Refuses a PSBT whose legacy (P2PKH) inputs of this key would make the legacy sighash hash more than
 * {@link MAX_LEGACY_SIGHASH_BYTES}: each of them serializes the whole unsigned transaction again.
 */
function assertLegacyWorkBounded(tx: Transaction, spends: readonly (Spend | undefined)[], field: string): void {
  const legacy = spends.filter((spend) => spend === "p2pkh").length;
  if (legacy === 0) return;
  const bytes = legacy * tx.unsignedTx.length;
  if (bytes > MAX_LEGACY_SIGHASH_BYTES) {
    throw invalidArgument(
      `${field} has ${legacy} legacy (P2PKH) inputs of this key in a ${tx.unsignedTx.length}-byte transaction: their signature hashes would cover ${bytes} bytes, more than the ${MAX_LEGACY_SIGHASH_BYTES} one request may ask for; spend them from segwit outputs or split the transaction`,
      field,
      { limit: MAX_LEGACY_SIGHASH_BYTES },
    );
  }
}

/** The input's sighash type, checked to be one a signature can commit to here. */
function sighashType(input: Input, allowed: readonly number[], tx: Transaction, index: number, field: string): number {
  const sighash = input.sighashType ?? (allowed.includes(SigHash.DEFAULT) ? SigHash.DEFAULT : SigHash.ALL);
  if (!allowed.includes(sighash)) {
    throw invalidArgument(`${field} input ${index} asks for an unknown sighash type ${sighash}`, field);
  }
  // SIGHASH_SINGLE commits to the output of the same index; without one, legacy signs the constant 1 (the
  // "SIGHASH_SINGLE bug") and taproot has no defined digest, so neither is signed.
  if ((sighash & SINGLE_MASK) === SigHash.SINGLE && index >= tx.outputsLength) {
    throw invalidArgument(`${field} input ${index} asks for SIGHASH_SINGLE but has no output ${index}`, field);
  }
  return sighash;
}

/** Every input's previous output, which a taproot sighash commits to (BIP341). */
function allPreviousOutputs(previous: readonly (PreviousOutput | undefined)[], field: string): PreviousOutput[] {
  return previous.map((spent, index) => {
    if (!spent) {
      throw invalidArgument(
        `${field} input ${index} has no witnessUtxo or nonWitnessUtxo: a taproot signature commits to every input's previous output`,
        field,
      );
    }
    return spent;
  });
}
