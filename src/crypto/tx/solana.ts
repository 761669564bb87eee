/**
 * `TRANSACTION_TYPE_SOLANA`: legacy and v0 transactions (v0 with address lookup tables), decoded and re-encoded by
 * Anza's `@solana/transactions` and `@solana/transaction-messages` codecs, the ones `@solana/kit` is built on.
 * They were chosen over `micro-sol-signer` because they are the Solana maintainers' own wire codecs, released
 * with every runtime change (v0, lookup tables, v1), while micro-sol-signer has not followed its dependencies to
 * @noble 2.x; the message bytes they hand back are the ones on the wire, so signing never re-serializes a message.
 *
 * Wire form, as @turnkey/solana's `signTransaction` uses it: `unsignedTransaction` is the whole serialized
 * transaction in hex (`tx.serialize({ requireAllSignatures: false })`: the signature slots, empty ones all zero,
 * then the message); `signedTransaction` is the same transaction in lowercase hex with the signing account's
 * signature in its slot and every other slot exactly as it came.
 *
 * @module
 */
import { base58 } from "@scure/base";
import {
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
} from "@solana/transaction-messages";
import { getTransactionDecoder, getTransactionEncoder } from "@solana/transactions";
import { CustodyError, invalidArgument } from "../../common/errors.js";
import { bytesToHex, parseHex } from "../bytes.js";
import { MAX_SOLANA_TRANSACTION_BYTES } from "./limits.js";
import { type CompiledSolanaMessage, solanaPolicyTransaction } from "./solana-policy.js";
import type { ParsedTransaction, TransactionCodec, TransactionSigningKey } from "./types.js";

type WireTransaction = ReturnType<ReturnType<typeof getTransactionDecoder>["decode"]>;

/** The all-zero blockhash (`11111111111111111111111111111111`): what clients put in a message whose blockhash the sender sets. */
export const PLACEHOLDER_BLOCKHASH = "11111111111111111111111111111111";

function decodeTransaction(bytes: Uint8Array, field: string): WireTransaction {
  if (bytes.length === 0) throw invalidArgument(`${field} is empty`, field);
  if (bytes.length > MAX_SOLANA_TRANSACTION_BYTES) {
    throw invalidArgument(
      `${field} is ${bytes.length} bytes; a Solana transaction of at most ${MAX_SOLANA_TRANSACTION_BYTES} bytes can be signed`,
      field,
      { limit: MAX_SOLANA_TRANSACTION_BYTES },
    );
  }
  try {
    return getTransactionDecoder().decode(bytes);
  } catch (error) {
    throw invalidArgument(`${field} is not a serialized Solana transaction: ${(error as Error).message}`, field);
  }
}

function decodeMessage(transaction: WireTransaction, field: string): CompiledSolanaMessage {
  let decoded: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>["read"]>;
  try {
    decoded = getCompiledTransactionMessageDecoder().read(transaction.messageBytes, 0);
  } catch (error) {
    throw invalidArgument(`${field} holds no valid Solana message: ${(error as Error).message}`, field);
  }
  const [message, end] = decoded;
  if (end !== transaction.messageBytes.length) {
    throw invalidArgument(`${field} has ${transaction.messageBytes.length - end} bytes after its message`, field);
  }
  if (message.version !== "legacy" && message.version !== 0) {
    throw new CustodyError(
      "UNIMPLEMENTED",
      `${field} is a version ${message.version} message; legacy and v0 are supported`,
      {
        field,
      },
    );
  }
  return message;
}

/** Ed25519-signs a message with `key`, or `INVALID_ARGUMENT` naming `field` for a key of another curve. */
function signMessage(key: TransactionSigningKey, messageBytes: ArrayLike<number>, field: string): Uint8Array {
  if (key.signer.curve !== "CURVE_ED25519") {
    throw invalidArgument(`${field} must name an Ed25519 key to sign a Solana transaction`, field);
  }
  const { r, s } = key.signer.sign({ kind: "message", message: Uint8Array.from(messageBytes) });
  return parseHex(r + s, "signature");
}

/** `transaction` with `signatures` set in the slots they name. */
function withSignatures(transaction: WireTransaction, signatures: Record<string, Uint8Array>): WireTransaction {
  return { ...transaction, signatures: { ...transaction.signatures, ...signatures } } as WireTransaction;
}

function notASigner(transaction: WireTransaction, address: string, field: string): CustodyError {
  return invalidArgument(
    `${field} (${address}) is not one of the transaction's signers: ${Object.keys(transaction.signatures).join(", ")}`,
    field,
  );
}

/** The `sign_transaction` view of a decoded transaction: its policy keywords and single-key signing. */
function parsedTransaction(transaction: WireTransaction, message: CompiledSolanaMessage): ParsedTransaction {
  const policyTransaction = solanaPolicyTransaction(message);
  return {
    contracts: policyTransaction.programKeys,
    interfaceType: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
    policyData: ({ interfaces }) => ({ solana: { tx: policyTransaction.withInterfaces(interfaces) } }),
    sign(key, signWithField) {
      const address = base58.encode(key.publicKey);
      if (!Object.hasOwn(transaction.signatures, address)) throw notASigner(transaction, address, signWithField);
      const signature = signMessage(key, transaction.messageBytes, signWithField);
      const signed = withSignatures(transaction, { [address]: signature });
      return bytesToHex(Uint8Array.from(getTransactionEncoder().encode(signed)));
    },
  };
}

export const solanaCodec: TransactionCodec = {
  type: "TRANSACTION_TYPE_SOLANA",
  parse(unsignedTransaction, field): ParsedTransaction {
    const transaction = decodeTransaction(parseHex(unsignedTransaction, field), field);
    return parsedTransaction(transaction, decodeMessage(transaction, field));
  },
};

/**
 * A transaction to sign and broadcast (`sol_send_transaction`): its required signers, the signatures it
 * already carries, its blockhash, and the policy view of `sign_transaction`'s codec.
 */
export interface SolanaSendable {
  /** The message's required signers (base58), fee payer first, in signature-slot order. */
  readonly signers: readonly string[];
  /** The signers whose slot already holds a signature (anything but zeros). */
  readonly signed: ReadonlySet<string>;
  /** The message's recent blockhash (or durable nonce value). */
  readonly blockhash: string;
  /** The transaction as `sign_transaction` sees it: the programs to look interfaces up for, `solana.tx`. */
  readonly parsed: ParsedTransaction;
  /**
   * The same transaction with another recent blockhash. The message changes, so the signatures it carried
   * no longer hold and are cleared.
   */
  withBlockhash(blockhash: string, field: string): SolanaSendable;
  /**
   * Signs with every key in `keys` (each a signer of the message, else `INVALID_ARGUMENT` naming the key's
   * `field`, or `field`) and returns the wire transaction; a required signer left without a signature is
   * `FAILED_PRECONDITION` naming it and `field`, since the chain would refuse the transaction.
   */
  sign(keys: readonly SolanaSigningKey[], field: string): { wire: Uint8Array; signature: string };
}

/** A key that signs a {@link SolanaSendable}, with the request field that named it, for its errors. */
export interface SolanaSigningKey extends TransactionSigningKey {
  readonly field?: string;
}

function isEmptySignature(signature: Uint8Array | null): boolean {
  return signature === null || signature.every((byte) => byte === 0);
}

function sendable(transaction: WireTransaction, field: string): SolanaSendable {
  const message = decodeMessage(transaction, field);
  const signers = Object.keys(transaction.signatures);
  return {
    signers,
    signed: new Set(signers.filter((signer) => !isEmptySignature(transaction.signatures[signer as never] ?? null))),
    blockhash: message.lifetimeToken,
    parsed: parsedTransaction(transaction, message),
    withBlockhash(blockhash, blockhashField) {
      if (blockhash === message.lifetimeToken) return this;
      let hash: Uint8Array;
      try {
        hash = base58.decode(blockhash);
      } catch {
        throw invalidArgument(`${blockhashField} is not base58`, blockhashField);
      }
      if (hash.length !== 32)
        throw invalidArgument(`${blockhashField} must be 32 bytes, got ${hash.length}`, blockhashField);
      const messageBytes = getCompiledTransactionMessageEncoder().encode({
        ...message,
        lifetimeToken: blockhash,
      } as CompiledSolanaMessage);
      const cleared = Object.fromEntries(signers.map((signer) => [signer, null]));
      return sendable({ messageBytes, signatures: cleared } as unknown as WireTransaction, field);
    },
    sign(keys, keyField) {
      const signatures: Record<string, Uint8Array> = {};
      for (const key of keys) {
        const address = base58.encode(key.publicKey);
        const field = key.field ?? keyField;
        if (!Object.hasOwn(transaction.signatures, address)) throw notASigner(transaction, address, field);
        signatures[address] = signMessage(key, transaction.messageBytes, field);
      }
      const signed = withSignatures(transaction, signatures);
      const unsigned = signers.filter((signer) => isEmptySignature(signed.signatures[signer as never] ?? null));
      if (unsigned.length > 0) {
        throw new CustodyError(
          "FAILED_PRECONDITION",
          `the transaction needs a signature of ${unsigned.join(", ")}, which this organization does not hold and the transaction does not carry`,
          { field: keyField, reason: "MISSING_SIGNER", signers: unsigned },
        );
      }
      const [feePayer] = signers;
      const first = feePayer === undefined ? undefined : signed.signatures[feePayer as never];
      return {
        wire: Uint8Array.from(getTransactionEncoder().encode(signed)),
        signature: base58.encode(first ?? new Uint8Array(64)),
      };
    },
  };
}

/** Parses a serialized transaction (bytes already decoded from hex or base64) for sending. */
export function parseSolanaSendable(bytes: Uint8Array, field: string): SolanaSendable {
  return sendable(decodeTransaction(bytes, field), field);
}
