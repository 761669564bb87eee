/**
 * `TRANSACTION_TYPE_BITCOIN`: a PSBT (BIP174, or BIP370 version 2), parsed and re-encoded by `@scure/btc-signer`.
 *
 * Wire form: Turnkey's with-bitcoin example sends `psbt.toHex()` and reads the answer with
 * `bitcoin.Psbt.fromHex(signedTransaction)` before finalizing it itself, so `signedTransaction` is the PSBT with
 * this key's signatures added (`partialSig`, or `tapKeySig` for taproot), not finalized. A base64 PSBT (the other
 * common spelling, BIP174's own) is accepted too and answered in base64. Unknown and proprietary PSBT fields are
 * kept as they came.
 *
 * Policies see `bitcoin.tx` (docs/spec/policy-language.md §2): `version` (a string), `inputs[]{tx_id, vout, sequence}`,
 * `outputs[]{value, script_pubkey, address, address_type}`, `locktime{amount, type}` and `fee` in satoshis
 * (absent when an input's previous output is not in the PSBT). Output addresses are spelled for the network of the
 * address `signWith` named (mainnet when it named a key id); a script with no address shows `''` for both.
 *
 * @module
 */
import { base64 } from "@scure/base";
import { Address, Transaction } from "@scure/btc-signer";
import { isXOnlyPoint } from "tiny-secp256k1";
import { invalidArgument, isCustodyError } from "../../common/errors.js";
import { BITCOIN_NETWORKS, type ChainParams } from "../addresses/bitcoin.js";
import { bytesToHex, parseHex } from "../bytes.js";
import { previousOutput, signOwnInputs } from "./bitcoin-psbt.js";
import { MAX_PSBT_INPUTS, MAX_PSBT_OUTPUTS } from "./limits.js";
import { psbtEntryMaps } from "./psbt-framing.js";
import type { ParsedTransaction, PlainData, SigningIdentity, TransactionCodec } from "./types.js";

// "psbt" 0xff (BIP174): hex and base64 PSBTs are told apart by this magic.
const PSBT_MAGIC = "70736274ff";

const PSBT_OPTIONS = {
  // Outputs and inputs of script types btc-signer cannot sign are still part of the transaction to sign.
  allowUnknownOutputs: true,
  allowUnknownInputs: true,
  // A P2PKH input described by witnessUtxo only is signable: the legacy sighash does not commit to the amount.
  allowLegacyWitnessUtxo: true,
  allowUnknownVersion: true,
  // btc-signer would check every input's redeem, witness and taproot scripts (a square root on the curve for each
  // taproot key) at every parse and update, most of the cost of a large PSBT. Only inputs whose previous script
  // is byte for byte this key's are signed, and `bitcoin-psbt.ts` checks the one script they may carry.
  disableScriptCheck: true,
  // Keep unknown and proprietary fields: the PSBT goes back to its sender with only signatures added.
  unknown: "ignore",
} as const;

/**
 * The output scripts that have an address (BIP13/16 base58, BIP173/350 bech32 and bech32m), matched byte for byte:
 * `[type, size, prefix, suffix]` with the hash or key of `size - prefix.length - suffix.length` bytes between.
 * btc-signer's `OutScript.decode` would try every template it knows, checking each public key of a bare
 * multisig or tapscript template on the curve (a square root each, a second of work for a PSBT's outputs);
 * none of those has an address, so they are not even looked at. The type names are btc-signer's; `address_type`
 * shows them as rust-bitcoin's `AddressType` spells them (`p2` before).
 */
const ADDRESS_TEMPLATES = [
  ["pkh", 25, [0x76, 0xa9, 0x14], [0x88, 0xac]],
  ["sh", 23, [0xa9, 0x14], [0x87]],
  ["wpkh", 22, [0x00, 0x14], []],
  ["wsh", 34, [0x00, 0x20], []],
  ["tr", 34, [0x51, 0x20], []],
] as const;

// Lock times below this are block heights, from it on Unix times (BIP65's LOCKTIME_THRESHOLD).
const LOCKTIME_THRESHOLD = 500_000_000;

interface DecodedPsbt {
  readonly tx: Transaction;
  readonly encoding: "hex" | "base64";
}

function decodePsbt(unsignedTransaction: string, field: string): DecodedPsbt {
  const notPsbt = () =>
    invalidArgument(`${field} is not a PSBT: send it in hex or base64, as psbt.toHex() or toBase64() gives it`, field);
  let bytes: Uint8Array;
  let encoding: DecodedPsbt["encoding"];
  if (/^(0x)?[0-9a-fA-F]+$/.test(unsignedTransaction)) {
    bytes = parseHex(unsignedTransaction, field);
    encoding = "hex";
  } else {
    try {
      bytes = base64.decode(unsignedTransaction);
    } catch {
      throw notPsbt();
    }
    encoding = "base64";
  }
  if (!bytesToHex(bytes.subarray(0, PSBT_MAGIC.length / 2)).startsWith(PSBT_MAGIC)) throw notPsbt();
  const entries = MAX_PSBT_INPUTS + MAX_PSBT_OUTPUTS;
  if (psbtEntryMaps(bytes, entries) > entries) {
    throw invalidArgument(
      `${field} has more than ${entries} inputs and outputs together; one request may sign a PSBT of at most ${MAX_PSBT_INPUTS} inputs and ${MAX_PSBT_OUTPUTS} outputs`,
      field,
      { limit: entries },
    );
  }
  let tx: Transaction;
  try {
    tx = Transaction.fromPSBT(bytes, PSBT_OPTIONS);
  } catch (error) {
    throw invalidArgument(`${field} is not a valid PSBT: ${(error as Error).message}`, field);
  }
  assertAtMost(tx.inputsLength, MAX_PSBT_INPUTS, "inputs", field);
  assertAtMost(tx.outputsLength, MAX_PSBT_OUTPUTS, "outputs", field);
  return { tx, encoding };
}

function assertAtMost(count: number, limit: number, what: string, field: string): void {
  if (count > limit) {
    throw invalidArgument(`${field} has ${count} ${what}; one request may sign a PSBT of at most ${limit}`, field, {
      limit,
    });
  }
}

/** The network whose address spelling `address` uses; mainnet when there is none or it is not Bitcoin's. */
function networkOf(address: string | undefined): ChainParams {
  if (address !== undefined) {
    for (const network of Object.values(BITCOIN_NETWORKS)) {
      try {
        Address(network).decode(address);
        return network;
      } catch {
        // Not this network's spelling; try the next.
      }
    }
  }
  return BITCOIN_NETWORKS.MAINNET;
}

/** The output script's address type and the hash or key it pays, when it is one of {@link ADDRESS_TEMPLATES}. */
function addressTemplate(script: Uint8Array) {
  for (const [type, size, prefix, suffix] of ADDRESS_TEMPLATES) {
    if (script.length !== size) continue;
    if (!prefix.every((byte, index) => script[index] === byte)) continue;
    if (!suffix.every((byte, index) => script[size - suffix.length + index] === byte)) continue;
    return { type, program: script.slice(prefix.length, size - suffix.length) };
  }
  return undefined;
}

function outputAddress(script: Uint8Array, network: ChainParams): { address: string; address_type: string } {
  const template = addressTemplate(script);
  // A taproot output whose key is not on the curve has no spending path; btc-signer gives it no address, nor here.
  if (!template || (template.type === "tr" && !isXOnlyPoint(template.program))) {
    return { address: "", address_type: "" };
  }
  const { type, program } = template;
  const address = Address(network).encode(type === "tr" ? { type, pubkey: program } : { type, hash: program });
  return { address, address_type: `p2${type}` };
}

/** The fee in satoshis: what the inputs spend minus what the outputs pay; undefined without every input's amount. */
function feeOf(tx: Transaction): bigint | undefined {
  let fee = 0n;
  for (let index = 0; index < tx.inputsLength; index++) {
    const previous = previousOutput(tx.getInput(index));
    if (!previous) return undefined;
    fee += previous.amount;
  }
  for (let index = 0; index < tx.outputsLength; index++) fee -= tx.getOutput(index).amount ?? 0n;
  return fee;
}

function policyTransaction(tx: Transaction, signer: SigningIdentity | undefined): PlainData {
  const network = networkOf(signer?.address);
  const inputs = Array.from({ length: tx.inputsLength }, (_, index) => {
    const input = tx.getInput(index);
    return {
      tx_id: bytesToHex(input.txid ?? new Uint8Array()),
      vout: BigInt(input.index ?? 0),
      sequence: BigInt(input.sequence ?? 0xffffffff),
    };
  });
  const outputs = Array.from({ length: tx.outputsLength }, (_, index) => {
    const output = tx.getOutput(index);
    const script = output.script ?? new Uint8Array();
    return {
      value: output.amount ?? 0n,
      script_pubkey: bytesToHex(script),
      ...outputAddress(script, network),
    };
  });
  const fee = feeOf(tx);
  return {
    version: String(tx.version),
    inputs,
    outputs,
    locktime: { amount: BigInt(tx.lockTime), type: tx.lockTime < LOCKTIME_THRESHOLD ? "Blocks" : "Seconds" },
    ...(fee === undefined ? {} : { fee }),
  };
}

/**
 * Runs a step of btc-signer on a PSBT it parsed: what it still refuses then (a script it cannot read while
 * computing a sighash, fields that do not fit together) is the PSBT's fault, so `INVALID_ARGUMENT` naming it.
 */
function signOrRefuse<T>(step: () => T, field: string): T {
  try {
    return step();
  } catch (error) {
    throw refusal(error, field);
  }
}

/** {@link signOrRefuse} for a step that gives the event loop back while it works. */
async function signOrRefuseAsync<T>(step: () => Promise<T>, field: string): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw refusal(error, field);
  }
}

function refusal(error: unknown, field: string): unknown {
  if (isCustodyError(error)) return error;
  return invalidArgument(`${field} cannot be signed: ${(error as Error).message}`, field);
}

export const bitcoinCodec: TransactionCodec = {
  type: "TRANSACTION_TYPE_BITCOIN",
  parse(unsignedTransaction, field): ParsedTransaction {
    const { tx, encoding } = decodePsbt(unsignedTransaction, field);
    return {
      contracts: [],
      policyData: ({ signer }) => ({ bitcoin: { tx: policyTransaction(tx, signer) } }),
      async sign(key, signWithField) {
        // Signing changes the transaction in place; a fresh copy keeps the parsed one as the policies saw it.
        const copy = decodePsbt(unsignedTransaction, field).tx;
        const signed = await signOrRefuseAsync(
          () => signOwnInputs(copy, key.signer, key.publicKey, { transaction: field, signWith: signWithField }),
          field,
        );
        if (signed === 0) {
          throw invalidArgument(
            `${field} has no input that ${signWithField} controls (P2WPKH, P2SH-P2WPKH, P2PKH or P2TR of its key, with the previous output in the PSBT)`,
            signWithField,
          );
        }
        // Encoding a large PSBT is tens of milliseconds of its own: not in the same turn as the last signatures.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const psbt = signOrRefuse(() => copy.toPSBT(), field);
        return encoding === "hex" ? bytesToHex(psbt) : base64.encode(psbt);
      },
    };
  },
};
