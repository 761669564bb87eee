/**
 * The transfers into and out of watched addresses on a Solana cluster, read with plain JSON-RPC (no indexer or
 * websocket API):
 *
 * - **which transactions**: `getSignaturesForAddress` of each watched account at `confirmed` commitment, newest
 *   first, from where the watcher stopped (`until`, the last signature it read) — for a wallet address, and for
 *   its associated token account of each listed mint (a transfer into a token account need not name its owner).
 *   Failed transactions are left out unread.
 * - **what moved**: `getTransaction` (`json` encoding, `confirmed`) gives each account's lamports before and
 *   after (`preBalances`/`postBalances`) and each token account's amount, mint and owner before and after
 *   (`preTokenBalances`/`postTokenBalances`). SOL: the change of a watched address's lamports, the fee added
 *   back when it paid it (as on EVM chains, the amount is what moved, not what it cost). SPL: the change of a
 *   listed mint in the watched owner's associated token account (the account the balance queries read; tokens
 *   in other accounts it owns are not reported).
 * - **the block**: the transaction's slot is the block number; `getBlock` without transactions gives its hash
 *   (`blockhash`) and time.
 *
 * Malformed answers are the node's fault and reported as unreachable, as in `solana-rpc.ts`.
 *
 * @module
 */

import { associatedTokenAddress } from "../crypto/addresses/solana-pda.js";
import type { AssetMetadata, KnownToken } from "./asset-types.js";
import type { ChainBackend } from "./registry.js";
import { ChainUnreachable } from "./rpc.js";

/** A base58 address of 32 bytes, by its shape (base58 decoding is quadratic in the length: check first). */
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** A base58 transaction signature of 64 bytes, by its shape. */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function slotOf(value: unknown, method: string): bigint {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new ChainUnreachable(method, "the answer holds no slot");
  }
  return BigInt(value);
}

/** One entry of `getSignaturesForAddress`. */
export interface SignatureEntry {
  readonly signature: string;
  readonly slot: bigint;
  /** Whether the transaction failed (it then moved nothing but its fee). */
  readonly failed: boolean;
  /** Whether the node says it is finalized (`confirmationStatus`). */
  readonly finalized: boolean;
}

/**
 * The signatures of transactions naming `account`, newest first, at `confirmed` commitment: at most `limit`,
 * older than `before` and newer than `until` when given.
 */
export async function signaturesForAddress(
  backend: ChainBackend,
  account: string,
  options: { limit: number; before?: string; until?: string },
): Promise<SignatureEntry[]> {
  const method = "getSignaturesForAddress";
  const result = await backend.request(method, [
    account,
    {
      commitment: "confirmed",
      limit: options.limit,
      ...(options.before ? { before: options.before } : {}),
      ...(options.until ? { until: options.until } : {}),
    },
  ]);
  if (!Array.isArray(result) || result.length > options.limit) {
    throw new ChainUnreachable(method, `the answer holds no list of at most ${options.limit} signatures`);
  }
  return result.map((entry): SignatureEntry => {
    if (!isRecord(entry) || typeof entry.signature !== "string" || !SIGNATURE.test(entry.signature)) {
      throw new ChainUnreachable(method, "the answer holds an entry without a signature");
    }
    return {
      signature: entry.signature,
      slot: slotOf(entry.slot, method),
      failed: (entry.err ?? null) !== null,
      finalized: entry.confirmationStatus === "finalized",
    };
  });
}

/** What the watcher reads of a transaction: its slot, its time, and the balance changes of its accounts. */
export interface SolanaTransaction {
  readonly signature: string;
  readonly slot: bigint;
  /** Seconds since the epoch, when the node knows it. */
  readonly blockTime: number | undefined;
  readonly failed: boolean;
  readonly fee: bigint;
  /** Every account of the transaction, in order (static keys, then those loaded from lookup tables). */
  readonly accounts: readonly string[];
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalance[];
  readonly postTokenBalances: readonly TokenBalance[];
  /** The signers, the first accounts of the message, each with whether it is writable (the message header). */
  readonly signers: readonly { readonly address: string; readonly writable: boolean }[];
}

/** A token account's holding, as `pre`/`postTokenBalances` give it. */
export interface TokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string | undefined;
  readonly amount: bigint;
}

function lamportList(value: unknown, length: number, method: string): bigint[] {
  if (!Array.isArray(value) || value.length !== length) {
    throw new ChainUnreachable(method, `the answer holds no list of ${length} balances`);
  }
  return value.map((lamports) => {
    if (typeof lamports !== "number" || !Number.isSafeInteger(lamports) || lamports < 0) {
      throw new ChainUnreachable(method, "the answer holds a balance that is not a whole number");
    }
    return BigInt(lamports);
  });
}

function tokenBalances(value: unknown, accounts: number, method: string): TokenBalance[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > accounts) {
    throw new ChainUnreachable(method, "the answer holds no list of token balances");
  }
  return value.map((entry): TokenBalance => {
    const amount = isRecord(entry) && isRecord(entry.uiTokenAmount) ? entry.uiTokenAmount.amount : undefined;
    if (
      !isRecord(entry) ||
      typeof entry.accountIndex !== "number" ||
      !Number.isInteger(entry.accountIndex) ||
      entry.accountIndex < 0 ||
      entry.accountIndex >= accounts ||
      typeof entry.mint !== "string" ||
      !ADDRESS.test(entry.mint) ||
      typeof amount !== "string" ||
      !/^[0-9]{1,20}$/.test(amount)
    ) {
      throw new ChainUnreachable(method, "the answer holds a malformed token balance");
    }
    const owner = typeof entry.owner === "string" && ADDRESS.test(entry.owner) ? entry.owner : undefined;
    return { accountIndex: entry.accountIndex, mint: entry.mint, owner, amount: BigInt(amount) };
  });
}

function addressList(value: unknown, method: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((key) => typeof key !== "string" || !ADDRESS.test(key))) {
    throw new ChainUnreachable(method, "the answer holds a malformed account list");
  }
  return value as string[];
}

function headerCount(value: unknown, max: number, method: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw new ChainUnreachable(method, "the answer holds a malformed message header");
  }
  return value;
}

/**
 * The signers of a message: its first `numRequiredSignatures` accounts, the last `numReadonlySignedAccounts` of
 * them read-only. An answer without a header names no signers.
 */
function signersOf(header: unknown, accounts: readonly string[], method: string): SolanaTransaction["signers"] {
  if (header === undefined) return [];
  if (!isRecord(header)) throw new ChainUnreachable(method, "the answer holds a malformed message header");
  const required = headerCount(header.numRequiredSignatures, accounts.length, method);
  const readonly = headerCount(header.numReadonlySignedAccounts, required, method);
  return accounts.slice(0, required).map((address, index) => ({ address, writable: index < required - readonly }));
}

/** The transaction `signature` at `confirmed` commitment, or undefined when the node does not have it. */
export async function solanaTransaction(
  backend: ChainBackend,
  signature: string,
): Promise<SolanaTransaction | undefined> {
  const method = "getTransaction";
  const result = await backend.request(method, [
    signature,
    { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
  ]);
  if (result === null) return undefined;
  const message = isRecord(result) && isRecord(result.transaction) ? result.transaction.message : undefined;
  const meta = isRecord(result) ? result.meta : undefined;
  if (!isRecord(result) || !isRecord(message) || !isRecord(meta)) {
    throw new ChainUnreachable(method, "the answer holds no transaction with its meta");
  }
  const loaded = isRecord(meta.loadedAddresses) ? meta.loadedAddresses : {};
  const accounts = [
    ...addressList(message.accountKeys, method),
    ...addressList(loaded.writable, method),
    ...addressList(loaded.readonly, method),
  ];
  const fee = meta.fee;
  if (typeof fee !== "number" || !Number.isSafeInteger(fee) || fee < 0) {
    throw new ChainUnreachable(method, "the answer holds no fee");
  }
  return {
    signature,
    signers: signersOf(message.header, accounts, method),
    slot: slotOf(result.slot, method),
    blockTime:
      typeof result.blockTime === "number" && Number.isSafeInteger(result.blockTime) ? result.blockTime : undefined,
    failed: (meta.err ?? null) !== null,
    fee: BigInt(fee),
    accounts,
    preBalances: lamportList(meta.preBalances, accounts.length, method),
    postBalances: lamportList(meta.postBalances, accounts.length, method),
    preTokenBalances: tokenBalances(meta.preTokenBalances, accounts.length, method),
    postTokenBalances: tokenBalances(meta.postTokenBalances, accounts.length, method),
  };
}

/** A block as the payload names it: its hash and time. */
export interface SolanaBlock {
  readonly hash: string;
  /** Seconds since the epoch, when the node knows it. */
  readonly blockTime: number | undefined;
}

/** The hash and time of the block at `slot` (`getBlock` without its transactions or rewards). */
export async function solanaBlock(backend: ChainBackend, slot: bigint): Promise<SolanaBlock> {
  const method = "getBlock";
  const result = await backend.request(method, [
    Number(slot),
    {
      encoding: "json",
      transactionDetails: "none",
      rewards: false,
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    },
  ]);
  if (!isRecord(result) || typeof result.blockhash !== "string" || !ADDRESS.test(result.blockhash)) {
    throw new ChainUnreachable(method, `the answer holds no block at slot ${slot}`);
  }
  const blockTime =
    typeof result.blockTime === "number" && Number.isSafeInteger(result.blockTime) ? result.blockTime : undefined;
  return { hash: result.blockhash, blockTime };
}

/** One balance change of one watched address in one transaction (the block is filled in by the caller). */
export interface SolanaBalanceChange {
  readonly txHash: string;
  /** Where in the transaction: `native`, or `token:<mint>`. */
  readonly place: string;
  readonly address: string;
  readonly operation: "deposit" | "withdraw";
  readonly amount: bigint;
  readonly asset: AssetMetadata;
}

function change(
  txHash: string,
  place: string,
  address: string,
  delta: bigint,
  asset: AssetMetadata,
): SolanaBalanceChange | undefined {
  if (delta === 0n) return undefined;
  return {
    txHash,
    place,
    address,
    operation: delta > 0n ? "deposit" : "withdraw",
    amount: delta > 0n ? delta : -delta,
    asset,
  };
}

/**
 * The balance changes of `watched` addresses in `tx`: SOL (the fee added back for the fee payer, the first
 * account) and the listed `tokens` in each watched owner's associated token account. A failed transaction
 * moved nothing but its fee: none.
 */
export function solanaBalanceChanges(
  tx: SolanaTransaction,
  watched: ReadonlyMap<string, string>,
  native: AssetMetadata,
  tokens: readonly KnownToken[],
): SolanaBalanceChange[] {
  if (tx.failed) return [];
  const changes: SolanaBalanceChange[] = [];
  for (const [index, account] of tx.accounts.entries()) {
    if (!watched.has(account)) continue;
    const delta = (tx.postBalances[index] as bigint) - (tx.preBalances[index] as bigint) + (index === 0 ? tx.fee : 0n);
    const found = change(tx.signature, "native", account, delta, native);
    if (found) changes.push(found);
  }
  if (tokens.length === 0) return changes;
  const byMint = new Map(tokens.map((token) => [token.address, token]));
  const holdings = new Map<number, { mint: string; owner: string | undefined; pre: bigint; post: bigint }>();
  for (const [side, list] of [
    ["pre", tx.preTokenBalances],
    ["post", tx.postTokenBalances],
  ] as const) {
    for (const balance of list) {
      const entry = holdings.get(balance.accountIndex) ?? {
        mint: balance.mint,
        owner: balance.owner,
        pre: 0n,
        post: 0n,
      };
      // One account holds one mint: an answer saying otherwise is not read.
      if (entry.mint !== balance.mint) continue;
      entry[side] = balance.amount;
      entry.owner ??= balance.owner;
      holdings.set(balance.accountIndex, entry);
    }
  }
  for (const [index, holding] of holdings) {
    const token = byMint.get(holding.mint);
    const owner = holding.owner;
    if (!token || owner === undefined || !watched.has(owner)) continue;
    if (tx.accounts[index] !== associatedTokenAddress(owner, token.address, token.owner)) continue;
    const found = change(tx.signature, `token:${token.address}`, owner, holding.post - holding.pre, token.metadata);
    if (found) changes.push(found);
  }
  return changes;
}

/**
 * The other side of a balance change of `tx`: the account whose balance moved most the opposite way (for a
 * token, the owner of that token account). A transaction moving value between several accounts has no single
 * other side; this names the largest. Without one (nothing moved the other way), the fee payer.
 */
export function solanaCounterparty(tx: SolanaTransaction, changed: SolanaBalanceChange): string {
  const sign = changed.operation === "deposit" ? -1n : 1n;
  let best: { account: string; moved: bigint } | undefined;
  const consider = (account: string | undefined, delta: bigint) => {
    const moved = delta * sign;
    if (account === undefined || account === changed.address || moved <= 0n) return;
    if (!best || moved > best.moved) best = { account, moved };
  };
  if (changed.place === "native") {
    for (const [index, account] of tx.accounts.entries()) {
      const delta =
        (tx.postBalances[index] as bigint) - (tx.preBalances[index] as bigint) + (index === 0 ? tx.fee : 0n);
      consider(account, delta);
    }
  } else {
    const mint = changed.place.slice("token:".length);
    const accounts = new Map<number, { owner: string | undefined; pre: bigint; post: bigint }>();
    for (const [side, list] of [
      ["pre", tx.preTokenBalances],
      ["post", tx.postTokenBalances],
    ] as const) {
      for (const balance of list) {
        if (balance.mint !== mint) continue;
        const entry = accounts.get(balance.accountIndex) ?? { owner: balance.owner, pre: 0n, post: 0n };
        entry[side] = balance.amount;
        entry.owner ??= balance.owner;
        accounts.set(balance.accountIndex, entry);
      }
    }
    for (const [index, entry] of accounts) consider(entry.owner ?? tx.accounts[index], entry.post - entry.pre);
  }
  return best?.account ?? (tx.accounts[0] as string);
}
