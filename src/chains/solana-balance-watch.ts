/**
 * The balance watcher's Solana side: for one cluster, reads the new transactions of the watched accounts (each
 * subscribed wallet address, and its associated token account of each listed mint) and writes their balance
 * changes as confirmed updates; then settles the cluster's pending updates at `finalized` commitment.
 *
 * - **Confirmed** is the cluster's `confirmed` commitment: `getSignaturesForAddress` and `getTransaction` are
 *   read at it (see `solana-transfers.ts`).
 * - **Finalized** is `getSignatureStatuses` answering `finalized` for the transaction at the slot it was seen
 *   in. One the cluster no longer knows, or knows at another slot, once the finalized slot (`getSlot` at
 *   `finalized`) has passed the slot it was seen in, left the chain: it is dropped without a second event.
 *
 * Each account has its own cursor in the store: the newest signature read whole. An account first seen starts
 * at its newest signature (what came before the watch is not reported). A read takes at most
 * {@link SIGNATURES_PER_READ} signatures, newest first; when more came, the cursor keeps the gap (the oldest
 * read, the newest to move to) and the next rounds read down to it, so nothing is skipped.
 *
 * Bounded per cluster and round: {@link MAX_SOLANA_ACCOUNTS_PER_ROUND} accounts read (in turns when more are
 * watched), {@link MAX_SOLANA_TRANSACTIONS_PER_ROUND} transactions (and as many blocks at most), and the
 * watcher's finalization bound with one `getSignatureStatuses` and at most one `getSlot`.
 *
 * @module
 */
import { associatedTokenAddress } from "../crypto/addresses/solana-pda.js";
import { DataReader, DataWriter, pendingBalanceUpdatesScope } from "../model/data.js";
import type { Clock } from "../model/random.js";
import type { BalanceCursorRecord, BalanceUpdateRecord } from "../model/records.js";
import type { Store } from "../storage/store.js";
import type { AssetMetadata, KnownToken } from "./asset-types.js";
import type { AssetRegistry } from "./assets.js";
import { balanceUpdateId, recordConfirmedUpdate, settleBalanceUpdate } from "./balance-updates.js";
import type { ChainBackend, ChainRegistry } from "./registry.js";
import { ChainUnreachable } from "./rpc.js";
import { SolanaRpc } from "./solana-rpc.js";
import {
  type SolanaBlock,
  type SolanaTransaction,
  signaturesForAddress,
  solanaBalanceChanges,
  solanaBlock,
  solanaTransaction,
} from "./solana-transfers.js";

/** Accounts (`getSignaturesForAddress` calls) read per cluster and round at most; the rest wait their turn. */
export const MAX_SOLANA_ACCOUNTS_PER_ROUND = 50;

/** Signatures one `getSignaturesForAddress` call asks for (its `limit`). */
export const SIGNATURES_PER_READ = 25;

/**
 * Transactions (`getTransaction` calls) read per cluster and round at most. An account is read only while a
 * whole read's worth ({@link SIGNATURES_PER_READ}) is left, so a read is never left half done.
 */
export const MAX_SOLANA_TRANSACTIONS_PER_ROUND = 100;

/** What the Solana side needs of the watcher. */
export interface SolanaWatchContext {
  readonly store: Store;
  readonly chains: ChainRegistry;
  readonly assets: AssetRegistry;
  readonly clock: Clock;
  /** Whether the watcher is closing (a round then stops between accounts). */
  readonly closed: () => boolean;
  /** Told about the first account whose read failed in a round (the round goes on with the next one). */
  readonly onError?: (error: unknown) => void;
}

/** The cursor id of `account` on `chain`. */
function cursorId(chain: string, account: string): string {
  return `${chain}/${account}`;
}

/** The `index`-th watched account: each address, then its associated token account of each listed token. */
function accountAt(addresses: readonly string[], tokens: readonly KnownToken[], index: number): string {
  const owner = addresses[Math.floor(index / (tokens.length + 1))] as string;
  const token = tokens[(index % (tokens.length + 1)) - 1];
  return token ? associatedTokenAddress(owner, token.address, token.owner) : owner;
}

/** Reads one Solana cluster forward: in turns over its watched accounts. */
export class SolanaBalanceReader {
  /** Where the next round starts in the list of watched accounts. */
  #turn = 0;

  constructor(
    readonly chain: string,
    readonly context: SolanaWatchContext,
  ) {}

  /** Reads up to {@link MAX_SOLANA_ACCOUNTS_PER_ROUND} accounts and writes the confirmed updates found. */
  async readForward(watched: ReadonlyMap<string, string>): Promise<void> {
    const { chains, assets } = this.context;
    const backend = chains.find(this.chain);
    if (!backend || watched.size === 0) return;
    const { native, tokens } = await assets.watchedAssets(this.chain);
    const addresses = [...watched.keys()].sort();
    const total = addresses.length * (tokens.length + 1);
    const count = Math.min(total, MAX_SOLANA_ACCOUNTS_PER_ROUND);
    const start = this.#turn % total;
    this.#turn = (start + count) % total;
    const round: Round = {
      backend,
      native,
      tokens,
      watched,
      budget: MAX_SOLANA_TRANSACTIONS_PER_ROUND,
      seen: new Map(),
    };
    for (let step = 0; step < count; step++) {
      if (this.context.closed() || round.budget < SIGNATURES_PER_READ) return;
      try {
        await this.#readAccount(accountAt(addresses, tokens, (start + step) % total), round);
      } catch (error) {
        // One account the node fails on (a transaction it lists but no longer has) holds up no other; a node
        // that fails them all is reported once a round.
        if (!round.failed) this.context.onError?.(error);
        round.failed = true;
      }
    }
  }

  async #readAccount(account: string, round: Round): Promise<void> {
    const { store, clock, chains } = this.context;
    const id = cursorId(this.chain, account);
    const cursor = await store.read((reader) => new DataReader(reader).get("balanceCursors", id));
    if (!cursor) {
      const [newest] = await signaturesForAddress(round.backend, account, { limit: 1 });
      await store.transaction(async (tx) => {
        const data = new DataWriter(tx);
        if (await data.get("balanceCursors", id)) return;
        await data.put("balanceCursors", {
          id,
          block: (newest?.slot ?? 0n).toString(),
          signature: newest?.signature ?? "",
          updatedAtMs: clock(),
        });
      });
      return;
    }
    const entries = await signaturesForAddress(round.backend, account, {
      limit: SIGNATURES_PER_READ,
      ...(cursor.signature ? { until: cursor.signature } : {}),
      ...(cursor.gap ? { before: cursor.gap.before } : {}),
    });
    const caip2 = chains.canonicalId(this.chain);
    const records: BalanceUpdateRecord[] = [];
    for (const entry of entries) {
      if (entry.failed) continue;
      const tx = await this.#transaction(entry.signature, round);
      if (!tx) throw new ChainUnreachable("getTransaction", `no transaction ${entry.signature}, which it listed`);
      const changes = solanaBalanceChanges(tx, round.watched, round.native, round.tokens);
      if (changes.length === 0) continue;
      const block = await this.#block(tx.slot, round);
      const now = clock();
      for (const change of changes) {
        records.push({
          id: balanceUpdateId(caip2, change.txHash, change.place, change.address, change.operation),
          organizationId: round.watched.get(change.address) as string,
          caip2,
          chain: this.chain,
          stage: "confirmed",
          operation: change.operation,
          txHash: change.txHash,
          address: change.address,
          asset: { ...change.asset, amount: change.amount.toString() },
          block: {
            number: tx.slot.toString(),
            hash: block.hash,
            timestampMs: (block.blockTime ?? tx.blockTime ?? Math.floor(now / 1000)) * 1000,
          },
          createdAtMs: now,
          updatedAtMs: now,
        });
      }
    }
    // Nothing new and no gap to read down: the cursor stays as it is, unwritten.
    if (entries.length === 0 && !cursor.gap) return;
    const next = nextCursor(cursor, entries);
    await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      const current = await data.get("balanceCursors", id);
      // Another engine on this store read the account meanwhile: its updates stand.
      if (current?.signature !== cursor.signature || current?.gap?.before !== cursor.gap?.before) return;
      for (const record of records) await recordConfirmedUpdate(data, record);
      await data.put("balanceCursors", { ...next, updatedAtMs: clock() });
    });
  }

  /** The transaction `signature`, read once per round however many watched accounts it names. */
  async #transaction(signature: string, round: Round): Promise<SolanaTransaction | undefined> {
    if (!round.seen.has(signature)) {
      round.budget--;
      round.seen.set(signature, await solanaTransaction(round.backend, signature));
    }
    return round.seen.get(signature);
  }

  async #block(slot: bigint, round: Round): Promise<SolanaBlock> {
    round.blocks ??= new Map();
    let block = round.blocks.get(slot);
    if (!block) {
      block = await solanaBlock(round.backend, slot);
      round.blocks.set(slot, block);
    }
    return block;
  }

  /**
   * Settles up to `max` pending updates of the cluster: finalized when `getSignatureStatuses` says so at the
   * slot they were seen in, dropped when the finalized slot passed them and the cluster has them nowhere else.
   */
  async settleFinal(max: number): Promise<void> {
    const { store, chains, clock } = this.context;
    const backend = chains.find(this.chain);
    if (!backend) return;
    const pending = await store.read((reader) =>
      new DataReader(reader).list("pendingBalanceUpdates", pendingBalanceUpdatesScope(this.chain), { limit: max }),
    );
    if (pending.length === 0) return;
    const records = await store.read(async (reader) => {
      const data = new DataReader(reader);
      return Promise.all(pending.map((entry) => data.get("balanceUpdates", entry.id)));
    });
    const signatures = [...new Set(records.flatMap((record) => (record ? [record.txHash] : [])))];
    const rpc = new SolanaRpc(backend);
    const statuses = new Map<string, Awaited<ReturnType<SolanaRpc["signatureStatuses"]>>[number]>();
    if (signatures.length > 0) {
      const answered = await rpc.signatureStatuses(signatures);
      for (const [index, signature] of signatures.entries()) statuses.set(signature, answered[index] ?? null);
    }
    let finalizedSlot: bigint | undefined;
    for (const [index, entry] of pending.entries()) {
      if (this.context.closed()) return;
      const record = records[index];
      let outcome: "finalized" | "dropped" | undefined = "dropped";
      if (record) {
        const status = statuses.get(record.txHash);
        const slot = BigInt(record.block.number);
        if (status && status.slot === slot) {
          outcome = status.confirmationStatus === "finalized" ? "finalized" : undefined;
        } else {
          finalizedSlot ??= await finalizedSlotOf(backend);
          outcome = slot <= finalizedSlot ? "dropped" : undefined;
        }
      }
      if (outcome === undefined) continue;
      const settled = outcome;
      await store.transaction((tx) => settleBalanceUpdate(new DataWriter(tx), entry.id, settled, clock()));
    }
  }
}

/** What one round of one cluster shares across its accounts. */
interface Round {
  readonly backend: ChainBackend;
  readonly native: AssetMetadata;
  readonly tokens: readonly KnownToken[];
  readonly watched: ReadonlyMap<string, string>;
  /** `getTransaction` calls left. */
  budget: number;
  /** Transactions read this round, by signature. */
  readonly seen: Map<string, SolanaTransaction | undefined>;
  blocks?: Map<bigint, SolanaBlock>;
  /** Whether an account's read failed this round (reported already). */
  failed?: boolean;
}

/**
 * Where an account's cursor goes after a read of `entries` (newest first): a short read closes the gap (the
 * cursor moves to the newest signature seen since it); a full one leaves older signatures, read next time.
 */
function nextCursor(
  cursor: BalanceCursorRecord,
  entries: readonly { signature: string; slot: bigint }[],
): Omit<BalanceCursorRecord, "updatedAtMs"> {
  const newest =
    cursor.gap ?? (entries[0] ? { newest: entries[0].signature, slot: entries[0].slot.toString() } : undefined);
  const oldest = entries[entries.length - 1];
  if (entries.length === SIGNATURES_PER_READ && oldest && newest) {
    return {
      id: cursor.id,
      block: cursor.block,
      ...(cursor.signature !== undefined ? { signature: cursor.signature } : {}),
      gap: { before: oldest.signature, newest: newest.newest, slot: newest.slot },
    };
  }
  return {
    id: cursor.id,
    block: newest?.slot ?? cursor.block,
    signature: newest?.newest ?? cursor.signature ?? "",
  };
}

/** The slot the cluster has finalized. */
async function finalizedSlotOf(backend: ChainBackend): Promise<bigint> {
  const method = "getSlot";
  const result = await backend.request(method, [{ commitment: "finalized" }]);
  if (typeof result !== "number" || !Number.isSafeInteger(result) || result < 0) {
    throw new ChainUnreachable(method, "the answer holds no slot");
  }
  return BigInt(result);
}
