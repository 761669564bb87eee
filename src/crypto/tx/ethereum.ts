/**
 * `TRANSACTION_TYPE_ETHEREUM`: legacy (with or without EIP-155), EIP-2930, EIP-1559, EIP-4844 and EIP-7702
 * transactions, parsed and re-encoded by micro-eth-signer.
 *
 * Wire form, as @turnkey/viem, @turnkey/ethers and @turnkey/eip-1193-provider use it: `unsignedTransaction` is
 * the unsigned serialized transaction in hex (the clients strip the `0x`; custodian accepts either), and
 * `signedTransaction` is the signed serialization in lowercase hex without `0x` (the clients prepend it).
 * A legacy transaction's unsigned form carries its chain id as EIP-155 prescribes (`v = chainId, r = s = 0`);
 * without one it is signed the pre-EIP-155 way, as ethers does for chain id 0.
 *
 * EIP-4844: the transaction body is signed (the blob sidecar is not part of what is signed), which is what
 * @turnkey/viem sends ("payloads containing only the transaction payload body, without any wrappers around
 * blobs, commitments, or proofs") and recombines with the sidecar itself. The network wrapper form
 * (`[tx, blobs, commitments, proofs]`) is refused.
 *
 * @module
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { addr, Transaction, type TxType } from "micro-eth-signer";
import { RLP } from "micro-eth-signer/core/rlp.js";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex, parseHex } from "../bytes.js";
import { decodeCall } from "./ethereum-abi.js";
import { MAX_ETHEREUM_LIST_ENTRIES } from "./limits.js";
import type {
  ParsedTransaction,
  PlainData,
  SigningIdentity,
  TransactionCodec,
  TransactionSigningKey,
} from "./types.js";

/** A transaction as micro-eth-signer holds it (its class is exported as a value only). */
type EthereumTransaction = ReturnType<typeof Transaction.fromBytes>;

/** `eth.tx.type` per micro-eth-signer type (docs/spec/policy-language.md §2: LEGACY, TYPE_1..TYPE_4). */
const POLICY_TYPE: Record<TxType, string> = {
  legacy: "LEGACY",
  eip2930: "TYPE_1",
  eip1559: "TYPE_2",
  eip4844: "TYPE_3",
  eip7702: "TYPE_4",
};

const SECP256K1_COMPRESSED_BYTES = 33;
// A serialized typed transaction starts with its type byte (EIP-2718); Tempo's is 0x76.
const TEMPO_TYPE_BYTE = 0x76;

/** The unsigned transaction's fields as micro-eth-signer decoded them (the union of every type's fields). */
interface RawFields {
  readonly chainId?: bigint;
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  readonly to: string;
  readonly value: bigint;
  readonly data: string;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly maxFeePerBlobGas?: bigint;
}

function decode(unsignedTransaction: string, field: string): EthereumTransaction {
  const bytes = parseHex(unsignedTransaction, field);
  if (bytes.length === 0) throw invalidArgument(`${field} is empty`, field);
  if (bytes[0] === TEMPO_TYPE_BYTE) {
    throw invalidArgument(`${field} is a Tempo transaction (type 0x76): send it as TRANSACTION_TYPE_TEMPO`, field);
  }
  assertListEntries(bytes, field);
  let transaction: EthereumTransaction;
  try {
    // Not strict: strict mode bounds fees and nonces as a wallet UI would, which is policy's job here.
    transaction = Transaction.fromBytes(bytes, false);
  } catch (error) {
    throw invalidArgument(`${field} is not a serialized Ethereum transaction: ${(error as Error).message}`, field);
  }
  if (transaction.isSigned) {
    throw invalidArgument(`${field} is already signed; send the unsigned serialization`, field);
  }
  return transaction;
}

/**
 * Refuses a typed transaction whose lists (access list, authorization list, blob hashes: its list-valued
 * fields) hold more than {@link MAX_ETHEREUM_LIST_ENTRIES} entries, counted on the bare RLP before
 * micro-eth-signer decodes (and checksums) them. Bytes that are not RLP are left to the decoder to report.
 */
function assertListEntries(bytes: Uint8Array, field: string): void {
  const type = bytes[0] as number;
  // A typed transaction is its type byte (EIP-2718, below 0x80) and an RLP list; a legacy one has no lists.
  if (type >= 0x80) return;
  let fields: unknown;
  try {
    fields = RLP.decode(bytes.subarray(1));
  } catch {
    return;
  }
  if (!Array.isArray(fields)) return;
  const entries = fields.reduce((sum: number, value: unknown) => sum + (Array.isArray(value) ? value.length : 0), 0);
  if (entries > MAX_ETHEREUM_LIST_ENTRIES) {
    throw invalidArgument(
      `${field} has ${entries} access-list, authorization and blob-hash entries; at most ${MAX_ETHEREUM_LIST_ENTRIES} can be signed`,
      field,
      { limit: MAX_ETHEREUM_LIST_ENTRIES },
    );
  }
}

/** `0x` and lowercase hex, as every `eth.*` hex value is shown (docs/spec/policy-language.md, decision 6). */
function lowerHex(value: string): string {
  return value.toLowerCase();
}

/**
 * The sender address of a secp256k1 public key (33-byte compressed), lowercase; empty for any other key (an
 * Ed25519 key has no Ethereum address, and signing refuses it, naming signWith).
 */
function senderOf(publicKey: Uint8Array): string {
  if (publicKey.length !== SECP256K1_COMPRESSED_BYTES) return "";
  // Decompressing the key and hashing it is a visible part of a `sign_transaction`, and a key signs again and
  // again: the address is remembered.
  const key = bytesToHex(publicKey);
  let sender = senders.get(key);
  if (sender === undefined) {
    sender = lowerHex(addr.fromPublicKey(publicKey));
    if (senders.size >= MAX_SENDERS) senders.clear();
    senders.set(key, sender);
  }
  return sender;
}

/** Sender addresses of recent signing keys (public data), by compressed public key hex. */
const senders = new Map<string, string>();
const MAX_SENDERS = 4096;

/** The `eth.tx` keyword of a transaction (docs/spec/policy-language.md §2, EthereumTransaction). */
function ethTx(
  transaction: EthereumTransaction,
  interfaces: ReadonlyMap<string, unknown>,
  signer: SigningIdentity | undefined,
): { [key: string]: PlainData } {
  const raw = transaction.raw as unknown as RawFields;
  // A contract creation has no recipient: micro-eth-signer decodes the empty `to` as "0x".
  const to = raw.to === "0x" ? "" : lowerHex(raw.to);
  const maxFeePerGas = raw.maxFeePerGas ?? 0n;
  // For fee-market transactions gas_price is max_fee_per_gas (docs/spec/policy-language.md §2).
  const gasPrice = raw.gasPrice ?? maxFeePerGas;
  const tx: { [key: string]: PlainData } = {
    from: signer ? senderOf(signer.publicKey) : "",
    to,
    data: lowerHex(raw.data),
    value: raw.value,
    gas: raw.gasLimit,
    gas_price: gasPrice,
    // @turnkey/gas-station's policy builder writes `eth.tx.gasPrice` (packages/gas-station/src/policyUtils.ts).
    gasPrice,
    chain_id: raw.chainId ?? 0n,
    nonce: raw.nonce,
    max_fee_per_gas: maxFeePerGas,
    max_priority_fee_per_gas: raw.maxPriorityFeePerGas ?? 0n,
    max_fee_per_blob_gas: raw.maxFeePerBlobGas ?? 0n,
    type: POLICY_TYPE[transaction.type],
  };
  const abi = to === "" ? undefined : interfaces.get(to);
  const call = abi === undefined ? undefined : decodeCall(abi, parseHex(raw.data, "data"));
  return call ? { ...tx, ...call } : tx;
}

/** Signs the EIP-155 / EIP-2718 signing hash with the key and returns the signed serialization. */
function sign(transaction: EthereumTransaction, key: TransactionSigningKey, field: string): string {
  if (key.signer.curve !== "CURVE_SECP256K1") {
    throw invalidArgument(`${field} must name a secp256k1 key to sign an Ethereum transaction`, field);
  }
  const digest = keccak_256(transaction.toBytes({ includeSignature: false }));
  const signature = key.signer.sign({ kind: "digest", digest });
  const signed = new Transaction(
    transaction.type,
    {
      ...transaction.raw,
      r: BigInt(`0x${signature.r}`),
      s: BigInt(`0x${signature.s}`),
      yParity: Number.parseInt(signature.v, 16),
    },
    { strict: false },
  );
  return bytesToHex(signed.toBytes());
}

export const ethereumCodec: TransactionCodec = {
  type: "TRANSACTION_TYPE_ETHEREUM",
  parse(unsignedTransaction, field): ParsedTransaction {
    const transaction = decode(unsignedTransaction, field);
    const to = (transaction.raw as unknown as RawFields).to;
    return {
      contracts: to === "0x" ? [] : [lowerHex(to)],
      interfaceType: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      policyData: ({ interfaces, signer }) => ({ eth: { tx: ethTx(transaction, interfaces, signer) } }),
      sign: (key, signWithField) => sign(transaction, key, signWithField),
    };
  },
};

/** What a history needs of a signed Ethereum transaction, without recovering its sender. */
export interface SignedEthereumTransaction {
  /** keccak-256 of the signed serialization: the transaction's hash on the chain, `0x` and lowercase. */
  readonly hash: string;
  /** The destination, lowercase; undefined for a contract creation. */
  readonly to: string | undefined;
  /** The chain id it was signed for; undefined for a legacy transaction signed without EIP-155. */
  readonly chainId: bigint | undefined;
}

/**
 * The hash, destination and chain id of a signed serialization (hex, with or without `0x`), as
 * `signTransactionResult.signedTransaction` holds it; undefined when the bytes are not a signed Ethereum
 * transaction.
 */
export function signedEthereumTransaction(signedTransaction: string): SignedEthereumTransaction | undefined {
  let bytes: Uint8Array;
  let transaction: EthereumTransaction;
  try {
    bytes = parseHex(signedTransaction, "signedTransaction");
    transaction = Transaction.fromBytes(bytes, false);
  } catch {
    return undefined;
  }
  if (!transaction.isSigned) return undefined;
  const raw = transaction.raw as unknown as RawFields;
  return {
    hash: `0x${bytesToHex(keccak_256(bytes))}`,
    to: raw.to === "0x" ? undefined : lowerHex(raw.to),
    chainId: raw.chainId,
  };
}
