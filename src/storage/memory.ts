/**
 * The in-memory store: the default for tests and for hosts that keep nothing across restarts.
 *
 * Writers run one at a time (a transaction queue) and write into a private overlay. On commit the overlay
 * yields its net changes, which are applied to the committed maps in one synchronous step, so a throwing
 * transaction leaves nothing behind and nobody sees half a commit. Readers see committed data; a commit
 * waits for open readers so that each `read` callback works on one consistent view.
 *
 * The committed state, the overlay, the change set and the reader gate are also the core of `FileStore`,
 * which journals each change set before applying it; they are exported for that reason only.
 *
 * @module
 */
import { deepFreezeBranded, freezeBranded, isDeepFrozen } from "../common/deep-frozen.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { ProcessLeases } from "./leases.js";
import { pack, unpack } from "./packing.js";
import { insertSorted, removeSorted, walkMerged } from "./sorted.js";
import { assertStorable } from "./storable.js";
import {
  type ClaimOptions,
  type ListOptions,
  type Placement,
  type Store,
  type StoredRecord,
  type StoreReader,
  type StoreTransaction,
  UniqueKeyViolation,
} from "./store.js";

/**
 * A committed record with its placement. The record never changes once the entry is built, so two states can
 * share entries; what changes is only how it is held: as the frozen object, or, once
 * it has gone unread for a while, packed into one string (see `packing.ts`) and decoded again when it is read.
 * A store reopened from its files may also hold a record as its JSON text until it is first read or packed:
 * parsing every record while opening cost more than reading the files, and the objects it built were most of
 * the collector's work. Its identity stays, so in-process leases (keyed by entry) survive the change.
 *
 * A store holds one entry per record, hundreds of thousands of them, so an entry holds as few fields as it can:
 * the record and its packed form share one, and a record without index keys (most of them) is a plain `Entry`,
 * one with keys a {@link KeyedEntry}. {@link Entry.of} builds the right one.
 *
 * @internal
 */
export class Entry {
  /**
   * The record as an object, or one string: the record packed (see `packing.ts`; its first character is a
   * packing tag, below U+0020), or, in a store reopened from its files, the record's JSON text until it is first
   * read or packed (an object, so its first character is `{`). One field for all three keeps an entry small.
   */
  private body: StoredRecord | string;

  protected constructor(
    readonly id: string,
    record: StoredRecord | string,
    readonly scope: string,
  ) {
    this.body = record;
  }

  /**
   * The entry of `record`, placed by `placement`; the entry keeps its own copy of the placement's keys. `record`
   * may be the record's JSON text (an object whose `id` member is `id`), parsed when the record is first needed;
   * a text that turns out not to hold that is reported as a corrupt store.
   */
  static of(id: string, record: StoredRecord | string, placement: Placement): Entry {
    const keys = placement.keys;
    if (keys === undefined) return new Entry(id, record, placement.scope);
    const indexes = Object.keys(keys);
    if (indexes.length === 0) return new KeyedEntry(id, record, placement.scope, Object.freeze({}), undefined);
    if (indexes.length === 1) {
      const index = indexes[0] as string;
      return new KeyedEntry(id, record, placement.scope, index, keys[index]);
    }
    // Built by assignment: a frozen spread copy got a hidden class of its own (120 bytes) in V8.
    const copy: Record<string, string> = {};
    for (const index of indexes) copy[index] = keys[index] as string;
    return new KeyedEntry(id, record, placement.scope, Object.freeze(copy), undefined);
  }

  get record(): StoredRecord {
    const body = this.body;
    if (typeof body !== "string") return body;
    return isJsonText(body) ? this.parsed(body) : unpack(body, this.seeds());
  }

  /** The index keys, as an object built for the caller; undefined when the record is in no index. */
  get keys(): Readonly<Record<string, string>> | undefined {
    return undefined;
  }

  get placement(): Placement {
    const keys = this.keys;
    return keys === undefined ? { scope: this.scope } : { scope: this.scope, keys };
  }

  /** The record's JSON text while it is held as that, so it can be written out again without parsing it. */
  get json(): string | undefined {
    const body = this.body;
    return typeof body === "string" && isJsonText(body) ? body : undefined;
  }

  /** Calls `visit` with each index key of the record. */
  forEachKey(_visit: (index: string, key: string) => void): void {}

  /** Whether the record is held as an object. */
  get warm(): boolean {
    return typeof this.body !== "string";
  }

  /** Holds the record as an object again (after a read), so that reads soon after share one object. */
  warmUp(): StoredRecord {
    const body = this.body;
    if (typeof body !== "string") return body;
    const record = this.record;
    this.body = record;
    return record;
  }

  /** Holds the record packed only, when it can be packed (a record packing cannot keep stays as it is). */
  coolDown(): void {
    const body = this.body;
    let record: StoredRecord;
    if (typeof body !== "string") {
      if (unpackable.has(body)) return;
      record = body;
    } else {
      if (!isJsonText(body)) return;
      try {
        record = this.parsed(body, false);
      } catch {
        // A text that does not parse stays as it is: reading the record reports it.
        return;
      }
    }
    const packed = pack(record, this.seeds());
    if (packed !== undefined) this.body = packed;
    else if (typeof body !== "string") unpackable.add(body);
  }

  /** The strings a packed record may refer to instead of holding them again. */
  protected seeds(): string[] {
    return [this.id, this.scope];
  }

  /** The record parsed from its JSON text; frozen (`freeze`) when it is handed out, like every stored record. */
  private parsed(json: string, freeze = true): StoredRecord {
    let record: unknown;
    try {
      record = JSON.parse(json);
    } catch (error) {
      throw storedRecordCorrupt(this.id, (error as Error).message);
    }
    if (typeof record !== "object" || record === null || (record as { id?: unknown }).id !== this.id) {
      throw storedRecordCorrupt(this.id, "its text is not an object with that id");
    }
    return freeze ? deepFreezeBranded(record as StoredRecord) : (record as StoredRecord);
  }
}

/** Whether an entry's string body is JSON text rather than a packed record: packed records start with a tag. */
function isJsonText(body: string): boolean {
  return body.charCodeAt(0) === 0x7b;
}

/**
 * Records packing cannot keep (they hold something that is not plain data), so that they are not tried again
 * each time they go cold. Rare, so a table beside the entries costs less than a field in each.
 */
const unpackable = new WeakSet<StoredRecord>();

/**
 * The entry of a record with index keys. One key, the usual case, is held as two strings rather than an object
 * of its own; several are held as one frozen object in `index`.
 *
 * @internal
 */
export class KeyedEntry extends Entry {
  /** `index` and `key` as {@link Entry.of} builds them. */
  constructor(
    id: string,
    record: StoredRecord | string,
    scope: string,
    private readonly index: string | Readonly<Record<string, string>>,
    private readonly key: string | undefined,
  ) {
    super(id, record, scope);
  }

  override get keys(): Readonly<Record<string, string>> {
    const index = this.index;
    if (typeof index !== "string") return index;
    return Object.freeze({ [index]: this.key as string });
  }

  override forEachKey(visit: (index: string, key: string) => void): void {
    const index = this.index;
    if (typeof index === "string") visit(index, this.key as string);
    else for (const name of Object.keys(index)) visit(name, index[name] as string);
  }

  protected override seeds(): string[] {
    const seeds = [this.id, this.scope];
    this.forEachKey((_index, key) => seeds.push(key));
    return seeds;
  }
}

/** A record held as JSON text that does not parse: damaged store files, found when the record is first read. */
function storedRecordCorrupt(id: string, why: string): CustodyError {
  return new CustodyError(
    "INTERNAL",
    `stored record ${id} is corrupt (${why}); restore the store's directory from a backup`,
    { reason: "STORE_CORRUPT", id },
  );
}

/** How many recently written or read records a state holds as objects by default; older ones are held packed. */
export const DEFAULT_WARM_RECORDS = 4096;

/**
 * The `warmRecords` option checked: a whole number of at least 0, or `Infinity`.
 *
 * @internal
 */
export function warmRecordsOption(value: number | undefined): number {
  if (value === undefined) return DEFAULT_WARM_RECORDS;
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 0)) return value;
  throw invalidArgument("warmRecords must be a whole number of at least 0, or Infinity", "warmRecords");
}

/**
 * The net effect of a transaction on one record: its new entry, or `null` for a delete. A change set holds
 * at most one change per record, so its changes can be applied in any order.
 *
 * @internal
 */
export interface Change {
  readonly collection: string;
  readonly id: string;
  readonly entry: Entry | null;
}

/**
 * Committed records with their unique index and scope lists. Index entries and scope lists are derived
 * from the records by {@link CommittedState.apply}, the one write path for commits and for replay.
 *
 * @internal
 */
export class CommittedState {
  private readonly records = new Map<string, Map<string, Entry>>();
  private readonly index = new Map<string, Map<string, string>>();
  /**
   * collection → scope → ids, sorted (except during a bulk load, see `unsorted`). Nested rather than keyed by a
   * joined string: no key to build per read. A scope of one record (an activity's evaluations, often) holds its id
   * alone, without an array around it.
   */
  private readonly scopes = new Map<string, Map<string, string | string[]>>();
  /**
   * While loading a store from its files (see {@link beginBulkLoad}): the scope lists that got an id out of order
   * and are sorted at the end. Records come in file order, which is not id order, and inserting each id in its
   * place moves the rest of a list that can hold a few hundred thousand ids.
   */
  private unsorted: Set<string[]> | undefined;
  /** Entries written or read most recently, oldest first from `warmHead`; beyond `warmRecords` they are packed. */
  private warmEntries: Entry[] = [];
  private warmHead = 0;

  /** `warmRecords`: how many recent records stay held as objects (see {@link DEFAULT_WARM_RECORDS}). */
  constructor(private warmRecords = DEFAULT_WARM_RECORDS) {}

  /**
   * Changes how many recent records stay objects from now on. Records applied while the limit was `Infinity` are
   * not tracked: {@link coolInBackground} packs them.
   */
  setWarmRecords(warmRecords: number): void {
    this.warmRecords = warmRecords;
  }

  /** Every entry the state holds. */
  entries(): Entry[] {
    const out: Entry[] = [];
    for (const entries of this.records.values()) for (const entry of entries.values()) out.push(entry);
    return out;
  }

  entry(collection: string, id: string): Entry | undefined {
    return this.records.get(collection)?.get(id);
  }

  /** The record `id` of `collection`, held as an object for a while since it is being read. */
  read(collection: string, id: string): StoredRecord | undefined {
    const entry = this.records.get(collection)?.get(id);
    if (entry === undefined) return undefined;
    return this.readEntry(entry);
  }

  /** `entry`'s record, held as an object for a while since it is being read. */
  readEntry(entry: Entry): StoredRecord {
    if (entry.warm) return entry.record;
    const record = entry.warmUp();
    this.keepWarm(entry);
    return record;
  }

  private keepWarm(entry: Entry): void {
    if (this.warmRecords === Number.POSITIVE_INFINITY) return;
    this.warmEntries.push(entry);
    if (this.warmEntries.length - this.warmHead <= this.warmRecords) return;
    const entries = this.warmEntries;
    while (entries.length - this.warmHead > this.warmRecords) {
      (entries[this.warmHead] as Entry).coolDown();
      entries[this.warmHead++] = undefined as unknown as Entry;
    }
    // The consumed front is dropped now and then, so the list stays proportional to what it holds.
    if (this.warmHead > 1024 && this.warmHead * 2 > entries.length) {
      this.warmEntries = entries.slice(this.warmHead);
      this.warmHead = 0;
    }
  }

  lookup(index: string, key: string): string | undefined {
    return this.index.get(index)?.get(key);
  }

  scopeIds(collection: string, scope: string): readonly string[] {
    const ids = nestedGet(this.scopes, collection, scope);
    if (ids === undefined) return [];
    return typeof ids === "string" ? [ids] : ids;
  }

  /** Applies a change set. Old index keys are dropped only while they still name the record, which makes the order of changes irrelevant. */
  apply(changes: Iterable<Change>): void {
    for (const { collection, id, entry } of changes) {
      const previous = this.entry(collection, id);
      previous?.forEachKey((index, key) => {
        const keys = this.index.get(index);
        if (keys?.get(key) === id) keys.delete(key);
      });
      if (entry === null) {
        if (!previous) continue;
        this.records.get(collection)?.delete(id);
        const ids = nestedGet(this.scopes, collection, previous.scope);
        if (typeof ids !== "string") {
          if (ids) {
            if (this.unsorted?.delete(ids)) ids.sort();
            removeSorted(ids, id);
          }
        } else if (ids === id) this.scopes.get(collection)?.delete(previous.scope);
        continue;
      }
      nestedSet(this.records, collection, id, entry);
      entry.forEachKey((index, key) => nestedSet(this.index, index, key, id));
      if (!previous) {
        const ids = nestedGet(this.scopes, collection, entry.scope);
        // A second id makes a list, a literal of two: an empty one's first push reserves room for 17 ids, and
        // many scopes hold two or three records.
        if (ids === undefined) nestedSet(this.scopes, collection, entry.scope, id);
        else if (typeof ids !== "string") {
          const unsorted = this.unsorted;
          if (unsorted === undefined) insertSorted(ids, id);
          else {
            // A new record's id is in no list yet, so appending keeps the list free of duplicates.
            if ((ids[ids.length - 1] as string) > id) unsorted.add(ids);
            ids.push(id);
          }
        } else if (ids !== id) nestedSet(this.scopes, collection, entry.scope, ids < id ? [ids, id] : [id, ids]);
      }
      if (entry.warm) this.keepWarm(entry);
    }
  }

  /** An independent state holding the same (shared, immutable) entries. */
  clone(): CommittedState {
    const copyState = new CommittedState(this.warmRecords);
    for (const [collection, entries] of this.records) copyState.records.set(collection, new Map(entries));
    for (const [index, keys] of this.index) copyState.index.set(index, new Map(keys));
    for (const [collection, scopes] of this.scopes) {
      copyState.scopes.set(
        collection,
        new Map([...scopes].map(([scope, ids]) => [scope, typeof ids === "string" ? ids : [...ids]])),
      );
    }
    return copyState;
  }

  /**
   * Starts loading records in any order: until {@link endBulkLoad}, a new id goes to the end of its scope's list
   * and the list is sorted later (or at its next removal). Lists are not in order meanwhile, so nothing may read
   * them.
   */
  beginBulkLoad(): void {
    this.unsorted = new Set();
  }

  /** Sorts the scope lists that got ids out of order, and returns to keeping each list sorted as it changes. */
  endBulkLoad(): void {
    for (const ids of this.unsorted ?? []) ids.sort();
    this.unsorted = undefined;
  }
}

/**
 * The one copy a record gets: taken when it is written, then frozen all the way down. Committed records are
 * immutable by construction, so every read hands out the stored object itself: copying on every read and write
 * would be a large share of an activity's work. A caller changes a record by putting a new one.
 *
 * The copy shares what needs no copying, which is most of a record's heap:
 * strings are immutable, so every record naming an organization, a wallet or an account id points at one
 * string instead of a copy each (`structuredClone` copied every string), and a value branded as frozen all the
 * way down (see `common/deep-frozen.ts`) is shared whole: one of our copies (the votes of an activity put again with a
 * new status), or the policy module's shared evaluation records and lists, never copied at all. The engine
 * hands its records over as built and relies on this one copy. What is not a plain object or array (records
 * are JSON, but the contract does not enforce it here), and anything nested deeper than {@link MAX_WALK_DEPTH}
 * (a cycle), goes to `structuredClone`.
 */
function frozenCopy<T>(value: T): T {
  return copyFrozen(value, 0) as T;
}

const MAX_WALK_DEPTH = 64;

function copyFrozen(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return internConstant(value);
  // Our own copies, and the policy module's shared values, are branded: frozen all the way down, so shared.
  if (isDeepFrozen(value)) return value;
  let copy: Record<string, unknown> | unknown[];
  if (depth >= MAX_WALK_DEPTH) {
    return deepFreezeBranded(structuredClone(value));
  } else if (Array.isArray(value)) {
    copy = value.map((item) => copyFrozen(item, depth + 1));
  } else {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return deepFreezeBranded(structuredClone(value));
    const source = value as Record<string, unknown>;
    copy = {};
    for (const key of Object.keys(source)) {
      const member = copyFrozen(source[key], depth + 1);
      // defineProperty, not assignment: a "__proto__" member (from a parsed body) stays plain data.
      if (key === "__proto__") Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true });
      else copy[key] = member;
    }
  }
  return freezeBranded(copy);
}

/**
 * Enumeration values (`CURVE_SECP256K1`, `ACTIVITY_STATUS_COMPLETED`, ...) recur in every record, each a
 * separate string when it came out of a parsed request; one shared instance each saves some 40 bytes per
 * member. The table is bounded, so values a client invents cannot grow it without limit.
 */
const constants = new Map<string, string>();
const MAX_CONSTANTS = 4096;
const CONSTANT = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;

function internConstant<T>(value: T): T {
  if (typeof value !== "string" || value.length > 64) return value;
  // Most strings of a record are ids, addresses and names: only one starting with a capital letter can be a
  // constant, which spares the others the table and the pattern.
  const first = value.charCodeAt(0);
  if (first < 65 || first > 90) return value;
  const known = constants.get(value);
  if (known !== undefined) return known as T;
  if (constants.size < MAX_CONSTANTS && CONSTANT.test(value)) constants.set(value, value);
  return value;
}

function nestedGet<V>(map: Map<string, Map<string, V>>, outer: string, inner: string): V | undefined {
  return map.get(outer)?.get(inner);
}

function nestedSet<V>(map: Map<string, Map<string, V>>, outer: string, inner: string, value: V): void {
  let innerMap = map.get(outer);
  if (!innerMap) {
    innerMap = new Map();
    map.set(outer, innerMap);
  }
  innerMap.set(inner, value);
}

/**
 * A reader over committed state. The records it returns are frozen: they are the stored ones.
 *
 * @internal
 */
export function stateReader(state: CommittedState): StoreReader {
  return {
    get: async (collection, id) => state.read(collection, id),
    lookup: async (index, key) => state.lookup(index, key),
    list: async (collection, scope, options = {}) =>
      walkMerged(state.scopeIds(collection, scope), [], () => false, options).map(
        (id) => state.read(collection, id) as StoredRecord,
      ),
  };
}

/** How many records {@link coolInBackground} packs before it gives the event loop back. */
const COOLING_SLICE = 512;

/**
 * Packs `entries` a slice at a time between other work, until done or until `stopped()` says so. A store
 * reopened from its files builds its state with every record an object (packing on the way would slow the open
 * down several times) and packs it afterwards with this.
 *
 * @internal
 */
export async function coolInBackground(entries: readonly Entry[], stopped: () => boolean): Promise<void> {
  for (let at = 0; at < entries.length && !stopped(); at += COOLING_SLICE) {
    const end = Math.min(entries.length, at + COOLING_SLICE);
    for (let i = at; i < end; i++) (entries[i] as Entry).coolDown();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * Writes of one open transaction over a committed state. {@link Overlay.changes} gives the net change set.
 *
 * @internal
 */
export class Overlay implements StoreTransaction {
  /** collection → id → entry, or null for a delete. */
  private readonly writes = new Map<string, Map<string, Entry | null>>();
  /** index → key → id, or null for a dropped key. */
  private readonly indexWrites = new Map<string, Map<string, string | null>>();
  /** collection → scope → ids new to that scope, sorted. */
  private readonly added = new Map<string, Map<string, string[]>>();
  /** collection → scope → committed ids deleted from that scope. */
  private readonly removed = new Map<string, Map<string, Set<string>>>();
  private open = true;

  /** `owner` names the store in error messages. */
  constructor(
    private readonly state: CommittedState,
    private readonly owner: string,
  ) {}

  private entry(collection: string, id: string): Entry | undefined {
    const written = nestedGet(this.writes, collection, id);
    if (written !== undefined) return written ?? undefined;
    return this.state.entry(collection, id);
  }

  private assertOpen(): void {
    if (!this.open) {
      throw new CustodyError("FAILED_PRECONDITION", `${this.owner}: the transaction has already finished`, {
        reason: "TRANSACTION_FINISHED",
      });
    }
  }

  async get(collection: string, id: string): Promise<StoredRecord | undefined> {
    this.assertOpen();
    return this.record(collection, id);
  }

  private record(collection: string, id: string): StoredRecord | undefined {
    const written = nestedGet(this.writes, collection, id);
    if (written !== undefined) return written?.record;
    return this.state.read(collection, id);
  }

  async lookup(index: string, key: string): Promise<string | undefined> {
    this.assertOpen();
    const written = nestedGet(this.indexWrites, index, key);
    if (written !== undefined) return written ?? undefined;
    return this.state.lookup(index, key);
  }

  async list(collection: string, scope: string, options: ListOptions = {}): Promise<StoredRecord[]> {
    this.assertOpen();
    const removed = nestedGet(this.removed, collection, scope);
    const ids = walkMerged(
      this.state.scopeIds(collection, scope),
      nestedGet(this.added, collection, scope) ?? [],
      (id) => removed?.has(id) ?? false,
      options,
    );
    return ids.map((id) => this.record(collection, id) as StoredRecord);
  }

  async put(collection: string, record: StoredRecord, placement: Placement): Promise<void> {
    this.assertOpen();
    assertStorable(this.owner, collection, record, placement);
    // The committed entry counts too: deleting a record and putting it back in this transaction must not
    // move it between scopes, which the committed scope lists could not follow. Each map is asked once: the
    // committed collection can be large, and every put looked the id up there twice.
    const written = nestedGet(this.writes, collection, record.id);
    const committed = this.state.entry(collection, record.id);
    const previous = written === undefined ? committed : (written ?? undefined);
    const settled = previous ?? committed;
    if (settled && settled.scope !== placement.scope) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `${this.owner}: record ${collection}/${record.id} cannot move from scope ${settled.scope} to ${placement.scope}`,
        { field: "placement.scope", collection, id: record.id },
      );
    }
    for (const [index, key] of Object.entries(placement.keys ?? {})) {
      const holder = await this.lookup(index, key);
      if (holder !== undefined && holder !== record.id) throw new UniqueKeyViolation(index, key, holder);
    }
    if (previous) this.dropKeys(previous);
    else this.addToScope(collection, placement.scope, record.id);
    for (const [index, key] of Object.entries(placement.keys ?? {})) nestedSet(this.indexWrites, index, key, record.id);
    nestedSet(this.writes, collection, record.id, Entry.of(record.id, frozenCopy(record), placement));
  }

  async delete(collection: string, id: string): Promise<void> {
    this.assertOpen();
    const previous = this.entry(collection, id);
    if (!previous) return;
    this.dropKeys(previous);
    const { scope } = previous;
    const added = nestedGet(this.added, collection, scope);
    // A record created and deleted inside this transaction never reaches the committed scope list.
    if (!(added && removeSorted(added, id))) {
      let removed = nestedGet(this.removed, collection, scope);
      if (!removed) {
        removed = new Set();
        nestedSet(this.removed, collection, scope, removed);
      }
      removed.add(id);
    }
    nestedSet(this.writes, collection, id, null);
  }

  private dropKeys(entry: Entry): void {
    entry.forEachKey((index, key) => nestedSet(this.indexWrites, index, key, null));
  }

  private addToScope(collection: string, scope: string, id: string): void {
    const removed = nestedGet(this.removed, collection, scope);
    if (removed?.delete(id)) return; // deleted and re-created in this transaction: still in the committed list
    let added = nestedGet(this.added, collection, scope);
    if (!added) {
      added = [];
      nestedSet(this.added, collection, scope, added);
    }
    insertSorted(added, id);
  }

  /** Closes the transaction: later calls on it throw. */
  finish(): void {
    this.open = false;
  }

  /** The net change set; deletes of records that were never committed are left out. */
  changes(): Change[] {
    const out: Change[] = [];
    for (const [collection, entries] of this.writes) {
      for (const [id, entry] of entries) {
        if (entry === null && !this.state.entry(collection, id)) continue;
        out.push({ collection, id, entry });
      }
    }
    return out;
  }
}

/**
 * Counts open `read` callbacks so a commit can be applied between them, never under one. Writers come
 * first: once a commit waits, new readers wait behind it, so a steady stream of overlapping reads cannot
 * starve commits (the readers already inside finish, the commit applies, then the waiting readers enter).
 *
 * @internal
 */
export class ReaderGate {
  private active = 0;
  private waitingWriters = 0;
  private idle: (() => void)[] = [];
  private writersDone: (() => void)[] = [];

  /** Enters a read, after any commit that is already waiting. */
  async enter(): Promise<void> {
    while (this.waitingWriters > 0) await new Promise<void>((resolve) => this.writersDone.push(resolve));
    this.active++;
  }

  leave(): void {
    this.active--;
    if (this.active === 0) for (const wake of this.idle.splice(0)) wake();
  }

  /**
   * Runs `apply` once no reader is open. The check and `apply` share one synchronous step, so no reader can
   * slip in between.
   */
  async whenIdle(apply: () => void): Promise<void> {
    this.waitingWriters++;
    try {
      while (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
      apply();
    } finally {
      this.waitingWriters--;
      if (this.waitingWriters === 0) for (const wake of this.writersDone.splice(0)) wake();
    }
  }
}

/**
 * The committed state of a {@link MemoryStore} at one moment, from {@link MemoryStore.snapshot}. Opaque: it
 * can only be handed back to {@link MemoryStore.restore}.
 */
export class MemoryStoreSnapshot {
  declare private readonly brand: never;
}

/** The state each snapshot holds, out of reach of anything but {@link MemoryStore}. */
const snapshotStates = new WeakMap<MemoryStoreSnapshot, CommittedState>();

/** Options of a {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * How many of the records written or read most recently are held as objects (default 4096). Older ones are
   * held packed, a few hundred bytes each instead of a few kilobytes, and decoded again when read; reads give
   * back equal records either way. `Infinity` holds every record as an object.
   */
  warmRecords?: number;
}

/** An in-memory {@link Store}. Data lives as long as the object. */
export class MemoryStore implements Store {
  private state: CommittedState;
  private readonly readers = new ReaderGate();
  private readonly leases = new ProcessLeases();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** An empty store; `options.warmRecords` trades heap for decoding (see {@link MemoryStoreOptions}). */
  constructor(options: MemoryStoreOptions = {}) {
    this.state = new CommittedState(warmRecordsOption(options.warmRecords));
  }

  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    this.assertOpen();
    const run = async (): Promise<T> => {
      const overlay = new Overlay(this.state, "MemoryStore");
      let result: T;
      try {
        result = await work(overlay);
      } finally {
        overlay.finish();
      }
      const changes = overlay.changes();
      await this.readers.whenIdle(() => this.state.apply(changes));
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    await this.readers.enter();
    try {
      return await work(stateReader(this.state));
    } finally {
      this.readers.leave();
    }
  }

  /** Leases committed records; leases live in this object, like the data (see `Store.claim`). */
  async claim(collection: string, scope: string, options: ClaimOptions): Promise<StoredRecord[]> {
    this.assertOpen();
    return this.leases.claim(this.state, collection, scope, options);
  }

  async release(collection: string, ids: readonly string[], owner: string): Promise<void> {
    this.assertOpen();
    this.leases.release(this.state, collection, ids, owner);
  }

  /**
   * The committed state as it is once the writes queued before this call have committed. Cheap: records
   * are immutable once committed, so the snapshot shares them.
   */
  async snapshot(): Promise<MemoryStoreSnapshot> {
    return this.transaction(async () => {
      const snapshot = new MemoryStoreSnapshot();
      snapshotStates.set(snapshot, this.state.clone());
      return snapshot;
    });
  }

  /**
   * Puts back the state of an earlier {@link MemoryStore.snapshot}, after the writes queued before this call
   * (and while no reader is open), so a test suite can rewind to a fixture between tests. The snapshot stays
   * usable for further restores.
   */
  async restore(snapshot: MemoryStoreSnapshot): Promise<void> {
    this.assertOpen();
    const state = snapshotStates.get(snapshot);
    if (!state) throw invalidArgument("not a snapshot of a MemoryStore", "snapshot");
    const run = () => this.readers.whenIdle(() => (this.state = state.clone()));
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    await next;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new CustodyError("FAILED_PRECONDITION", "MemoryStore: the store is closed", { reason: "STORE_CLOSED" });
    }
  }
}
