/**
 * The balance watcher: in the background, reads the configured EVM chains and Solana clusters for transfers
 * into and out of the wallet addresses of organizations subscribed to balance updates (`watched-addresses.ts`), and writes one
 * balance update per transfer and address (`balance-updates.ts`), whose writes the outbox turns into
 * `BALANCE_CONFIRMED_UPDATES` and, once the block is final, `BALANCE_FINALIZED_UPDATES` deliveries.
 *
 * - **Confirmed** is the hosted "first seen in a block": the watcher reads every block up to the node's
 *   `latest`, from where it stopped (its cursor, kept in the store per chain). A chain first read starts at its
 *   latest block: transfers before the watch began are not reported.
 * - **Finalized** is the chain's own `finalized` block tag: an update whose block number is at or below it,
 *   and whose block hash is still the chain's at that number, moves to finalized; one whose block left the
 *   chain meanwhile (a reorganization) is dropped without a second event. Anvil answers `finalized` with the
 *   block two epochs (64 blocks, `--slots-in-an-epoch`) behind the latest.
 * - Solana clusters are read account by account at their `confirmed` commitment, and settled when the
 *   transaction's status is `finalized` (`solana-balance-watch.ts`, with its own bounds per round).
 *
 * Nothing is read from any chain while no organization is subscribed: a round then costs one store read.
 * Each round is bounded: {@link MAX_BLOCKS_PER_ROUND} blocks per chain, {@link MAX_RECEIPTS_PER_ROUND}
 * receipts, one `eth_getLogs` over the blocks read, and {@link MAX_FINALIZATIONS_PER_ROUND} updates settled.
 * Several engines may share a store: the cursor moves in the transaction that writes the updates, and a round
 * that finds it moved by another engine writes nothing; update ids derive from the transfer, so one transfer
 * is one update however often it is seen.
 *
 * @module
 */
import { BALANCE_CURSORS_SCOPE, DataReader, DataWriter, pendingBalanceUpdatesScope } from "../model/data.js";
import type { Clock } from "../model/random.js";
import type { BalanceUpdateRecord } from "../model/records.js";
import type { Store } from "../storage/store.js";
import type { AssetRegistry } from "./assets.js";
import { balanceUpdateId, recordConfirmedUpdate, settleBalanceUpdate } from "./balance-updates.js";
import { blockHeader, type EvmBlockHeader, latestBlockNumber, scanEvmTransfers } from "./evm-transfers.js";
import { type ChainRegistry, caip2Namespace } from "./registry.js";
import { Rounds } from "./rounds.js";
import { SolanaBalanceReader } from "./solana-balance-watch.js";
import { anyBalanceWatch, watchedAddresses } from "./watched-addresses.js";

/** Blocks read per chain and round at most; a chain further behind catches up over the next rounds. */
export const MAX_BLOCKS_PER_ROUND = 20;

/**
 * Receipts read per chain and round at most (one per native transfer of a watched address, to leave out
 * failed transactions); the round stops at the end of the block where they run out.
 */
export const MAX_RECEIPTS_PER_ROUND = 100;

/** Pending updates looked at for finality per chain and round at most. */
export const MAX_FINALIZATIONS_PER_ROUND = 100;

export interface BalanceWatcherOptions {
  store: Store;
  chains: ChainRegistry;
  assets: AssetRegistry;
  clock: Clock;
  /** Time between rounds (ms). */
  intervalMs: number;
  /** Told about failures (an unreachable chain, a failing store, addresses left unwatched), for the host's logs. */
  onError?: (error: unknown) => void;
}

export class BalanceWatcher {
  readonly #options: BalanceWatcherOptions;
  readonly #rounds: Rounds;
  /** One reader per configured Solana cluster (each keeps whose turn it is among the watched accounts). */
  readonly #solana: SolanaBalanceReader[];

  constructor(options: BalanceWatcherOptions) {
    this.#options = options;
    this.#rounds = new Rounds(() => this.round(), options.intervalMs, options.onError);
    const context = { ...options, closed: () => this.#rounds.closed };
    this.#solana = options.chains.chainIds
      .filter((caip2) => caip2Namespace(caip2) === "solana")
      .map((chain) => new SolanaBalanceReader(chain, context));
  }

  /** The configured EVM chains. */
  get #evmChains(): string[] {
    return this.#options.chains.chainIds.filter((caip2) => caip2Namespace(caip2) === "eip155");
  }

  /** Starts the rounds (idempotent). Nothing runs when no EVM chain or Solana cluster is configured. */
  start(): void {
    if (this.#evmChains.length + this.#solana.length > 0) this.#rounds.start();
  }

  /** Stops the rounds and waits for the one in flight. */
  async close(): Promise<void> {
    await this.#rounds.close();
  }

  /** One round: every configured chain read forward and its pending updates settled, if anyone watches. */
  async round(): Promise<void> {
    const { store, onError } = this.#options;
    if (!(await store.read(anyBalanceWatch))) {
      await this.#forgetCursors();
      return;
    }
    const evmChains = this.#evmChains;
    if (evmChains.length > 0) {
      const watched = await this.#watched("ADDRESS_FORMAT_ETHEREUM");
      for (const chain of evmChains) {
        if (this.#rounds.closed) return;
        try {
          await this.#readForward(chain, watched);
          await this.#settleFinal(chain);
        } catch (error) {
          onError?.(error);
        }
      }
    }
    if (this.#solana.length > 0) {
      const watched = await this.#watched("ADDRESS_FORMAT_SOLANA");
      for (const reader of this.#solana) {
        if (this.#rounds.closed) return;
        try {
          await reader.readForward(watched);
          await reader.settleFinal(MAX_FINALIZATIONS_PER_ROUND);
        } catch (error) {
          onError?.(error);
        }
      }
    }
  }

  /** The subscribed wallet addresses of `addressFormat`, the host told when some are left out. */
  async #watched(addressFormat: string): Promise<ReadonlyMap<string, string>> {
    const watched = await this.#options.store.read((reader) => watchedAddresses(reader, addressFormat));
    if (watched.truncated) {
      this.#options.onError?.(
        new Error("balance watcher: more wallet addresses are subscribed than it watches; the rest are not"),
      );
    }
    return watched.byAddress;
  }

  /**
   * With nobody watching, the cursors go (up to 100 a round): a watch that starts again later starts at the
   * chain's latest block (a Solana account's newest signature) rather than reporting what moved while nobody
   * asked.
   */
  async #forgetCursors(): Promise<void> {
    const { store } = this.#options;
    const cursors = await store.read((reader) =>
      new DataReader(reader).list("balanceCursors", BALANCE_CURSORS_SCOPE, { limit: 100 }),
    );
    if (cursors.length === 0) return;
    await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      for (const cursor of cursors) await data.delete("balanceCursors", cursor.id);
    });
  }

  /** Reads `chain` from its cursor up to `latest` (bounded) and writes the confirmed updates found. */
  async #readForward(chain: string, watched: ReadonlyMap<string, string>): Promise<void> {
    const { store, chains, assets, clock } = this.#options;
    const backend = chains.find(chain);
    if (!backend) return;
    const latest = await latestBlockNumber(backend);
    const cursor = await store.read((reader) => new DataReader(reader).get("balanceCursors", chain));
    if (!cursor) {
      await store.transaction(async (tx) => {
        const data = new DataWriter(tx);
        if (await data.get("balanceCursors", chain)) return;
        await data.put("balanceCursors", { id: chain, block: latest.toString(), updatedAtMs: clock() });
      });
      return;
    }
    const from = BigInt(cursor.block) + 1n;
    if (from > latest) return;
    const to = latest < from + BigInt(MAX_BLOCKS_PER_ROUND) - 1n ? latest : from + BigInt(MAX_BLOCKS_PER_ROUND) - 1n;
    const { native, tokens } = await assets.watchedAssets(chain);
    const scan = await scanEvmTransfers(backend, { from, to }, new Set(watched.keys()), native, tokens, {
      maxReceipts: MAX_RECEIPTS_PER_ROUND,
    });
    if (scan.lastBlock < from) return;
    const caip2 = chains.canonicalId(chain);
    const now = clock();
    await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      const current = await data.get("balanceCursors", chain);
      // Another engine on this store read these blocks meanwhile: its updates stand.
      if (current?.block !== cursor.block) return;
      for (const transfer of scan.transfers) {
        const organizationId = watched.get(transfer.address);
        if (organizationId === undefined) continue;
        const record: BalanceUpdateRecord = {
          id: balanceUpdateId(caip2, transfer.txHash, transfer.place, transfer.address, transfer.operation),
          organizationId,
          caip2,
          chain,
          stage: "confirmed",
          operation: transfer.operation,
          txHash: transfer.txHash,
          address: transfer.address,
          asset: {
            symbol: transfer.asset.symbol,
            name: transfer.asset.name,
            decimals: transfer.asset.decimals,
            caip19: transfer.asset.caip19,
            amount: transfer.amount.toString(),
          },
          block: {
            number: transfer.blockNumber.toString(),
            hash: transfer.blockHash,
            timestampMs: transfer.timestampMs,
          },
          createdAtMs: now,
          updatedAtMs: now,
        };
        await recordConfirmedUpdate(data, record);
      }
      await data.put("balanceCursors", { id: chain, block: scan.lastBlock.toString(), updatedAtMs: now });
    });
  }

  /** Moves the pending updates of `chain` whose blocks the chain has finalized (bounded per round). */
  async #settleFinal(chain: string): Promise<void> {
    const { store, chains, clock } = this.#options;
    const backend = chains.find(chain);
    if (!backend) return;
    const pending = await store.read((reader) =>
      new DataReader(reader).list("pendingBalanceUpdates", pendingBalanceUpdatesScope(chain), {
        limit: MAX_FINALIZATIONS_PER_ROUND,
      }),
    );
    if (pending.length === 0) return;
    const finalized = await blockHeader(backend, "finalized");
    if (!finalized) return;
    const headers = new Map<string, EvmBlockHeader | undefined>();
    for (const entry of pending) {
      if (this.#rounds.closed) return;
      if (BigInt(entry.blockNumber) > finalized.number) continue;
      const record = await store.read((reader) => new DataReader(reader).get("balanceUpdates", entry.id));
      let outcome: "finalized" | "dropped" = "dropped";
      if (record) {
        if (!headers.has(entry.blockNumber)) {
          headers.set(entry.blockNumber, await blockHeader(backend, BigInt(entry.blockNumber)));
        }
        outcome = headers.get(entry.blockNumber)?.hash === record.block.hash ? "finalized" : "dropped";
      }
      await store.transaction((tx) => settleBalanceUpdate(new DataWriter(tx), entry.id, outcome, clock()));
    }
  }
}
