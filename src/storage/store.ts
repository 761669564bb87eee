/**
 * The storage port. Every adapter (memory, file, postgres) implements this one interface and passes the
 * shared contract suite in `test/storage/contract.ts`.
 *
 * The port is deliberately small and untyped: records are JSON objects with an `id`, grouped in named
 * collections. Each record lives in one *scope* (the organization or wallet it belongs to), and a listing
 * walks a scope in `id` order, which is creation order because custodian's ids are time-ordered. Unique
 * index entries (`activityByFingerprint` → id, ...) are declared with each write, so an adapter can keep
 * them consistent with the record on delete and on replay without knowing the engine's schema.
 *
 * @module
 */
import { CustodyError } from "../common/errors.js";

/** A JSON value as stored. Adapters may serialize it; they must give back an equal value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A stored record: a JSON object with a string `id`, unique within its collection. */
export interface StoredRecord {
  id: string;
  [key: string]: JsonValue;
}

/** Where a record is placed: its scope for listings and its unique index entries. */
export interface Placement {
  /** The listing scope, e.g. the organization id for activities or the wallet id for wallet accounts. */
  scope: string;
  /** Unique index entries, index name → key. A key already held by another record is refused. */
  keys?: Readonly<Record<string, string>>;
}

/** Options of an ordered listing within one scope. */
export interface ListOptions {
  /** Only records whose id sorts after this one (exclusive). The id need not exist any more. */
  after?: string;
  /** Only records whose id sorts before this one (exclusive). */
  before?: string;
  /** Maximum number of records to return. */
  limit?: number;
  /** `asc` (default) walks oldest first; `desc` newest first. */
  order?: "asc" | "desc";
}

/**
 * Read access: inside a transaction it sees the transaction's own writes. Returned records are frozen (deeply):
 * they may be the stored objects themselves, so a caller changes a record by putting a new one.
 */
export interface StoreReader {
  /** The record `id` of `collection`, or undefined. */
  get(collection: string, id: string): Promise<StoredRecord | undefined>;
  /** The id held by a unique index entry. */
  lookup(index: string, key: string): Promise<string | undefined>;
  /** Records of one scope in id order, with cost proportional to the page. */
  list(collection: string, scope: string, options?: ListOptions): Promise<StoredRecord[]>;
}

/** A read-write transaction. Nothing it writes is visible outside until it commits. */
export interface StoreTransaction extends StoreReader {
  /**
   * Inserts or replaces a record. On replace, its old index entries are dropped and the new ones set; its
   * scope cannot change. A unique key held by another record throws {@link UniqueKeyViolation}.
   */
  put(collection: string, record: StoredRecord, placement: Placement): Promise<void>;
  /** Deletes a record and its index entries. Deleting a missing record is a no-op. */
  delete(collection: string, id: string): Promise<void>;
}

/**
 * A request to lease records of one scope (see {@link Store.claim}). Times are the caller's clock in ms; instances
 * sharing a store must keep their clocks roughly in step (a lease is only as exact as the clocks).
 */
export interface ClaimOptions {
  /** Who takes the leases: an id unique to one running instance. */
  owner: string;
  /** Now: leases that end at or before it are free. */
  now: number;
  /** When the leases taken end, unless released or their record is written first. */
  until: number;
  /** At most this many records (at least 1). */
  limit: number;
  /** Only records whose id sorts before this one (exclusive). */
  before?: string;
}

/**
 * Options of one {@link Store.transaction}. All are hints: they may make a store faster, never change what a
 * transaction sees or does.
 */
export interface TransactionOptions {
  /**
   * The partition the transaction writes in: for the engine, the organization tree (the id of its top-level
   * organization). A store may then run transactions of different partitions at once and make those of one
   * partition take turns, since these write the same rows (a tree's shared indexes) and would conflict. A
   * transaction should read and write only its partition's records (and any unique keys): a store may then run
   * it at an isolation that relies on this (PostgresStore: REPEATABLE READ). Writing outside it, or a wrong hint,
   * still loses no update and never lets two records hold one key (the store retries), but two such
   * transactions may each act on a record the other changes. Without it a store treats the transaction as
   * touching anything (with PostgresStore: it runs alone, serializable, waiting for every partition's writers).
   * MemoryStore and FileStore ignore it: their writers take turns anyway, in one process.
   */
  partition?: string;
}

/**
 * A transactional store. One backed by a service (a database) throws {@link storeUnavailable} from any call while
 * the service cannot be reached; the call then changed nothing.
 */
export interface Store {
  /**
   * Runs `work` in a transaction that commits when it resolves and rolls back, leaving the store exactly as
   * before, when it throws. Concurrent transactions are serializable: none sees another's uncommitted writes.
   * `options` are hints (see {@link TransactionOptions}).
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs `work` against a consistent view of committed data. */
  read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T>;
  /**
   * Leases up to `limit` committed records of `scope`, lowest ids first, to `options.owner` until `options.until`,
   * skipping records under a lease that has not ended (the owner's own included), and returns them. Two callers
   * never both get a record whose lease has not ended, even from different processes sharing the store. A lease
   * is not part of the record: it ends at `until`, on {@link Store.release}, or when a transaction puts or deletes
   * the record. A single-process store may keep leases in memory (no other process can claim from it).
   */
  claim(collection: string, scope: string, options: ClaimOptions): Promise<StoredRecord[]>;
  /** Ends the leases `owner` holds on these records, so any caller may claim them at once. Others are untouched. */
  release(collection: string, ids: readonly string[], owner: string): Promise<void>;
  /** Releases files, locks and connections. */
  close(): Promise<void>;
  /**
   * True when reads asked for together cost about one read (a database's round trip) and a transaction
   * remembers what it has read: a caller then asks up front, in one go, for what it will likely read.
   */
  readonly readsAhead?: boolean;
  /**
   * True when the data outlives the process (files, a database). The engine then refuses to run without the
   * host's key-encryption key, since secrets sealed under a generated one could not be read after a restart.
   */
  readonly durable?: boolean;
}

/** The `reason` of {@link storeUnavailable}. */
export const STORE_UNAVAILABLE = "STORE_UNAVAILABLE";

/**
 * What a store throws when the service behind it cannot be reached (a database down, a connection lost, a
 * connection that could not be made in time): `UNAVAILABLE` (HTTP 503, gRPC 14), with a plain message. Nothing
 * of the call was kept, and the same call may succeed later, so it is never recorded as an activity's failure.
 */
export function storeUnavailable(cause: unknown): CustodyError {
  return new CustodyError(
    "UNAVAILABLE",
    "the database is unavailable; nothing was done, try again shortly",
    { reason: STORE_UNAVAILABLE },
    { cause },
  );
}

/** Whether `error` is a {@link storeUnavailable} refusal. */
export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof CustodyError && error.code === "UNAVAILABLE" && error.details.reason === STORE_UNAVAILABLE;
}

/** Thrown by `put` when a unique index key is held by another record. */
export class UniqueKeyViolation extends Error {
  override readonly name = "UniqueKeyViolation";
  /** `key` of `index` is held by the record `heldBy`. */
  constructor(
    readonly index: string,
    readonly key: string,
    readonly heldBy: string,
  ) {
    super(`unique index ${index} already holds key ${key} (record ${heldBy})`);
  }
}
