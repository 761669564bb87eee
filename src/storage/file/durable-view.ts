/**
 * The durable view of a `FileStore`: what its readers and leases see, the commits whose journal flush is on disk.
 *
 * The store holds one full committed state, the *head*, which takes each commit as soon as its transaction
 * finishes, so the next writer sees it while the flush is still in flight (group commit). A second full state for
 * the durable commits would hold every map table (records, index keys, scope lists) twice; instead this module
 * keeps an *undo layer*: for each record and index key that a commit still in flight changed, the value the
 * durable view shows and the value each in-flight commit left, oldest first; for each scope, the ids in-flight
 * commits created (hidden from durable lists) and deleted (still listed, kept sorted). The layer holds only what
 * the commits of one or two flushes touched, and a reader consults it after the head.
 *
 * {@link DurableView.apply} changes the head and records the layer in one synchronous step, so the view never
 * shows an in-flight commit; {@link DurableView.settle} drops the oldest commit's part of the layer once it is
 * durable, which is when the view shows it. A commit that never becomes durable (its flush failed) is never
 * settled: the view keeps showing what was durable before it, whatever the head holds.
 *
 * @module
 */
import type { LeasableState } from "../leases.js";
import type { Change, CommittedState, Entry } from "../memory.js";
import { insertSorted, removeSorted, walkMerged } from "../sorted.js";
import type { ListOptions, StoredRecord, StoreReader } from "../store.js";

/** One record or index key changed by in-flight commits. */
interface Slot<V> {
  /** What the durable view shows. */
  durable: V | undefined;
  /** What each in-flight commit that changed it left, oldest first; the last one is what the head holds. */
  readonly pending: (V | undefined)[];
}

interface RecordSlot extends Slot<Entry> {
  readonly collection: string;
  readonly id: string;
}

interface KeySlot extends Slot<string> {
  readonly index: string;
  readonly key: string;
}

/** The part of the layer one in-flight commit owns: the slots it pushed a value onto. */
interface PendingCommit {
  readonly sequence: number;
  readonly records: RecordSlot[];
  readonly keys: KeySlot[];
}

/**
 * A committed state (the head) with the changes of its in-flight commits undone for reading.
 *
 * @internal
 */
export class DurableView implements LeasableState {
  /** collection → id → slot. */
  private readonly records = new Map<string, Map<string, RecordSlot>>();
  /** index → key → slot. */
  private readonly keys = new Map<string, Map<string, KeySlot>>();
  /** collection → scope → ids the head lists and the durable view does not. */
  private readonly created = new Map<string, Map<string, Set<string>>>();
  /** collection → scope → ids the durable view lists and the head does not, sorted. */
  private readonly deleted = new Map<string, Map<string, string[]>>();
  /** In-flight commits, oldest first: commits become durable in the order they were applied. */
  private readonly inFlight: PendingCommit[] = [];

  constructor(
    /** The head state: every commit applied so far, durable or not. */
    readonly head: CommittedState,
  ) {}

  /**
   * Applies commit `sequence` to the head and records what the view must go on showing until it is settled.
   * Sequences must increase from one call to the next.
   */
  apply(sequence: number, changes: readonly Change[]): void {
    const last = this.inFlight[this.inFlight.length - 1];
    if (last !== undefined && last.sequence >= sequence) {
      throw new Error(`DurableView: commit ${sequence} applied after commit ${last.sequence}`);
    }
    const head = this.head;
    const commit: PendingCommit = { sequence, records: [], keys: [] };
    // Slots are made before the head changes: a slot made now starts from the durable value, which is the head's
    // while no in-flight commit has touched that record or key. A key may be touched twice in one commit (moved
    // from one of its records to another), so its key slots are collected once each and get the value the head
    // holds once the whole commit is applied.
    const touched = new Set<KeySlot>();
    const touch = (index: string, key: string) => {
      touched.add(this.keySlot(index, key) ?? this.newKeySlot(index, key, head.lookup(index, key)));
    };
    for (const { collection, id, entry } of changes) {
      head.entry(collection, id)?.forEachKey(touch);
      entry?.forEachKey(touch);
      let slot = nestedGet(this.records, collection, id);
      if (slot === undefined) {
        slot = { collection, id, durable: head.entry(collection, id), pending: [] };
        nestedSet(this.records, collection, id, slot);
      }
      const before = headValue(slot);
      slot.pending.push(entry ?? undefined);
      this.updateScopes(collection, id, slot.durable, before, slot.durable, entry ?? undefined);
      commit.records.push(slot);
    }
    head.apply(changes);
    for (const slot of touched) {
      slot.pending.push(head.lookup(slot.index, slot.key));
      commit.keys.push(slot);
    }
    this.inFlight.push(commit);
  }

  /** Commit `sequence`, the oldest in flight, is durable: the view shows it from now on. */
  settle(sequence: number): void {
    const commit = this.inFlight[0];
    if (commit?.sequence !== sequence) {
      throw new Error(`DurableView: commit ${sequence} settled, but the oldest in flight is ${commit?.sequence}`);
    }
    this.inFlight.shift();
    for (const slot of commit.records) {
      const head = headValue(slot);
      const durable = slot.pending.shift();
      this.updateScopes(slot.collection, slot.id, slot.durable, head, durable, head);
      slot.durable = durable;
      if (slot.pending.length === 0) nestedDelete(this.records, slot.collection, slot.id);
    }
    for (const slot of commit.keys) {
      slot.durable = slot.pending.shift();
      if (slot.pending.length === 0) nestedDelete(this.keys, slot.index, slot.key);
    }
  }

  /** The durable entry of a record. */
  entry(collection: string, id: string): Entry | undefined {
    const slot = nestedGet(this.records, collection, id);
    return slot === undefined ? this.head.entry(collection, id) : slot.durable;
  }

  /** The durable record, read through the head so that it is held as an object for a while. */
  read(collection: string, id: string): StoredRecord | undefined {
    const slot = nestedGet(this.records, collection, id);
    if (slot === undefined) return this.head.read(collection, id);
    return slot.durable === undefined ? undefined : this.head.readEntry(slot.durable);
  }

  lookup(index: string, key: string): string | undefined {
    const slot = nestedGet(this.keys, index, key);
    return slot === undefined ? this.head.lookup(index, key) : slot.durable;
  }

  /** The durable ids of a scope, in order; lazily merged, so a claim that stops early walks no further. */
  scopeIds(collection: string, scope: string): Iterable<string> {
    const base = this.head.scopeIds(collection, scope);
    const created = nestedGet(this.created, collection, scope);
    const deleted = nestedGet(this.deleted, collection, scope);
    if (created === undefined && deleted === undefined) return base;
    return mergedIds(base, deleted ?? [], created);
  }

  /** One page of a scope's durable ids (see `StoreReader.list`). */
  listIds(collection: string, scope: string, options: ListOptions): string[] {
    const created = nestedGet(this.created, collection, scope);
    return walkMerged(
      this.head.scopeIds(collection, scope),
      nestedGet(this.deleted, collection, scope) ?? [],
      (id) => created?.has(id) ?? false,
      options,
    );
  }

  /**
   * A reader of the durable view, one for every read (it holds nothing of its own). Each call answers in one
   * synchronous step, so it never sees half a settle.
   */
  readonly reader: StoreReader = Object.freeze<StoreReader>({
    get: async (collection, id) => this.read(collection, id),
    lookup: async (index, key) => this.lookup(index, key),
    list: async (collection, scope, options = {}) =>
      this.listIds(collection, scope, options).map((id) => this.read(collection, id) as StoredRecord),
  });

  private keySlot(index: string, key: string): KeySlot | undefined {
    return nestedGet(this.keys, index, key);
  }

  private newKeySlot(index: string, key: string, durable: string | undefined): KeySlot {
    const slot: KeySlot = { index, key, durable, pending: [] };
    nestedSet(this.keys, index, key, slot);
    return slot;
  }

  /**
   * Moves record `id` between the scope sets as its (durable, head) pair of entries goes from `from` to `to`. The
   * pair places the id: listed by the head only (created in flight), by the durable view only (deleted in flight),
   * or by both or neither (nothing to record). A record keeps its scope while it exists, but one deleted and put
   * again by a later commit may come back in another.
   */
  private updateScopes(
    collection: string,
    id: string,
    fromDurable: Entry | undefined,
    fromHead: Entry | undefined,
    toDurable: Entry | undefined,
    toHead: Entry | undefined,
  ): void {
    const wasCreated = createdScope(fromDurable?.scope, fromHead?.scope);
    const wasDeleted = createdScope(fromHead?.scope, fromDurable?.scope);
    const isCreated = createdScope(toDurable?.scope, toHead?.scope);
    const isDeleted = createdScope(toHead?.scope, toDurable?.scope);
    if (wasCreated !== isCreated) {
      if (wasCreated !== undefined) this.unmarkCreated(collection, wasCreated, id);
      if (isCreated !== undefined) nestedSetDefault(this.created, collection, isCreated, () => new Set()).add(id);
    }
    if (wasDeleted !== isDeleted) {
      if (wasDeleted !== undefined) this.unmarkDeleted(collection, wasDeleted, id);
      if (isDeleted !== undefined)
        insertSorted(
          nestedSetDefault(this.deleted, collection, isDeleted, () => []),
          id,
        );
    }
  }

  private unmarkCreated(collection: string, scope: string, id: string): void {
    const ids = nestedGet(this.created, collection, scope);
    ids?.delete(id);
    if (ids?.size === 0) nestedDelete(this.created, collection, scope);
  }

  private unmarkDeleted(collection: string, scope: string, id: string): void {
    const ids = nestedGet(this.deleted, collection, scope);
    if (ids === undefined) return;
    removeSorted(ids, id);
    if (ids.length === 0) nestedDelete(this.deleted, collection, scope);
  }
}

/** The entry the head holds for a slot's record: the last in-flight commit's, or the durable one when none. */
function headValue(slot: RecordSlot): Entry | undefined {
  const pending = slot.pending;
  return pending.length === 0 ? slot.durable : pending[pending.length - 1];
}

/** The scope listing the record in `to` and not in `from` (each a scope, or undefined for no record). */
function createdScope(from: string | undefined, to: string | undefined): string | undefined {
  return to !== undefined && to !== from ? to : undefined;
}

/** `base` without the ids of `hidden`, with `extra` merged in; both lists sorted and disjoint. */
function* mergedIds(
  base: readonly string[],
  extra: readonly string[],
  hidden: ReadonlySet<string> | undefined,
): Generator<string> {
  let i = 0;
  let j = 0;
  while (i < base.length || j < extra.length) {
    if (j >= extra.length || (i < base.length && (base[i] as string) < (extra[j] as string))) {
      const id = base[i++] as string;
      if (!hidden?.has(id)) yield id;
    } else {
      yield extra[j++] as string;
    }
  }
}

function nestedGet<V>(map: Map<string, Map<string, V>>, outer: string, inner: string): V | undefined {
  return map.get(outer)?.get(inner);
}

function nestedSet<V>(map: Map<string, Map<string, V>>, outer: string, inner: string, value: V): void {
  let innerMap = map.get(outer);
  if (innerMap === undefined) {
    innerMap = new Map();
    map.set(outer, innerMap);
  }
  innerMap.set(inner, value);
}

function nestedSetDefault<V>(map: Map<string, Map<string, V>>, outer: string, inner: string, make: () => V): V {
  const known = nestedGet(map, outer, inner);
  if (known !== undefined) return known;
  const value = make();
  nestedSet(map, outer, inner, value);
  return value;
}

/** Deletes an inner key, and the outer one once its map is empty, so a settled layer holds nothing. */
function nestedDelete<V>(map: Map<string, Map<string, V>>, outer: string, inner: string): void {
  const innerMap = map.get(outer);
  if (innerMap === undefined) return;
  innerMap.delete(inner);
  if (innerMap.size === 0) map.delete(outer);
}
