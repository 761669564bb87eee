/**
 * What a FileStore's readers and leases see while journal flushes are in flight: only durable commits. Each test
 * holds the journal's writes (a spy on `FileHandle.prototype.write` waits for the test before writing), so a
 * commit stays applied to the head but not durable for as long as the test needs.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileStore } from "../../src/storage/file/index.js";
import { MemoryStore } from "../../src/storage/memory.js";
import type { ListOptions, Store, StoredRecord, StoreReader, StoreTransaction } from "../../src/storage/store.js";
import { seededNumbers } from "../support/seeded.js";
import { tempDirectories } from "../support/temp-directories.js";

const tempDirectory = tempDirectories("durable-view");

const pad = (n: number) => `id-${String(n).padStart(6, "0")}`;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Write = (this: unknown, ...args: unknown[]) => Promise<unknown>;
let restoreWrites: (() => void) | undefined;

afterEach(() => {
  restoreWrites?.();
  restoreWrites = undefined;
});

/** Holds every file write from now on until `release()` lets the oldest one go (in this worker only). */
async function holdWrites(): Promise<{ waiting: () => number; release: () => Promise<void> }> {
  const probePath = join(await tempDirectory(), "probe");
  const probe = await open(probePath, "w");
  const prototype = Object.getPrototypeOf(probe) as { write: Write };
  await probe.close();
  const write = prototype.write;
  /** Each held write: `go` lets it start, `done` settles once it has completed. */
  const held: { go: () => void; done: Promise<unknown> }[] = [];
  const spy = vi.spyOn(prototype, "write").mockImplementation(function (this: unknown, ...args) {
    let go!: () => void;
    const started = new Promise<void>((resolve) => {
      go = resolve;
    });
    const done = started.then(() => write.apply(this, args));
    held.push({ go, done: done.catch(() => undefined) });
    return done;
  });
  restoreWrites = () => {
    for (const write of held.splice(0)) write.go();
    spy.mockRestore();
  };
  return {
    waiting: () => held.length,
    /** Lets the oldest held write go and waits until what it made durable shows (or the next write is held). */
    release: async () => {
      const write = held.shift();
      if (write === undefined) throw new Error("test setup: no write is held");
      write.go();
      await write.done;
      for (let n = 0; n < 20 && held.length === 0; n++) await turn();
      await turn();
    },
  };
}

/** Waits until a write is held: a flush is in flight. */
async function flushInFlight(writes: { waiting: () => number }): Promise<void> {
  for (let n = 0; n < 100 && writes.waiting() === 0; n++) await turn();
  expect(writes.waiting()).toBeGreaterThan(0);
}

/** A record of the tests: `v` says which commit wrote it; `key`, when it has one, is its `byKey` index key. */
interface Thing extends StoredRecord {
  v: number;
}

function putThing(tx: StoreTransaction, id: string, v: number, key?: string, scope = "s"): Promise<void> {
  const record: Thing = key === undefined ? { id, v } : { id, v, key };
  return tx.put("things", record, key === undefined ? { scope } : { scope, keys: { byKey: key } });
}

/** Cursor listings a reader must answer as the sorted `expected` ids filtered by the same options would. */
const LIST_OPTIONS = (ids: readonly string[]): ListOptions[] => {
  const cursors = [undefined, ...ids, pad(3), pad(99)];
  const out: ListOptions[] = [{}, { order: "desc" }, { limit: 2 }, { order: "desc", limit: 2 }, { limit: 0 }];
  for (const after of cursors) {
    for (const before of cursors) {
      out.push({
        ...(after === undefined ? {} : { after }),
        ...(before === undefined ? {} : { before }),
        order: "desc",
        limit: 3,
      });
      out.push({ ...(after === undefined ? {} : { after }), ...(before === undefined ? {} : { before }) });
    }
  }
  return out;
};

function expectedPage(ids: readonly string[], options: ListOptions): string[] {
  let page = [...ids]
    .sort()
    .filter(
      (id) =>
        (options.after === undefined || id > options.after) && (options.before === undefined || id < options.before),
    );
  if (options.order === "desc") page.reverse();
  if (options.limit !== undefined) page = page.slice(0, options.limit);
  return page;
}

/** The scope lists exactly `ids` under every listing option (values are checked by the caller). */
async function expectListed(reader: StoreReader, scope: string, ids: readonly string[]): Promise<void> {
  for (const options of LIST_OPTIONS(ids)) {
    const listed = (await reader.list("things", scope, options)).map((record) => record.id);
    expect(listed, JSON.stringify(options)).toEqual(expectedPage(ids, options));
  }
}

describe("FileStore: readers and leases see only durable commits", () => {
  it("hides a commit whose flush is in flight from get, lookup, list and claim, and shows it once it resolves", async () => {
    const store = await FileStore.open(await tempDirectory());
    await store.transaction(async (tx) => {
      for (const n of [0, 2, 4, 6, 8]) await putThing(tx, pad(n), 1, `k${n}`);
    });
    const writes = await holdWrites();
    const inFlight = store.transaction(async (tx) => {
      await putThing(tx, pad(5), 2, "k5"); // created in the middle of the scope
      await putThing(tx, pad(9), 2, "k9"); // created at its end
      await putThing(tx, pad(4), 2, "k4-new"); // updated, its key changed
      await putThing(tx, pad(6), 2, "k6"); // updated, same key
      await tx.delete("things", pad(2)); // deleted
      await tx.delete("things", pad(0)); // deleted, first of the scope
    });
    await flushInFlight(writes);

    const durableIds = [0, 2, 4, 6, 8].map(pad);
    const seeDurable = async (reader: StoreReader) => {
      await expectListed(reader, "s", durableIds);
      for (const n of [0, 2, 4, 6, 8]) {
        expect(await reader.get("things", pad(n))).toEqual({ id: pad(n), v: 1, key: `k${n}` });
        expect(await reader.lookup("byKey", `k${n}`)).toBe(pad(n));
      }
      for (const id of [pad(5), pad(9)]) expect(await reader.get("things", id)).toBeUndefined();
      for (const key of ["k5", "k9", "k4-new"]) expect(await reader.lookup("byKey", key)).toBeUndefined();
      expect((await reader.list("things", "s")).map((record) => (record as Thing).v)).toEqual([1, 1, 1, 1, 1]);
    };
    await store.read(seeDurable);

    // A transaction started now works on the head: it sees the in-flight commit.
    let seenByWriter: unknown;
    const writer = store.transaction(async (tx) => {
      seenByWriter = {
        created: await tx.get("things", pad(5)),
        deleted: await tx.get("things", pad(2)),
        newKey: await tx.lookup("byKey", "k4-new"),
        oldKey: await tx.lookup("byKey", "k4"),
        listed: (await tx.list("things", "s")).map((record) => record.id),
      };
    });
    for (let n = 0; n < 20 && seenByWriter === undefined; n++) await turn();
    expect(seenByWriter).toEqual({
      created: { id: pad(5), v: 2, key: "k5" },
      deleted: undefined,
      newKey: pad(4),
      oldKey: undefined,
      listed: [4, 5, 6, 8, 9].map(pad),
    });
    // Still not durable: readers go on seeing what was.
    await store.read(seeDurable);

    // Leases see the durable records: the ones the in-flight commit deleted too, and the versions it replaced.
    const claimed = await store.claim("things", "s", { owner: "a", now: 0, until: 1_000, limit: 10 });
    expect(claimed).toEqual(durableIds.map((id, n) => ({ id, v: 1, key: `k${n * 2}` })));
    const page = await store.claim("things", "s", { owner: "b", now: 2_000, until: 3_000, limit: 2, before: pad(5) });
    expect(page.map((record) => record.id)).toEqual([pad(0), pad(2)]);
    await store.release("things", [pad(0), pad(2)], "b");

    await writes.release();
    await inFlight;
    await writer;
    await store.read(async (reader) => {
      const ids = [4, 5, 6, 8, 9].map(pad);
      await expectListed(reader, "s", ids);
      expect(await reader.get("things", pad(4))).toEqual({ id: pad(4), v: 2, key: "k4-new" });
      expect(await reader.get("things", pad(6))).toEqual({ id: pad(6), v: 2, key: "k6" });
      expect(await reader.get("things", pad(5))).toEqual({ id: pad(5), v: 2, key: "k5" });
      for (const id of [pad(0), pad(2)]) expect(await reader.get("things", id)).toBeUndefined();
      for (const key of ["k0", "k2", "k4"]) expect(await reader.lookup("byKey", key)).toBeUndefined();
      for (const [key, id] of [
        ["k4-new", pad(4)],
        ["k5", pad(5)],
        ["k6", pad(6)],
        ["k8", pad(8)],
        ["k9", pad(9)],
      ] as const) {
        expect(await reader.lookup("byKey", key)).toBe(id);
      }
    });
    // The commit put new versions of 4 and 6, which ends "a"'s leases on them; 8's lease holds.
    const again = await store.claim("things", "s", { owner: "c", now: 500, until: 1_000, limit: 10 });
    expect(again.map((record) => record.id)).toEqual([4, 5, 6, 9].map(pad));
    restoreWrites?.();
    await store.close();
  });

  it("shows two in-flight commits of one record one at a time, as each flush completes", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    await store.transaction(async (tx) => {
      await putThing(tx, pad(1), 1, "first");
      await putThing(tx, pad(2), 1, "two");
    });
    const writes = await holdWrites();
    const one = store.transaction(async (tx) => {
      await putThing(tx, pad(1), 2, "second");
      await tx.delete("things", pad(2));
    });
    await flushInFlight(writes);
    // Joins the next flush, which starts only once the held one completes.
    const two = store.transaction(async (tx) => {
      await putThing(tx, pad(1), 3, "first"); // back to the key it had while durable
      await putThing(tx, pad(2), 3, undefined, "t"); // put back, in another scope
    });
    for (let n = 0; n < 5; n++) await turn();
    expect(writes.waiting()).toBe(1);

    const see = async (expected: {
      one: Thing | undefined;
      keys: Record<string, string | undefined>;
      s: string[];
      t: string[];
      two?: Thing;
    }) =>
      store.read(async (reader) => {
        expect(await reader.get("things", pad(1))).toEqual(expected.one);
        expect(await reader.get("things", pad(2))).toEqual(expected.two);
        for (const [key, id] of Object.entries(expected.keys)) expect(await reader.lookup("byKey", key), key).toBe(id);
        await expectListed(reader, "s", expected.s);
        await expectListed(reader, "t", expected.t);
      });

    await see({
      one: { id: pad(1), v: 1, key: "first" },
      two: { id: pad(2), v: 1, key: "two" },
      keys: { first: pad(1), second: undefined, two: pad(2) },
      s: [pad(1), pad(2)],
      t: [],
    });
    await writes.release();
    await one;
    expect(writes.waiting()).toBe(1); // the second flush is held
    await see({
      one: { id: pad(1), v: 2, key: "second" },
      keys: { first: undefined, second: pad(1), two: undefined },
      s: [pad(1)],
      t: [],
    });
    await writes.release();
    await two;
    await see({
      one: { id: pad(1), v: 3, key: "first" },
      two: { id: pad(2), v: 3 },
      keys: { first: pad(1), second: undefined, two: undefined },
      s: [pad(1)],
      t: [pad(2)],
    });
    restoreWrites?.();
    await store.close();
  });

  it("shows a commit whose flush completes under an open read only after that read ends", async () => {
    const store = await FileStore.open(await tempDirectory());
    await store.transaction((tx) => putThing(tx, pad(1), 1, "k1"));
    const writes = await holdWrites();
    let resolved = false;
    const inFlight = store
      .transaction(async (tx) => {
        await putThing(tx, pad(1), 2, "k1-new");
        await putThing(tx, pad(2), 2, "k2");
      })
      .then(() => {
        resolved = true;
      });
    await flushInFlight(writes);
    let leave!: () => void;
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const seen: unknown[] = [];
    const look = async (reader: StoreReader) => [
      await reader.get("things", pad(1)),
      await reader.lookup("byKey", "k1"),
      (await reader.list("things", "s")).map((record) => record.id),
    ];
    const reading = store.read(async (reader) => {
      seen.push(await look(reader));
      await left;
      seen.push(await look(reader));
    });
    for (let n = 0; n < 5 && seen.length === 0; n++) await turn();
    await writes.release(); // the flush is on disk; the commit waits for the open read
    expect(resolved).toBe(false);
    leave();
    await reading;
    await inFlight;
    const durable = [{ id: pad(1), v: 1, key: "k1" }, pad(1), [pad(1)]];
    expect(seen).toEqual([durable, durable]);
    await store.read(async (reader) =>
      expect(await look(reader)).toEqual([{ id: pad(1), v: 2, key: "k1-new" }, undefined, [pad(1), pad(2)]]),
    );
    restoreWrites?.();
    await store.close();
  });

  it("keeps showing what was durable before a failed flush, for updates, deletes and keys as well as creates", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    await store.transaction(async (tx) => {
      for (const n of [1, 2, 3]) await putThing(tx, pad(n), 1, `k${n}`);
    });
    const probe = await open(join(await tempDirectory(), "probe"), "w");
    const prototype = Object.getPrototypeOf(probe) as { write: Write };
    await probe.close();
    const write = prototype.write;
    const failing = vi.spyOn(prototype, "write").mockImplementationOnce(async function (this: unknown, ...args) {
      await write.apply(this, args);
      throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
    });
    try {
      await expect(
        store.transaction(async (tx) => {
          await putThing(tx, pad(1), 2, "k1-new");
          await tx.delete("things", pad(2));
          await putThing(tx, pad(4), 2, "k4");
        }),
      ).rejects.toMatchObject({ code: "UNAVAILABLE" });
    } finally {
      failing.mockRestore();
    }
    await store.read(async (reader) => {
      await expectListed(reader, "s", [1, 2, 3].map(pad));
      expect(await reader.get("things", pad(1))).toEqual({ id: pad(1), v: 1, key: "k1" });
      expect(await reader.get("things", pad(2))).toEqual({ id: pad(2), v: 1, key: "k2" });
      expect(await reader.get("things", pad(4))).toBeUndefined();
      expect(await reader.lookup("byKey", "k1")).toBe(pad(1));
      expect(await reader.lookup("byKey", "k2")).toBe(pad(2));
      expect(await reader.lookup("byKey", "k1-new")).toBeUndefined();
      expect(await reader.lookup("byKey", "k4")).toBeUndefined();
    });
    const claimed = await store.claim("things", "s", { owner: "a", now: 0, until: 1, limit: 10 });
    expect(claimed.map((record) => (record as Thing).v)).toEqual([1, 1, 1]);
    await store.close();
  });
});

const IDS = [1, 2, 3, 4, 5, 6].map(pad);
const KEYS = ["ka", "kb", "kc", "kd"];
const SCOPES = ["s", "t"];

interface Step {
  id: string;
  remove: boolean;
  scope: string;
  key: string | undefined;
}

/**
 * A transaction of random steps on distinct records: puts (a record keeps its scope while it exists; a key another
 * record holds is left out) and deletes. What it writes depends only on the state it runs on, so replaying it on another store
 * in the same state writes the same.
 */
function randomWork(next: () => number, v: number): (tx: StoreTransaction) => Promise<void> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  // Distinct ids: a record deleted and put again in one transaction keeps its committed scope, which the steps
  // cannot know.
  const ids = [...IDS].sort(() => next() - 0.5).slice(0, 1 + Math.floor(next() * 3));
  const steps: Step[] = ids.map((id) => ({
    id,
    remove: next() < 0.3,
    scope: pick(SCOPES),
    key: next() < 0.25 ? undefined : pick(KEYS),
  }));
  return async (tx) => {
    for (const step of steps) {
      if (step.remove) {
        await tx.delete("things", step.id);
        continue;
      }
      const current = (await tx.get("things", step.id)) as (Thing & { scope: string }) | undefined;
      const scope = current?.scope ?? step.scope;
      const holder = step.key === undefined ? undefined : await tx.lookup("byKey", step.key);
      const key = holder === undefined || holder === step.id ? step.key : undefined;
      const record = { id: step.id, v, scope, ...(key === undefined ? {} : { key }) };
      await tx.put("things", record, key === undefined ? { scope } : { scope, keys: { byKey: key } });
    }
  };
}

/** Everything a reader answers about the ids, keys and scopes the random steps use. */
async function observe(store: Store): Promise<unknown> {
  return store.read(async (reader) => {
    const records: Record<string, StoredRecord | undefined> = {};
    for (const id of IDS) records[id] = await reader.get("things", id);
    const keys: Record<string, string | undefined> = {};
    for (const key of KEYS) keys[key] = await reader.lookup("byKey", key);
    const lists: Record<string, string[]> = {};
    for (const scope of SCOPES) {
      for (const options of [
        {},
        { order: "desc" },
        { after: pad(2), limit: 2 },
        { before: pad(5), order: "desc", limit: 2 },
      ] as const) {
        lists[`${scope} ${JSON.stringify(options)}`] = (await reader.list("things", scope, options)).map((r) => r.id);
      }
    }
    return { records, keys, lists };
  });
}

describe("FileStore: readers see exactly the durable commits (random commits and flushes)", () => {
  it.each([1, 2, 3, 4])("seed %i", async (seed) => {
    const next = seededNumbers(seed);
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    // The reference: a MemoryStore fed each transaction once it has resolved (is durable), in commit order.
    const reference = new MemoryStore();
    const commits: { work: (tx: StoreTransaction) => Promise<void>; done: boolean; replayed: boolean }[] = [];
    const catchUp = async () => {
      for (const commit of commits) {
        if (!commit.done) break;
        if (commit.replayed) continue;
        commit.replayed = true;
        await reference.transaction(commit.work);
      }
      // Transactions resolve in commit order: nothing after the first pending one has resolved.
      const firstPending = commits.findIndex((commit) => !commit.done);
      if (firstPending >= 0) expect(commits.slice(firstPending).some((commit) => commit.done)).toBe(false);
    };
    const writes = await holdWrites();
    for (let step = 0; step < 120; step++) {
      if (writes.waiting() === 0 || next() < 0.55) {
        const commit = { work: randomWork(next, step), done: false, replayed: false };
        commits.push(commit);
        void store.transaction(commit.work).then(() => {
          commit.done = true;
        });
        await turn();
      } else {
        await writes.release();
      }
      await catchUp();
      expect(await observe(store), `step ${step}`).toEqual(await observe(reference));
    }
    while (writes.waiting() > 0 || commits.some((commit) => !commit.done)) {
      if (writes.waiting() > 0) await writes.release();
      else await turn();
    }
    await catchUp();
    expect(await observe(store)).toEqual(await observe(reference));
    restoreWrites?.();
    await store.close();
    const reopened = await FileStore.open(directory);
    expect(await observe(reopened)).toEqual(await observe(reference));
    await reopened.close();
  });
});
