/**
 * The transaction codec interface of `sign_transaction`: one codec per `TRANSACTION_TYPE_*`, each a thin
 * wrapper over its chain's well-kept parser (`crypto/tx/<chain>.ts`).
 *
 * A codec turns the request's `unsignedTransaction` into a {@link ParsedTransaction} that
 * - names the contracts or programs whose stored interface (ABI, IDL) would decode its calls
 *   ({@link ParsedTransaction.contracts}),
 * - gives its policy keywords (`{ eth: { tx } }`, `{ solana: { tx } }`, ...) once those interfaces are
 *   looked up ({@link ParsedTransaction.policyData}), and
 * - signs itself with the signing target's key ({@link ParsedTransaction.sign}), returning the signed
 *   transaction exactly as the official clients read `signTransactionResult.signedTransaction`.
 *
 * Everything here is pure: no store, no clock. The operation (`operations/transactions.ts`) reads the stored
 * interfaces and hands them in.
 *
 * @module
 */
import type { PreparedSigner } from "../sign/signer.js";

/**
 * Plain data, as a codec describes a transaction to policies: JSON values with integers as `BigInt` and
 * times as `Date`. The policy context takes it as it is (it is the policy language's value type).
 */
export type PlainData =
  | bigint
  | number
  | string
  | boolean
  | Date
  | null
  | undefined
  | readonly PlainData[]
  | { readonly [key: string]: PlainData };

/** The chain keyword a transaction supplies, e.g. `{ eth: { tx: {...} } }`: one of these roots. */
export type ChainKeywords = { readonly [root in "eth" | "solana" | "tron" | "bitcoin" | "tempo"]?: PlainData };

/** The transaction types of the public API (swagger `v1TransactionType`), in its order. */
export const TRANSACTION_TYPES = [
  "TRANSACTION_TYPE_ETHEREUM",
  "TRANSACTION_TYPE_SOLANA",
  "TRANSACTION_TYPE_TRON",
  "TRANSACTION_TYPE_BITCOIN",
  "TRANSACTION_TYPE_TEMPO",
] as const;

export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The kinds of stored smart contract interface (swagger `v1SmartContractInterfaceType`). */
export const SMART_CONTRACT_INTERFACE_TYPES = [
  "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
  "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
] as const;

export type SmartContractInterfaceType = (typeof SMART_CONTRACT_INTERFACE_TYPES)[number];

/**
 * The stored interfaces a transaction's contracts have, keyed by the contract address exactly as
 * {@link ParsedTransaction.contracts} named it. Values are the parsed JSON documents (an Ethereum ABI array,
 * an Anchor/Solana IDL object), already checked to be JSON when they were stored; a codec validates the
 * shape it needs and ignores an interface it cannot use, so a bad interface never blocks signing.
 */
export type ContractInterfaces = ReadonlyMap<string, unknown>;

/** The key a transaction is signed with: what `signWith` resolved to. */
export interface TransactionSigningKey {
  /** The prepared signer (secp256k1 or Ed25519); its `curve` is the key's. */
  readonly signer: PreparedSigner;
  /** The key's public key: 33-byte compressed for secp256k1, 32 bytes for Ed25519. */
  readonly publicKey: Uint8Array;
  /**
   * The address `signWith` named, when it named one (a wallet account's or a private key's address); absent
   * when `signWith` was a private key id. Chains whose signing depends on the address format (a Bitcoin
   * input's script type) read it; the others derive what they need from the public key.
   */
  readonly address?: string;
}

/** Who signs, as the policy keywords need to know it: the signing key without its signer. */
export type SigningIdentity = Omit<TransactionSigningKey, "signer">;

/** What a transaction's policy keywords are built from, besides the transaction. */
export interface TransactionPolicyInput {
  /** The stored interfaces of {@link ParsedTransaction.contracts} that exist. */
  readonly interfaces: ContractInterfaces;
  /**
   * The signing key, when `signWith` names one; absent otherwise (the handler then reports the unknown
   * `signWith` as NOT_FOUND, so the keywords only need to be well-formed).
   */
  readonly signer?: SigningIdentity;
}

/** An unsigned transaction, parsed and validated. */
export interface ParsedTransaction {
  /**
   * The contract (Ethereum) or program (Solana) addresses whose stored interface of {@link interfaceType}
   * would decode this transaction's calls; empty when there is nothing to decode.
   */
  readonly contracts: readonly string[];
  /** The interface type {@link contracts} are looked up as; absent for chains without stored interfaces. */
  readonly interfaceType?: SmartContractInterfaceType;
  /** The chain keyword the policy context shows, e.g. `{ eth: { tx: {...} } }`; integers as BigInt. */
  policyData(input: TransactionPolicyInput): ChainKeywords;
  /**
   * Signs with `key` and returns the signed transaction in the wire form the clients read. A key that cannot
   * sign this transaction (wrong curve, no input it controls) gives `INVALID_ARGUMENT` naming `field`.
   *
   * A codec whose signing may take long (a PSBT's hundreds of inputs, each a signature) returns a promise and
   * gives the event loop back between pieces of the work, so other requests are answered meanwhile; the others
   * return the string.
   */
  sign(key: TransactionSigningKey, field: string): string | Promise<string>;
}

/** The codec of one transaction type. */
export interface TransactionCodec {
  readonly type: TransactionType;
  /**
   * Parses `unsignedTransaction` (the request's string, as the clients send it). Malformed input gives
   * `INVALID_ARGUMENT` naming `field`; parsing never reads a store or the clock.
   */
  parse(unsignedTransaction: string, field: string): ParsedTransaction;
}
