import { spawnSync } from "node:child_process";
import { appendFile, open, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import {
  encodeFrame,
  encodeHeader,
  FILES,
  HEADER_BYTES,
  JOURNAL_MAGIC,
  readFrame,
} from "../../src/storage/file/format.js";
import { FileStore, type FileStoreOptions } from "../../src/storage/file/index.js";
import { EARLY_FLUSH_COMMITS } from "../../src/storage/file/journal.js";
import type { Store, StoredRecord, StoreReader } from "../../src/storage/store.js";
import { tempDirectories } from "../support/temp-directories.js";
import { runStoreContract } from "./contract.js";

const tempDirectory = tempDirectories("filestore");

const pad = (n: number) => `id-${String(n).padStart(6, "0")}`;

async function put(store: Store, id: string, key: string): Promise<void> {
  await store.transaction(async (tx) => tx.put("things", { id, key }, { scope: "s", keys: { byKey: key } }));
}

async function ids(reader: StoreReader): Promise<string[]> {
  return (await reader.list("things", "s")).map((record) => record.id);
}

/** The store holds exactly `count` things, `pad(0)` onward, each found by its key `k<n>`. */
async function expectThings(reader: StoreReader, count: number): Promise<void> {
  expect(await ids(reader)).toEqual(Array.from({ length: count }, (_, n) => pad(n)));
  for (let n = 0; n < count; n++) expect(await reader.lookup("byKey", `k${n}`)).toBe(pad(n));
}

async function segmentFiles(directory: string): Promise<string[]> {
  return (await readdir(directory)).filter((name) => FILES.segmentPattern.test(name)).sort();
}

/** The one journal segment of a directory and the end offset of each frame in it. */
async function onlySegment(directory: string): Promise<{ path: string; bytes: Buffer; frameEnds: number[] }> {
  const segments = await segmentFiles(directory);
  expect(segments).toHaveLength(1);
  const path = join(directory, segments[0] as string);
  const bytes = await readFile(path);
  const frameEnds: number[] = [];
  let offset = HEADER_BYTES;
  while (offset < bytes.length) {
    const frame = readFrame(bytes, offset);
    if (!frame.ok) throw new Error(`test setup: no frame at ${offset}`);
    offset = frame.next;
    frameEnds.push(offset);
  }
  return { path, bytes, frameEnds };
}

/** A closed store with `count` records committed one transaction (and one journal frame) each. */
async function storeWithRecords(count: number, options?: FileStoreOptions): Promise<string> {
  const directory = await tempDirectory();
  const store = await FileStore.open(directory, options);
  for (let n = 0; n < count; n++) await put(store, pad(n), `k${n}`);
  await store.close();
  return directory;
}

async function copyDirectory(from: string): Promise<string> {
  const to = await tempDirectory();
  for (const name of await readdir(from)) await writeFile(join(to, name), await readFile(join(from, name)));
  return to;
}

async function openError(directory: string): Promise<CustodyError> {
  const error = await FileStore.open(directory).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid as number;
}

runStoreContract("FileStore", async () => FileStore.open(await tempDirectory()));
runStoreContract("FileStore (an fsync per commit, a snapshot after every flush)", async () =>
  FileStore.open(await tempDirectory(), { groupCommit: false, snapshotAfterBytes: 1 }),
);

describe("FileStore: reopening", () => {
  it("keeps every committed transaction and nothing of a rolled-back one", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    await put(store, pad(1), "one");
    await put(store, pad(2), "two");
    await put(store, pad(3), "three");
    await put(store, pad(2), "two-renamed");
    await store.transaction(async (tx) => tx.delete("things", pad(3)));
    await expect(
      store.transaction(async (tx) => {
        await tx.put("things", { id: pad(4), key: "four" }, { scope: "s", keys: { byKey: "four" } });
        await tx.put("things", { id: pad(1), key: "one-changed" }, { scope: "s", keys: { byKey: "one-changed" } });
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    await store.close();

    const reopened = await FileStore.open(directory);
    expect(reopened.recovery).toMatchObject({ sequence: 5, replayed: 5, snapshot: undefined, tornTail: undefined });
    await reopened.read(async (r) => {
      expect(await ids(r)).toEqual([pad(1), pad(2)]);
      expect(await r.get("things", pad(1))).toEqual({ id: pad(1), key: "one" });
      expect(await r.get("things", pad(2))).toEqual({ id: pad(2), key: "two-renamed" });
      expect(await r.lookup("byKey", "one")).toBe(pad(1));
      expect(await r.lookup("byKey", "two-renamed")).toBe(pad(2));
      expect(await r.lookup("byKey", "two")).toBeUndefined();
      expect(await r.lookup("byKey", "three")).toBeUndefined();
      expect(await r.lookup("byKey", "four")).toBeUndefined();
      expect(await r.lookup("byKey", "one-changed")).toBeUndefined();
    });
    await reopened.close();
  });

  it("appends after each reopen and keeps counting sequence numbers", async () => {
    const directory = await tempDirectory();
    for (let round = 0; round < 5; round++) {
      const store = await FileStore.open(directory);
      expect(store.recovery.sequence).toBe(round * 2);
      await put(store, pad(round * 2), `k${round * 2}`);
      await put(store, pad(round * 2 + 1), `k${round * 2 + 1}`);
      await store.close();
    }
    const store = await FileStore.open(directory);
    await store.read(async (r) => expect(await ids(r)).toEqual(Array.from({ length: 10 }, (_, n) => pad(n))));
    await store.close();
  });

  it("replays the journal written after a snapshot on top of it", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    for (let n = 0; n < 10; n++) await put(store, pad(n), `k${n}`);
    await store.snapshot();
    await store.transaction(async (tx) => tx.delete("things", pad(0)));
    await put(store, pad(1), "k1-renamed");
    await put(store, pad(10), "k10");
    await store.close();

    const reopened = await FileStore.open(directory);
    expect(reopened.recovery).toMatchObject({ snapshot: { sequence: 10, records: 10 }, replayed: 3, sequence: 13 });
    await reopened.read(async (r) => {
      expect(await ids(r)).toEqual(Array.from({ length: 10 }, (_, n) => pad(n + 1)));
      expect(await r.lookup("byKey", "k0")).toBeUndefined();
      expect(await r.lookup("byKey", "k1")).toBeUndefined();
      expect(await r.lookup("byKey", "k1-renamed")).toBe(pad(1));
      expect(await r.lookup("byKey", "k10")).toBe(pad(10));
    });
    await reopened.close();
  });

  it("deletes the journal segments a snapshot covers", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    for (let n = 0; n < 5; n++) await put(store, pad(n), `k${n}`);
    expect(await segmentFiles(directory)).toEqual([FILES.segment(1)]);
    await store.snapshot();
    expect(await segmentFiles(directory)).toEqual([FILES.segment(2)]);
    expect((await stat(join(directory, FILES.segment(2)))).size).toBe(HEADER_BYTES);
    await store.close();
    const reopened = await FileStore.open(directory);
    expect(reopened.recovery).toMatchObject({ snapshot: { sequence: 5 }, replayed: 0, segments: [FILES.segment(2)] });
    await reopened.close();
  });

  it("snapshots on its own as the journal grows, keeping the journal short", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotAfterBytes: 4096 });
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => put(store, pad(batch * 20 + i), `k${batch * 20 + i}`)));
    }
    await store.close();
    const segments = await segmentFiles(directory);
    expect(segments).toHaveLength(1);
    expect(segments[0]).not.toBe(FILES.segment(1));
    const reopened = await FileStore.open(directory);
    expect(reopened.recovery.snapshot?.records).toBeGreaterThan(0);
    await reopened.read((r) => expectThings(r, 200));
    await reopened.close();
  });

  it("waits for the journal to outgrow the last snapshot, so a growing state is not rewritten at every commit", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotAfterBytes: 1 });
    for (let n = 0; n < 200; n++) await put(store, pad(n), `k${n}`);
    await store.close();
    // Every snapshot rotates the journal, so the segment number counts snapshots. A fixed threshold of one byte
    // took one per commit (about 200); doubling spacing takes a handful.
    const [segment] = await segmentFiles(directory);
    const snapshots = Number(FILES.segmentPattern.exec(segment as string)?.[1]) - 1;
    expect(snapshots).toBeGreaterThan(0);
    expect(snapshots).toBeLessThan(20);
    const reopened = await FileStore.open(directory);
    await reopened.read(async (r) => expect(await ids(r)).toHaveLength(200));
    await reopened.close();
  });

  it("shares one journal write among commits made while a flush is in flight", async () => {
    const grouped = await tempDirectory();
    const store = await FileStore.open(grouped);
    await Promise.all(Array.from({ length: 20 }, (_, n) => put(store, pad(n), `k${n}`)));
    await store.close();
    expect((await onlySegment(grouped)).frameEnds.length).toBeLessThan(20);

    const separate = await tempDirectory();
    const unbatched = await FileStore.open(separate, { groupCommit: false });
    await Promise.all(Array.from({ length: 20 }, (_, n) => put(unbatched, pad(n), `k${n}`)));
    await unbatched.close();
    expect((await onlySegment(separate)).frameEnds).toHaveLength(20);

    for (const directory of [grouped, separate]) {
      const reopened = await FileStore.open(directory);
      expect(reopened.recovery.sequence).toBe(20);
      await reopened.read(async (r) => expect(await ids(r)).toHaveLength(20));
      await reopened.close();
    }
  });

  it("starts a flush at the end of the event loop's turn, or within it once EARLY_FLUSH_COMMITS commits wait", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    const commitInOneTurn = (from: number, count: number) =>
      Promise.all(Array.from({ length: count }, (_, n) => put(store, pad(from + n), `k${from + n}`)));
    // Fewer than the early threshold: one flush at the end of the turn, the first commit in it too.
    await commitInOneTurn(0, EARLY_FLUSH_COMMITS - 1);
    // More: a flush starts when the threshold is reached, and the rest share the next one.
    await commitInOneTurn(EARLY_FLUSH_COMMITS, EARLY_FLUSH_COMMITS + 4);
    await store.close();
    const { bytes } = await onlySegment(directory);
    const perFrame: number[] = [];
    for (let offset = HEADER_BYTES; offset < bytes.length; ) {
      const frame = readFrame(bytes, offset);
      if (!frame.ok) throw new Error(`test setup: no frame at ${offset}`);
      perFrame.push((JSON.parse(frame.payload) as { transactions: unknown[] }).transactions.length);
      offset = frame.next;
    }
    expect(perFrame).toEqual([EARLY_FLUSH_COMMITS - 1, EARLY_FLUSH_COMMITS, 4]);
  });

  it("refuses a record that is not JSON and commits nothing of its transaction", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    const error = await store
      .transaction(async (tx) => {
        await tx.put("things", { id: pad(1), key: "fine" }, { scope: "s" });
        await tx.put("things", { id: pad(2), amount: 10n } as never, { scope: "s" });
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CustodyError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", details: { reason: "RECORD_NOT_JSON", id: pad(2) } });
    await put(store, pad(3), "k3");
    await store.read(async (r) => expect(await ids(r)).toEqual([pad(3)]));
    await store.close();
    const reopened = await FileStore.open(directory);
    await reopened.read(async (r) => expect(await ids(r)).toEqual([pad(3)]));
    await reopened.close();
  });

  it("finishes transactions in flight on close and refuses new work after it", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    const inFlight = Array.from({ length: 10 }, (_, n) => put(store, pad(n), `k${n}`));
    const closed = store.close();
    await Promise.all(inFlight);
    await closed;
    await expect(put(store, pad(99), "late")).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
      details: { reason: "STORE_CLOSED" },
    });
    await expect(store.read(async () => undefined)).rejects.toBeInstanceOf(CustodyError);
    const reopened = await FileStore.open(directory);
    await reopened.read(async (r) => expect(await ids(r)).toHaveLength(10));
    await reopened.close();
  });

  // Segments are written with O_DSYNC (where the platform has it, as here): a write that cannot be made durable
  // fails itself, with EIO, after its bytes reached the file; that is what the spy does.
  it("refuses every commit after a failed durable write until reopened, while reads keep the durable state", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    await put(store, pad(1), "k1");
    const probe = await open(join(directory, FILES.segment(1)), "r");
    type Write = (this: unknown, ...args: unknown[]) => Promise<unknown>;
    const fileHandlePrototype = Object.getPrototypeOf(probe) as { write: Write };
    await probe.close();
    const write = fileHandlePrototype.write;
    const failing = vi.spyOn(fileHandlePrototype, "write").mockImplementationOnce(async function (
      this: unknown,
      ...args
    ) {
      await write.apply(this, args);
      throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
    });
    try {
      await expect(put(store, pad(2), "k2")).rejects.toMatchObject({
        code: "UNAVAILABLE",
        details: { reason: "STORE_WRITE_FAILED" },
      });
    } finally {
      failing.mockRestore();
    }
    await expect(put(store, pad(3), "k3")).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await store.read(async (r) => expect(await ids(r)).toEqual([pad(1)]));
    await store.close();

    // The failed write did reach the file, so its outcome was unknown, not failed: it may come back.
    const reopened = await FileStore.open(directory);
    await reopened.read(async (r) => expect((await ids(r)).slice(0, 1)).toEqual([pad(1)]));
    await put(reopened, pad(4), "k4");
    await reopened.read(async (r) => expect(await ids(r)).toContain(pad(4)));
    await reopened.close();
  });
});

describe.each([
  { snapshotThread: true, where: "on a thread of their own" },
  { snapshotThread: false, where: "on the calling thread" },
])("FileStore: snapshots built from the files, $where", ({ snapshotThread }) => {
  it("keeps committing while a snapshot is built, which covers what the journal held when it rotated", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotThread });
    for (let n = 0; n < 50; n++) await put(store, pad(n), `k${n}`);
    const later = Array.from({ length: 50 }, (_, i) => put(store, pad(50 + i), `k${50 + i}`));
    await Promise.all([store.snapshot(), ...later]);
    await store.close();

    const reopened = await FileStore.open(directory);
    const { snapshot, replayed, sequence } = reopened.recovery;
    expect(sequence).toBe(100);
    expect(snapshot?.sequence).toBeGreaterThanOrEqual(50);
    expect(snapshot?.records).toBe(snapshot?.sequence);
    expect(replayed).toBe(100 - (snapshot?.sequence as number));
    await reopened.read((r) => expectThings(r, 100));
    await reopened.close();
  });

  it("builds each snapshot on the one before, applying deletes and replaced index keys", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotThread });
    for (let n = 0; n < 6; n++) await put(store, pad(n), `k${n}`);
    await store.snapshot();
    await store.transaction(async (tx) => tx.delete("things", pad(0)));
    await put(store, pad(1), "k1-renamed");
    await store.snapshot();
    await store.close();

    const reopened = await FileStore.open(directory);
    expect(reopened.recovery).toMatchObject({ snapshot: { sequence: 8, records: 5 }, replayed: 0, sequence: 8 });
    expect(await segmentFiles(directory)).toEqual([FILES.segment(3)]);
    await reopened.read(async (r) => {
      expect(await ids(r)).toEqual([1, 2, 3, 4, 5].map(pad));
      expect(await r.lookup("byKey", "k0")).toBeUndefined();
      expect(await r.lookup("byKey", "k1")).toBeUndefined();
      expect(await r.lookup("byKey", "k1-renamed")).toBe(pad(1));
    });
    await reopened.close();
  });

  it("reports a journal damaged on disk when building a snapshot, keeping the journal and the store working", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory, { snapshotThread });
    for (let n = 0; n < 3; n++) await put(store, pad(n), `k${n}`);
    const path = join(directory, FILES.segment(1));
    const bytes = await readFile(path);
    bytes[HEADER_BYTES + 20] = (bytes[HEADER_BYTES + 20] as number) ^ 0x01;
    await writeFile(path, bytes);

    const error = await store.snapshot().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CustodyError);
    expect(error).toMatchObject({
      code: "INTERNAL",
      details: { reason: "STORE_CORRUPT", file: FILES.segment(1), offset: HEADER_BYTES },
    });
    // Nothing was deleted or replaced, and commits go on into the new segment.
    expect(await readdir(directory)).not.toContain(FILES.snapshot);
    expect(await segmentFiles(directory)).toEqual([FILES.segment(1), FILES.segment(2)]);
    await put(store, pad(3), "k3");
    await store.read(async (r) => expect(await ids(r)).toEqual([0, 1, 2, 3].map(pad)));
    await store.close();
  });
});

describe("FileStore: records read back from their text", () => {
  // Strings that look like the structure around them, escapes, and members in an order other than id first.
  const awkward: StoredRecord[] = [
    { id: "plain", nested: { list: [1, [2, { deep: null }]], empty: {}, none: [] }, flag: true },
    { id: 'quote"s', text: "ends with a backslash \\", brackets: '"]},{"scope":"x"}]', unicode: "é✓😀\u0000" },
    { name: "id comes second", id: "second", n: -1.5e-7 },
    { id: 'escapes\\"', tab: "\t", line: "a\nb", quoteOnly: '"' },
  ];

  async function expectAwkward(store: FileStore): Promise<void> {
    await store.read(async (reader) => {
      for (const record of awkward) {
        const read = await reader.get("odd", record.id);
        expect(read).toEqual(record);
        expect(Object.isFrozen(read)).toBe(true);
        expect(await reader.lookup("oddByName", `n-${record.id}`)).toBe(record.id);
      }
      expect((await reader.list("odd", "s")).map((record) => record.id)).toEqual(awkward.map((r) => r.id).sort());
    });
  }

  it("reads back every record as written, from the journal and from a snapshot built from it", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    for (const record of awkward) {
      await store.transaction(async (tx) =>
        tx.put("odd", record, { scope: "s", keys: { oddByName: `n-${record.id}` } }),
      );
    }
    await store.close();

    const fromJournal = await FileStore.open(directory);
    await expectAwkward(fromJournal);
    await fromJournal.snapshot();
    await fromJournal.close();

    for (const warmRecords of [0, Number.POSITIVE_INFINITY]) {
      const fromSnapshot = await FileStore.open(directory, { warmRecords });
      expect(fromSnapshot.recovery).toMatchObject({ snapshot: { records: awkward.length }, replayed: 0 });
      await expectAwkward(fromSnapshot);
      // Written out again from records never read since the open.
      await fromSnapshot.snapshot();
      await fromSnapshot.close();
    }
    const again = await FileStore.open(directory);
    await expectAwkward(again);
    await again.close();
  });

  it("reports a checksummed record that is not JSON as a corrupt store when it is read", async () => {
    const directory = await tempDirectory();
    const payload = '{"seq":1,"transactions":[{"put":[["things",{"id":"bad","x":tru},{"scope":"s"}]]}]}';
    await writeFile(
      join(directory, FILES.segment(1)),
      Buffer.concat([encodeHeader(JOURNAL_MAGIC, 1), encodeFrame(payload)]),
    );
    const store = await FileStore.open(directory);
    const error = await store.read((reader) => reader.get("things", "bad")).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "INTERNAL", details: { reason: "STORE_CORRUPT", id: "bad" } });
    await store.close();
  });
});

describe("FileStore: torn tails", () => {
  it("opens with the committed prefix when the journal is cut at any byte, and appends after it", async () => {
    const count = 8;
    const original = await storeWithRecords(count);
    const { bytes, frameEnds } = await onlySegment(original);
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const cuts = [0, 5, HEADER_BYTES, ...frameEnds.slice(0, -1)];
    while (cuts.length < 30) cuts.push(Math.floor(random() * bytes.length));
    for (const cut of cuts) {
      const directory = await copyDirectory(original);
      await truncate(join(directory, FILES.segment(1)), cut);
      const store = await FileStore.open(directory);
      const survivors = frameEnds.filter((end) => end <= cut).length;
      const cleanCut = cut === 0 || cut === HEADER_BYTES || frameEnds.includes(cut);
      if (cleanCut) {
        expect(store.recovery.tornTail, `cut at ${cut}`).toBeUndefined();
      } else {
        const offset = survivors === 0 ? (cut < HEADER_BYTES ? 0 : HEADER_BYTES) : (frameEnds[survivors - 1] as number);
        expect(store.recovery.tornTail, `cut at ${cut}`).toEqual({
          file: FILES.segment(1),
          offset,
          discardedBytes: cut - offset,
          reason: expect.any(String),
        });
      }
      expect(store.recovery.sequence).toBe(survivors);
      await store.read(async (r) => expect(await ids(r)).toEqual(Array.from({ length: survivors }, (_, n) => pad(n))));
      await put(store, pad(100), "after");
      await store.close();

      const reopened = await FileStore.open(directory);
      expect(reopened.recovery.tornTail).toBeUndefined();
      await reopened.read(async (r) => {
        expect(await ids(r)).toEqual([...Array.from({ length: survivors }, (_, n) => pad(n)), pad(100)]);
        expect(await r.lookup("byKey", "after")).toBe(pad(100));
      });
      await reopened.close();
    }
  });

  it("cuts a zero-filled tail such as a crash can leave after the file grew", async () => {
    const directory = await storeWithRecords(3);
    const { path, bytes } = await onlySegment(directory);
    await appendFile(path, Buffer.alloc(4096));
    const store = await FileStore.open(directory);
    expect(store.recovery.tornTail).toMatchObject({ offset: bytes.length, discardedBytes: 4096 });
    await store.read(async (r) => expect(await ids(r)).toEqual([pad(0), pad(1), pad(2)]));
    await store.close();
    expect((await stat(path)).size).toBe(bytes.length);
  });

  it("recovers from a crash while a new segment was being created", async () => {
    const directory = await storeWithRecords(3);
    await writeFile(join(directory, FILES.segment(2)), Buffer.from("CUSTJ"));
    const store = await FileStore.open(directory);
    expect(store.recovery.tornTail).toMatchObject({ file: FILES.segment(2), offset: 0, discardedBytes: 5 });
    await put(store, pad(3), "k3");
    await store.close();
    const reopened = await FileStore.open(directory);
    expect(reopened.recovery).toMatchObject({ sequence: 4, tornTail: undefined });
    await reopened.read(async (r) => expect(await ids(r)).toEqual([pad(0), pad(1), pad(2), pad(3)]));
    await reopened.close();
  });
});

describe("FileStore: corruption", () => {
  it("refuses a journal whose damaged record is followed by valid ones, naming the file and offset", async () => {
    const original = await storeWithRecords(5);
    const { bytes, frameEnds } = await onlySegment(original);
    const second = frameEnds[0] as number;
    // The frame marker, the length, the checksum and the payload of the second record.
    for (const at of [second, second + 5, second + 9, second + 20]) {
      const directory = await copyDirectory(original);
      const damaged = Buffer.from(bytes);
      damaged[at] = (damaged[at] as number) ^ 0x40;
      await writeFile(join(directory, FILES.segment(1)), damaged);
      const error = await openError(directory);
      expect(error.code).toBe("INTERNAL");
      expect(error.details).toMatchObject({ reason: "STORE_CORRUPT", file: FILES.segment(1), offset: second });
      expect(error.message).toContain(`at byte ${second}`);
      // The failed open leaves the directory unlocked and untouched.
      expect(await readdir(directory)).not.toContain(FILES.lock);
      expect(await readFile(join(directory, FILES.segment(1)))).toEqual(damaged);
    }
  });

  it("refuses a damaged snapshot", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    for (let n = 0; n < 5; n++) await put(store, pad(n), `k${n}`);
    await store.snapshot();
    await store.close();
    const path = join(directory, FILES.snapshot);
    const bytes = await readFile(path);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] as number) ^ 0x01;
    await writeFile(path, bytes);
    const error = await openError(directory);
    expect(error).toMatchObject({ code: "INTERNAL", details: { reason: "STORE_CORRUPT", file: FILES.snapshot } });
  });

  it("refuses a journal with missing transactions", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    for (let n = 0; n < 3; n++) await put(store, pad(n), `k${n}`);
    await store.snapshot();
    await put(store, pad(3), "k3");
    await store.close();
    await rm(join(directory, FILES.snapshot));
    const error = await openError(directory);
    expect(error).toMatchObject({ code: "INTERNAL", details: { reason: "STORE_CORRUPT", file: FILES.segment(2) } });
    expect(error.message).toContain("transactions 1 to 3 are missing");
  });

  it("refuses a flush whose sequence number is not a positive whole number", async () => {
    for (const seq of ["0", "-1", "1.5"]) {
      const directory = await tempDirectory();
      const payload = `{"seq":${seq},"transactions":[{"put":[["things",{"id":"a"},{"scope":"s"}]]}]}`;
      await writeFile(
        join(directory, FILES.segment(1)),
        Buffer.concat([encodeHeader(JOURNAL_MAGIC, 1), encodeFrame(payload)]),
      );
      const error = await openError(directory);
      expect(error).toMatchObject({ code: "INTERNAL", details: { reason: "STORE_CORRUPT", file: FILES.segment(1) } });
    }
  });

  it("refuses files written by a newer format version", async () => {
    const directory = await storeWithRecords(2);
    const path = join(directory, FILES.segment(1));
    const bytes = await readFile(path);
    bytes.writeUInt32LE(2, 8);
    await writeFile(path, bytes);
    const error = await openError(directory);
    expect(error).toMatchObject({
      code: "FAILED_PRECONDITION",
      details: { reason: "STORE_FORMAT_UNSUPPORTED", version: 2, supported: 1 },
    });
  });
});

describe("FileStore: directory lock", () => {
  it("refuses a second open of a directory in use, naming the holder", async () => {
    const directory = await tempDirectory();
    const store = await FileStore.open(directory);
    const before = Date.now();
    const error = await openError(directory);
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error.details).toMatchObject({
      reason: "STORE_LOCKED",
      directory,
      holder: { pid: process.pid, hostname: hostname() },
    });
    const since = Date.parse((error.details.holder as { since: string }).since);
    expect(since).toBeLessThanOrEqual(before);
    expect(error.message).toContain(`pid ${process.pid} on ${hostname()}`);
    // The refused open must not have disturbed the holder.
    await put(store, pad(1), "k1");
    await store.close();
  });

  it("releases the lock on close", async () => {
    const directory = await tempDirectory();
    const first = await FileStore.open(directory);
    await first.close();
    expect(await readdir(directory)).not.toContain(FILES.lock);
    const second = await FileStore.open(directory);
    expect(second.recovery.staleLock).toBeUndefined();
    await second.close();
  });

  it("takes over a stale lock left by a process that is gone", async () => {
    const directory = await storeWithRecords(2);
    const pid = deadPid();
    const stale = { pid, hostname: hostname(), since: "2020-01-01T00:00:00.000Z", token: "left-behind" };
    await writeFile(join(directory, FILES.lock), JSON.stringify(stale));
    const store = await FileStore.open(directory);
    expect(store.recovery.staleLock).toEqual({ pid, hostname: hostname(), since: stale.since });
    await store.read(async (r) => expect(await ids(r)).toEqual([pad(0), pad(1)]));
    const lock = JSON.parse(await readFile(join(directory, FILES.lock), "utf8"));
    expect(lock.pid).toBe(process.pid);
    await store.close();
  });

  it("never takes over a lock held from another host", async () => {
    const directory = await tempDirectory();
    const holder = { pid: deadPid(), hostname: `not-${hostname()}`, since: "2020-01-01T00:00:00.000Z", token: "x" };
    await writeFile(join(directory, FILES.lock), JSON.stringify(holder));
    const error = await openError(directory);
    expect(error).toMatchObject({
      code: "FAILED_PRECONDITION",
      details: { reason: "STORE_LOCKED", holder: { pid: holder.pid, hostname: holder.hostname, since: holder.since } },
    });
  });

  it("refuses a lock file that does not name its holder", async () => {
    const directory = await tempDirectory();
    await writeFile(join(directory, FILES.lock), "");
    const error = await openError(directory);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION", details: { reason: "STORE_LOCKED" } });
  });
});
