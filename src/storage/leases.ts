/**
 * Leases for the single-process stores (memory, file): kept in memory beside the committed state, since no
 * other process can claim from these stores. A lease is attached to the committed entry it was taken on, so
 * a transaction that puts or deletes the record (a new entry, or none) ends it, as in PostgreSQL.
 *
 * @module
 */
import { invalidArgument } from "../common/errors.js";
import type { ClaimOptions, StoredRecord } from "./store.js";

/** A committed record as the store keeps it: never mutated once built, so a lease can be attached to it. */
interface LeasedEntry {
  readonly record: StoredRecord;
}

/** What leases read of a single-process store's committed state. */
export interface LeasableState {
  entry(collection: string, id: string): LeasedEntry | undefined;
  /** The scope's ids in order. Iterated only as far as a claim needs, so a view may merge them lazily. */
  scopeIds(collection: string, scope: string): Iterable<string>;
}

interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** Refuses a claim no store could honour: an empty owner, a limit below one, times that are not numbers. */
export function checkClaim(options: ClaimOptions): void {
  if (typeof options.owner !== "string" || options.owner === "") {
    throw invalidArgument("claim owner must be a non-empty string", "owner");
  }
  if (!Number.isSafeInteger(options.limit) || options.limit < 1) {
    throw invalidArgument("claim limit must be a whole number of at least 1", "limit");
  }
  if (!Number.isFinite(options.now)) throw invalidArgument("claim now must be a finite number", "now");
  if (!Number.isFinite(options.until)) throw invalidArgument("claim until must be a finite number", "until");
}

/** The leases of one single-process store. */
export class ProcessLeases {
  readonly #leases = new WeakMap<LeasedEntry, Lease>();

  /** Claims from `state` (see `Store.claim`). Synchronous, so nothing else runs between the look and the take. */
  claim(state: LeasableState, collection: string, scope: string, options: ClaimOptions): StoredRecord[] {
    checkClaim(options);
    const claimed: StoredRecord[] = [];
    for (const id of state.scopeIds(collection, scope)) {
      if (claimed.length >= options.limit) break;
      if (options.before !== undefined && id >= options.before) break;
      const entry = state.entry(collection, id) as LeasedEntry;
      const lease = this.#leases.get(entry);
      if (lease !== undefined && lease.until > options.now) continue;
      this.#leases.set(entry, { owner: options.owner, until: options.until });
      claimed.push(entry.record);
    }
    return claimed;
  }

  /** Ends `owner`'s leases on these records of `state`. */
  release(state: LeasableState, collection: string, ids: readonly string[], owner: string): void {
    for (const id of ids) {
      const entry = state.entry(collection, id);
      if (entry !== undefined && this.#leases.get(entry)?.owner === owner) this.#leases.delete(entry);
    }
  }
}
