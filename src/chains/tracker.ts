/**
 * The send-status tracker: in the background, asks each watched send's chain whether it has landed and
 * settles its record (INCLUDED or FAILED) when it has. It reads the watch list, talks to the chains with no
 * transaction open (a slow node never holds up the store), then settles each outcome in a short transaction
 * of its own. A chain that does not answer is asked again on the next round.
 *
 * @module
 */
import { DataReader, DataWriter, PENDING_SENDS_SCOPE } from "../model/data.js";
import type { Clock } from "../model/random.js";
import type { Store } from "../storage/store.js";
import { checkEvmInclusion } from "./evm-inclusion.js";
import type { InclusionChecker } from "./inclusion.js";
import { type ChainRegistry, caip2Namespace } from "./registry.js";
import { Rounds } from "./rounds.js";
import { settleSend } from "./send-status.js";
import { checkSolanaInclusion } from "./solana-inclusion.js";

/** Checkers by CAIP-2 namespace. */
export const INCLUSION_CHECKERS: Readonly<Record<string, InclusionChecker>> = {
  eip155: checkEvmInclusion,
  solana: checkSolanaInclusion,
};

/** Sends looked at per round. */
const BATCH = 100;

export interface SendStatusTrackerOptions {
  store: Store;
  chains: ChainRegistry;
  clock: Clock;
  /** Time between rounds (ms). */
  intervalMs: number;
  /** Told about failures (an unreachable chain, a failing store), for the host's logs. */
  onError?: (error: unknown) => void;
  /** Checkers by CAIP-2 namespace (default: every family custodian knows). */
  checkers?: Readonly<Record<string, InclusionChecker>>;
}

export class SendStatusTracker {
  readonly #options: SendStatusTrackerOptions;
  readonly #checkers: Readonly<Record<string, InclusionChecker>>;
  readonly #rounds: Rounds;

  constructor(options: SendStatusTrackerOptions) {
    this.#options = options;
    this.#checkers = options.checkers ?? INCLUSION_CHECKERS;
    this.#rounds = new Rounds(() => this.round(), options.intervalMs, options.onError);
  }

  /** Starts the rounds (idempotent). Nothing runs when no chain is configured. */
  start(): void {
    if (!this.#options.chains.isEmpty) this.#rounds.start();
  }

  /** Asks for a round soon (after a broadcast), instead of waiting out the interval. */
  wake(): void {
    this.#rounds.wake();
  }

  /** Stops the rounds and waits for the one in flight. */
  async close(): Promise<void> {
    await this.#rounds.close();
  }

  /** One round: every watched send (up to a batch) is looked up and settled if final. */
  async round(): Promise<void> {
    const { store, chains, clock, onError } = this.#options;
    const pending = await store.read(async (reader) =>
      new DataReader(reader).list("pendingSends", PENDING_SENDS_SCOPE, { limit: BATCH }),
    );
    for (const entry of pending) {
      if (this.#rounds.closed) return;
      const backend = chains.find(entry.caip2);
      const namespace = caip2Namespace(entry.caip2);
      const checker = namespace === undefined ? undefined : this.#checkers[namespace];
      // A chain this engine was not given (another engine on the store may have it) is left to wait.
      if (!backend || !checker) continue;
      try {
        const record = await store.read((reader) => new DataReader(reader).get("sendTransactionStatuses", entry.id));
        if (!record) {
          await store.transaction((tx) => new DataWriter(tx).delete("pendingSends", entry.id));
          continue;
        }
        const outcome = await checker(backend, record);
        if (outcome) await store.transaction((tx) => settleSend(new DataWriter(tx), entry.id, outcome, clock()));
      } catch (error) {
        onError?.(error);
      }
    }
  }
}
