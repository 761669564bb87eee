import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { FILES, HEADER_BYTES, readFrame } from "../../src/storage/file/format.js";
import { FileStore } from "../../src/storage/file/index.js";
import type { StoredRecord, StoreReader, StoreTransaction } from "../../src/storage/store.js";
import { tempDirectories } from "../support/temp-directories.js";

const tempDirectory = tempDirectories("compaction");

/** Ids in no particular order: a multiplicative hash of `n`, so consecutive records land all over the scope. */
const scrambled = (n: number) => `r-${((n * 2654435761) >>> 0).toString(16).padStart(8, "0")}`;

const BIG = "big";
/** Scopes of every size a scope list takes: one id, two, a few, and thousands. */
const scopeOf = (n: number) => (n % 7 === 0 ? `small-${n % 3}` : n % 11 === 0 ? `pair-${n % 2}` : BIG);

interface Thing {
  collection: string;
  id: string;
  scope: string;
  key: string;
}

/** What a reader sees of `things`: every scope listed (both ways and by pages), each record, each key. */
async function view(reader: StoreReader, things: Map<string, Thing>): Promise<unknown> {
  const scopes = new Set([...things.values()].map((thing) => `${thing.collection}/${thing.scope}`));
  const lists: Record<string, unknown> = {};
  for (const name of [...scopes].sort()) {
    const [collection, scope] = name.split("/") as [string, string];
    const all = (await reader.list(collection, scope)).map((record) => record.id);
    const desc = (await reader.list(collection, scope, { order: "desc" })).map((record) => record.id);
    expect(desc).toEqual([...all].reverse());
    const middle = all[Math.floor(all.length / 2)] as string;
    const page = (await reader.list(collection, scope, { after: middle, limit: 5 })).map((record) => record.id);
    lists[name] = { all, page };
  }
  const records: Record<string, unknown> = {};
  const keys: Record<string, unknown> = {};
  for (const thing of things.values()) {
    records[`${thing.collection}/${thing.id}`] = await reader.get(thing.collection, thing.id);
    keys[thing.key] = await reader.lookup("thingByKey", thing.key);
  }
  return { lists, records, keys };
}

async function putThing(tx: StoreTransaction, things: Map<string, Thing>, thing: Thing, body: string): Promise<void> {
  await tx.put(
    thing.collection,
    { id: thing.id, key: thing.key, body },
    { scope: thing.scope, keys: { thingByKey: thing.key } },
  );
  things.set(`${thing.collection}/${thing.id}`, thing);
}

describe("FileStore: snapshots of records written out of id order", () => {
  it.each([false, true])(
    "reopen to the same lists, records and keys, over a snapshot built on a snapshot (on a thread: %s)",
    async (snapshotThread) => {
      const directory = await tempDirectory();
      const store = await FileStore.open(directory, { snapshotThread });
      /** Every thing ever written, deleted ones too: their absence is part of the view. */
      const things = new Map<string, Thing>();
      const thing = (n: number, collection = "things"): Thing => ({
        collection,
        id: scrambled(n),
        scope: scopeOf(n),
        key: `k-${collection}-${n}`,
      });
      for (let start = 0; start < 3000; start += 250) {
        await store.transaction(async (tx) => {
          for (let n = start; n < start + 250; n++) {
            await putThing(tx, things, thing(n), `first ${n}`);
            if (n % 5 === 0) await putThing(tx, things, thing(n, "others"), `other ${n}`);
          }
        });
      }
      await store.snapshot();

      // On top of the snapshot: deletes, records put again with other keys, deleted ones put back, new ones.
      await store.transaction(async (tx) => {
        for (let n = 0; n < 3000; n += 3) await tx.delete("things", scrambled(n));
      });
      await store.transaction(async (tx) => {
        for (let n = 1; n < 3000; n += 9) {
          const renamed = { ...thing(n), key: `k-renamed-${n}` };
          await putThing(tx, things, renamed, `second ${n}`);
        }
      });
      await store.transaction(async (tx) => {
        for (let n = 0; n < 3000; n += 12) await putThing(tx, things, thing(n), `back ${n}`);
        for (let n = 3000; n < 3600; n++) await putThing(tx, things, thing(n), `new ${n}`);
      });
      await store.snapshot();
      // Changes the next snapshot does not cover: replayed from the journal on top of it.
      await store.transaction(async (tx) => {
        for (let n = 1; n < 3600; n += 13) await tx.delete("things", scrambled(n));
        await tx.delete("others", scrambled(5));
        for (let n = 3600; n < 3700; n++) await putThing(tx, things, thing(n), `journal ${n}`);
      });
      const before = await store.read((reader) => view(reader, things));
      await store.close();

      const reopened = await FileStore.open(directory);
      expect(reopened.recovery.snapshot?.sequence).toBe(15);
      expect(reopened.recovery.replayed).toBe(1);
      expect(await reopened.read((reader) => view(reader, things))).toEqual(before);
      // And once more, with everything in a snapshot built from that one.
      await reopened.snapshot();
      await reopened.close();
      const again = await FileStore.open(directory);
      expect(again.recovery).toMatchObject({ snapshot: { sequence: 16 }, replayed: 0 });
      const after = await again.read((reader) => view(reader, things));
      expect(after).toEqual(before);
      // The large scope is in id order, not in the order it was written.
      const big = (after as { lists: Record<string, { all: string[] }> }).lists[`things/${BIG}`]?.all ?? [];
      expect(big.length).toBeGreaterThan(1000);
      expect(big).toEqual([...big].sort());
      // Commits after the open keep the lists in order.
      await again.transaction(async (tx) => putThing(tx, things, { ...thing(4000), scope: BIG }, "late"));
      await again.read(async (reader) => {
        const ids = (await reader.list("things", BIG)).map((record) => record.id);
        expect(ids).toEqual([...ids].sort());
        expect(ids).toContain(scrambled(4000));
      });
      await again.close();
    },
  );

  it("writes and reads back a record larger than the frames are read in", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotThread: false });
    const large = "x".repeat(3 << 20);
    await store.transaction(async (tx) => {
      await tx.put("things", { id: "b", body: large }, { scope: "s" });
      await tx.put("things", { id: "a", body: "small" }, { scope: "s" });
    });
    await store.snapshot();
    await store.transaction(async (tx) => tx.put("things", { id: "c", body: large.slice(1) }, { scope: "s" }));
    await store.snapshot();
    await store.close();
    const reopened = await FileStore.open(directory);
    expect(reopened.recovery).toMatchObject({ snapshot: { records: 3 }, replayed: 0 });
    await reopened.read(async (reader) => {
      expect((await reader.list("things", "s")).map((record) => (record.body as string).length)).toEqual([
        5,
        large.length,
        large.length - 1,
      ]);
    });
    await reopened.close();
  });
});

describe("FileStore: damage found while building a snapshot", () => {
  /** A store with a snapshot and then over a MiB of journal, one frame per transaction. */
  async function storeWithLongJournal(): Promise<{ directory: string; store: FileStore; frames: number[] }> {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotThread: false });
    await store.transaction(async (tx) => tx.put("things", { id: "first" }, { scope: "s" }));
    await store.snapshot();
    for (let n = 0; n < 40; n++) {
      await store.transaction(async (tx) =>
        tx.put("things", { id: `t-${n}`, body: "y".repeat(40_000) }, { scope: "s" }),
      );
    }
    const bytes = await readFile(join(directory, FILES.segment(2)));
    const frames: number[] = [];
    for (let at = HEADER_BYTES; at < bytes.length; ) {
      frames.push(at);
      const frame = readFrame(bytes, at);
      if (!frame.ok) throw new Error("test setup: unreadable journal");
      at = frame.next;
    }
    expect(bytes.length).toBeGreaterThan(1 << 20);
    return { directory, store, frames };
  }

  async function snapshotError(store: FileStore): Promise<CustodyError> {
    const error = await store.snapshot().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CustodyError);
    return error as CustodyError;
  }

  it("names the file and offset of a damaged frame past the first MiB of a finished segment", async () => {
    const { directory, store, frames } = await storeWithLongJournal();
    const at = frames.find((offset) => offset > 1 << 20) as number;
    for (const [damage, reason] of [
      [at + 30, "checksum mismatch"],
      [at, "no frame marker"],
    ] as const) {
      const path = join(directory, FILES.segment(2));
      const bytes = await readFile(path);
      const original = bytes[damage] as number;
      bytes[damage] = original ^ 0x01;
      await writeFile(path, bytes);
      const snapshotBefore = await readFile(join(directory, FILES.snapshot));
      const error = await snapshotError(store);
      expect(error).toMatchObject({
        code: "INTERNAL",
        details: { reason: "STORE_CORRUPT", file: FILES.segment(2), offset: at },
      });
      expect(error.message).toContain(reason);
      // The snapshot in place is untouched, and the store goes on committing and reading.
      expect(await readFile(join(directory, FILES.snapshot))).toEqual(snapshotBefore);
      expect(await readdir(directory)).not.toContain(FILES.snapshotTemp);
      bytes[damage] = original;
      await writeFile(path, bytes);
    }
    await store.transaction(async (tx) => tx.put("things", { id: "later" }, { scope: "s" }));
    await store.snapshot();
    await store.close();
    const reopened = await FileStore.open(directory);
    await reopened.read(async (reader) => expect(await reader.list("things", "s")).toHaveLength(42));
    await reopened.close();
  });

  it("names a finished segment cut short in its last frame", async () => {
    const { directory, store, frames } = await storeWithLongJournal();
    const path = join(directory, FILES.segment(2));
    const bytes = await readFile(path);
    const last = frames[frames.length - 1] as number;
    await writeFile(path, bytes.subarray(0, bytes.length - 100));
    const error = await snapshotError(store);
    expect(error).toMatchObject({ details: { reason: "STORE_CORRUPT", file: FILES.segment(2), offset: last } });
    expect(error.message).toContain("frame cut short");
    await writeFile(path, bytes);
    await store.close();
  });

  it("refuses to build on a snapshot damaged since it was written", async () => {
    const { directory, store } = await storeWithLongJournal();
    const path = join(directory, FILES.snapshot);
    const bytes = await readFile(path);
    for (const [damaged, why] of [
      [Buffer.concat([bytes, Buffer.from([0])]), "bytes follow the end frame"],
      [bytes.subarray(0, bytes.length - 3), "frame cut short"],
      [bytes.subarray(0, 10), "header cut short at 10 bytes"],
    ] as const) {
      await writeFile(path, damaged);
      const error = await snapshotError(store);
      expect(error).toMatchObject({ code: "INTERNAL", details: { reason: "STORE_CORRUPT", file: FILES.snapshot } });
      expect(error.message).toContain(why);
    }
    await writeFile(path, bytes);
    await store.close();
  });
});

describe("FileStore: memory of building a snapshot", () => {
  it("follows the number of records, not the size of the files it rewrites", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, {
      snapshotThread: false,
      warmRecords: 0,
      snapshotAfterBytes: 2 ** 40,
    });
    const body = (n: number) => `${n}:`.padEnd(2000, "abcdefghij");
    const count = 20_000;
    // Transactions of a few hundred records: a frame, the unit the snapshot is read and written in, stays small.
    for (let start = 0; start < count; start += 500) {
      await store.transaction(async (tx) => {
        for (let n = start; n < start + 500; n++)
          await tx.put("things", { id: scrambled(n), body: body(n) }, { scope: "s" });
      });
    }
    await store.snapshot();
    for (let start = 0; start < count; start += 1000) {
      await store.transaction(async (tx) => {
        for (let n = start; n < start + 1000; n += 2) {
          await tx.put("things", { id: scrambled(n), body: body(n + 1) }, { scope: "s" });
        }
      });
    }
    let files = 0;
    for (const name of await readdir(directory)) files += (await stat(join(directory, name))).size;
    const { peak, samples } = await peakGrowth(() => store.snapshot());
    console.log(
      `building a snapshot from ${files >> 20} MiB of files kept at most ${(peak / 2 ** 20).toFixed(1)} MiB alive (${samples} samples)`,
    );
    // Samples all through the compaction, which reads the files twice: the old snapshot alone spans many of them.
    expect(samples).toBeGreaterThan(10);
    expect(peak).toBeLessThan(files / 5);
    await store.read(async (reader) => {
      const read = (await reader.get("things", scrambled(2))) as StoredRecord;
      expect(read.body).toBe(body(3));
    });
    await store.close();
  });
});

/**
 * The most memory (heap plus external) that `work` keeps alive, less what was alive before: sampled every few ms
 * right after a full collection, so garbage not yet collected does not count.
 */
async function peakGrowth(work: () => Promise<void>): Promise<{ peak: number; samples: number }> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const used = () => {
    gc();
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  // What the writes before let go of is collected first, so it does not hide growth during `work`.
  await new Promise((resolve) => setTimeout(resolve, 50));
  used();
  const before = used();
  let peak = before;
  let samples = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, used());
    samples++;
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return { peak: Math.max(peak, used()) - before, samples };
}
