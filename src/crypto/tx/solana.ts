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
import { getCompiledTransactionMessageDecoder } from "@solana/transaction-messages";
import { getTransactionDecoder, getTransactionEncoder } from "@solana/transactions";
import { CustodyError, invalidArgument } from "../../errors.js";
import { bytesToHex, parseHex } from "../bytes.js";
import { type CompiledSolanaMessage, solanaPolicyTransaction } from "./solana-policy.js";
import type { ParsedTransaction, TransactionCodec } from "./types.js";

type WireTransaction = ReturnType<ReturnType<typeof getTransactionDecoder>["decode"]>;

function decodeTransaction(unsignedTransaction: string, field: string): WireTransaction {
  const bytes = parseHex(unsignedTransaction, field);
  if (bytes.length === 0) throw invalidArgument(`${field} is empty`, field);
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

export const solanaCodec: TransactionCodec = {
  type: "TRANSACTION_TYPE_SOLANA",
  parse(unsignedTransaction, field): ParsedTransaction {
    const transaction = decodeTransaction(unsignedTransaction, field);
    const message = decodeMessage(transaction, field);
    const policyTransaction = solanaPolicyTransaction(message);
    return {
      contracts: policyTransaction.programKeys,
      interfaceType: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
      policyData: ({ interfaces }) => ({ solana: { tx: policyTransaction.withInterfaces(interfaces) } }),
      sign(key, signWithField) {
        if (key.signer.curve !== "CURVE_ED25519") {
          throw invalidArgument(
            `${signWithField} must name an Ed25519 key to sign a Solana transaction`,
            signWithField,
          );
        }
        const address = base58.encode(key.publicKey);
        if (!Object.hasOwn(transaction.signatures, address)) {
          throw invalidArgument(
            `${signWithField} (${address}) is not one of the transaction's signers: ${Object.keys(transaction.signatures).join(", ")}`,
            signWithField,
          );
        }
        const { r, s } = key.signer.sign({ kind: "message", message: Uint8Array.from(transaction.messageBytes) });
        const signature = parseHex(r + s, "signature");
        const signed = {
          ...transaction,
          signatures: { ...transaction.signatures, [address]: signature },
        } as WireTransaction;
        return bytesToHex(Uint8Array.from(getTransactionEncoder().encode(signed)));
      },
    };
  },
};
