/**
 * The in-memory store: the default for tests and for hosts that keep nothing across restarts.
 *
 * Writers run one at a time (a transaction queue) and write into a private overlay that is applied to the
 * committed maps in one synchronous step, so a throwing transaction leaves nothing behind and nobody sees
 * half a commit. Readers see committed data; a commit waits for open readers so that each `read` callback
 * works on one consistent view.
 *
 * @module
 */

import { insertSorted, removeSorted, walkMerged } from "./sorted.js";
import {
  type ListOptions,
  type Placement,
  type Store,
  type StoredRecord,
  type StoreReader,
  type StoreTransaction,
  UniqueKeyViolation,
} from "./store.js";

interface Entry {
  record: StoredRecord;
  placement: Placement;
}

/** The committed state. Records are kept as private copies; callers always get their own copy. */
class CommittedState {
  readonly records = new Map<string, Map<string, Entry>>();
  readonly index = new Map<string, Map<string, string>>();
  readonly scopes = new Map<string, string[]>();

  entry(collection: string, id: string): Entry | undefined {
    return this.records.get(collection)?.get(id);
  }

  scopeIds(collection: string, scope: string): readonly string[] {
    return this.scopes.get(scopeKey(collection, scope)) ?? [];
  }
}

function scopeKey(collection: string, scope: string): string {
  return `${collection}\u0000${scope}`;
}

function copy<T>(value: T): T {
  return structuredClone(value);
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

function listCommitted(state: CommittedState, collection: string, scope: string, options: ListOptions): StoredRecord[] {
  const ids = walkMerged(state.scopeIds(collection, scope), [], () => false, options);
  return ids.map((id) => copy((state.entry(collection, id) as Entry).record));
}

/** Writes of one open transaction, applied to the committed state on commit. */
class Overlay implements StoreTransaction {
  /** collection → id → entry, or null for a delete. */
  private readonly writes = new Map<string, Map<string, Entry | null>>();
  /** index → key → id, or null for a dropped key. */
  private readonly indexWrites = new Map<string, Map<string, string | null>>();
  /** scope key → ids new to that scope, sorted. */
  private readonly added = new Map<string, string[]>();
  /** scope key → committed ids deleted from that scope. */
  private readonly removed = new Map<string, Set<string>>();
  private open = true;

  constructor(private readonly state: CommittedState) {}

  private entry(collection: string, id: string): Entry | undefined {
    const written = nestedGet(this.writes, collection, id);
    if (written !== undefined) return written ?? undefined;
    return this.state.entry(collection, id);
  }

  private assertOpen(): void {
    if (!this.open) throw new Error("MemoryStore: the transaction has already finished");
  }

  async get(collection: string, id: string): Promise<StoredRecord | undefined> {
    this.assertOpen();
    const entry = this.entry(collection, id);
    return entry ? copy(entry.record) : undefined;
  }

  async lookup(index: string, key: string): Promise<string | undefined> {
    this.assertOpen();
    const written = nestedGet(this.indexWrites, index, key);
    if (written !== undefined) return written ?? undefined;
    return nestedGet(this.state.index, index, key);
  }

  async list(collection: string, scope: string, options: ListOptions = {}): Promise<StoredRecord[]> {
    this.assertOpen();
    const key = scopeKey(collection, scope);
    const removed = this.removed.get(key);
    const ids = walkMerged(
      this.state.scopeIds(collection, scope),
      this.added.get(key) ?? [],
      (id) => removed?.has(id) ?? false,
      options,
    );
    return ids.map((id) => copy((this.entry(collection, id) as Entry).record));
  }

  async put(collection: string, record: StoredRecord, placement: Placement): Promise<void> {
    this.assertOpen();
    const previous = this.entry(collection, record.id);
    if (previous && previous.placement.scope !== placement.scope) {
      throw new Error(`MemoryStore: record ${collection}/${record.id} cannot move between scopes`);
    }
    for (const [index, key] of Object.entries(placement.keys ?? {})) {
      const holder = await this.lookup(index, key);
      if (holder !== undefined && holder !== record.id) throw new UniqueKeyViolation(index, key, holder);
    }
    if (previous) this.dropKeys(previous);
    else this.addToScope(collection, placement.scope, record.id);
    for (const [index, key] of Object.entries(placement.keys ?? {})) nestedSet(this.indexWrites, index, key, record.id);
    nestedSet(this.writes, collection, record.id, { record: copy(record), placement: copy(placement) });
  }

  async delete(collection: string, id: string): Promise<void> {
    this.assertOpen();
    const previous = this.entry(collection, id);
    if (!previous) return;
    this.dropKeys(previous);
    const key = scopeKey(collection, previous.placement.scope);
    const added = this.added.get(key);
    // A record created and deleted inside this transaction never reaches the committed scope list.
    if (!(added && removeSorted(added, id))) {
      let removed = this.removed.get(key);
      if (!removed) {
        removed = new Set();
        this.removed.set(key, removed);
      }
      removed.add(id);
    }
    nestedSet(this.writes, collection, id, null);
  }

  private dropKeys(entry: Entry): void {
    for (const [index, key] of Object.entries(entry.placement.keys ?? {}))
      nestedSet(this.indexWrites, index, key, null);
  }

  private addToScope(collection: string, scope: string, id: string): void {
    const key = scopeKey(collection, scope);
    const removed = this.removed.get(key);
    if (removed?.delete(id)) return; // deleted and re-created in this transaction: still in the committed list
    let added = this.added.get(key);
    if (!added) {
      added = [];
      this.added.set(key, added);
    }
    insertSorted(added, id);
  }

  /** Applies every write to the committed state in one synchronous step. */
  commit(): void {
    this.open = false;
    const { state } = this;
    for (const [index, keys] of this.indexWrites) {
      for (const [key, id] of keys) {
        if (id === null) state.index.get(index)?.delete(key);
        else nestedSet(state.index, index, key, id);
      }
    }
    for (const [collection, entries] of this.writes) {
      for (const [id, entry] of entries) {
        if (entry === null) state.records.get(collection)?.delete(id);
        else nestedSet(state.records, collection, id, entry);
      }
    }
    for (const [key, ids] of this.added) {
      let list = state.scopes.get(key);
      if (!list) {
        list = [];
        state.scopes.set(key, list);
      }
      for (const id of ids) insertSorted(list, id);
    }
    for (const [key, ids] of this.removed) {
      const list = state.scopes.get(key);
      if (list) for (const id of ids) removeSorted(list, id);
    }
  }

  discard(): void {
    this.open = false;
  }
}

/** An in-memory {@link Store}. Data lives as long as the object. */
export class MemoryStore implements Store {
  private readonly state = new CommittedState();
  private queue: Promise<unknown> = Promise.resolve();
  private readers = 0;
  private readersDrained: (() => void) | undefined;
  private closed = false;

  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    this.assertOpen();
    const run = async (): Promise<T> => {
      const overlay = new Overlay(this.state);
      try {
        const result = await work(overlay);
        await this.waitForReaders();
        overlay.commit();
        return result;
      } catch (error) {
        overlay.discard();
        throw error;
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    this.readers++;
    try {
      const state = this.state;
      return await work({
        get: async (collection, id) => {
          const entry = state.entry(collection, id);
          return entry ? copy(entry.record) : undefined;
        },
        lookup: async (index, key) => nestedGet(state.index, index, key),
        list: async (collection, scope, options = {}) => listCommitted(state, collection, scope, options),
      });
    } finally {
      this.readers--;
      if (this.readers === 0) this.readersDrained?.();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("MemoryStore: the store is closed");
  }

  private async waitForReaders(): Promise<void> {
    while (this.readers > 0) {
      await new Promise<void>((resolve) => {
        this.readersDrained = resolve;
      });
    }
    this.readersDrained = undefined;
  }
}
