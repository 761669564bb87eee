/**
 * Records held packed (`warmRecords`): MemoryStore and FileStore pack what has not been read for a while and decode
 * it when read. With `warmRecords: 0` every committed record is packed at once, so the whole storage contract runs
 * against packed records, and reads must give back records equal to those written, key order and odd values
 * included.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { MemoryStore } from "../../src/index.js";
import { FileStore } from "../../src/storage/file/index.js";
import type { Store, StoredRecord } from "../../src/storage/store.js";
import { runStoreContract } from "./contract.js";

async function tempDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), "custodian-packing-"));
}

runStoreContract("MemoryStore (every record packed)", async () => new MemoryStore({ warmRecords: 0 }));
runStoreContract("FileStore (every record packed)", async () =>
  FileStore.open(await tempDirectory(), { warmRecords: 0 }),
);

const uuid = "01a21c53-b10a-7004-8f08-f56f85c5cea3";
const hex64 = "9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658";

/** Values each encoding has to give back exactly, and near misses of each that must stay text. */
function awkward(n: number): StoredRecord {
  const body = JSON.stringify({ organizationId: uuid, parameters: { payload: `0x${hex64}`, n }, timestampMs: "17957" });
  return {
    id: `${uuid.slice(0, -2)}${String(n).padStart(2, "0")}`,
    organizationId: uuid,
    upperUuid: uuid.toUpperCase(),
    almostUuid: `${uuid.slice(0, -1)}g`,
    hex: hex64,
    upperHex: hex64.toUpperCase(),
    oddHex: hex64.slice(1),
    prefixed: `0x${hex64}`,
    fingerprint: `sha256:${hex64}`,
    mixedCaseAddress: "0xa1E42F72ad58983BE4CD3E09cede16108489df57",
    digits: "1795771576735",
    leadingZero: "0123456",
    longDigits: "12345678901234567890",
    zero: "0",
    empty: "",
    unicode: "größe ✓ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    latin1: "café naïve",
    nul: "a\u0000b",
    body,
    bodyAgain: body,
    numbers: [0, -0, 1, -1, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53 + 2, 1.5, -2.25, 1e-300, Number.MAX_VALUE],
    nonFinite: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
    flags: [true, false, null],
    nested: { a: { b: { c: [[], {}, [[{}]]] } }, "": "empty key", "key with \u00e9": 1 },
    ["__proto__"]: { polluted: true },
    absent: undefined,
    n,
  } as unknown as StoredRecord;
}

describe("packed records", () => {
  it("read back equal to what was written, key order and odd values included", async () => {
    const store = new MemoryStore({ warmRecords: 0 });
    const written = Array.from({ length: 5 }, (_, n) => awkward(n));
    await store.transaction(async (tx) => {
      for (const record of written)
        await tx.put("things", record, { scope: uuid, keys: { byHex: `${record.id}:${hex64}` } });
    });
    const read = await store.read((reader) => reader.list("things", uuid));
    expect(read).toHaveLength(written.length);
    for (const [i, record] of read.entries()) {
      const expected = written[i] as StoredRecord;
      expect(record).toStrictEqual(expected);
      expect(Object.keys(record)).toEqual(Object.keys(expected));
      expect(Object.is((record.numbers as number[])[1], -0)).toBe(true);
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(Object.hasOwn(record, "__proto__")).toBe(true);
      expect(Object.isFrozen(record) && Object.isFrozen(record.nested)).toBe(true);
    }
    expect(await store.read((reader) => reader.lookup("byHex", `${written[2]?.id}:${hex64}`))).toBe(written[2]?.id);
  });

  it("keeps a record holding what packing cannot keep (a Date, a hole, a lone surrogate) as it was", async () => {
    const store = new MemoryStore({ warmRecords: 0 });
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const record = { id: "d", at: new Date(0), sparse, lone: "\ud800x" } as unknown as StoredRecord;
    await store.transaction(async (tx) => tx.put("things", record, { scope: "s" }));
    const read = (await store.read((reader) => reader.get("things", "d"))) as Record<string, unknown>;
    expect(read.at).toEqual(new Date(0));
    expect(1 in (read.sparse as unknown[])).toBe(false);
    expect(read.sparse).toStrictEqual(sparse);
    const lone = { id: "e", text: "a\udc00b" } as StoredRecord;
    await store.transaction(async (tx) => tx.put("things", lone, { scope: "s" }));
    expect(await store.read((reader) => reader.get("things", "e"))).toStrictEqual(lone);
  });

  it("gives back one object for reads close together, and a value several records share as that same object", async () => {
    const store = new MemoryStore({ warmRecords: 2 });
    const shared = [{ policyId: "p", outcome: "OUTCOME_ALLOW" }];
    await store.transaction(async (tx) =>
      tx.put("things", { id: "r0", shared } as unknown as StoredRecord, { scope: "s" }),
    );
    // Records built from a stored one share its parts (see memory-sharing.test.ts), as the engine's do.
    const stored = (await store.read((reader) => reader.get("things", "r0"))) as StoredRecord;
    await store.transaction(async (tx) => {
      for (let n = 1; n < 10; n++) await tx.put("things", { ...stored, id: `r${n}` }, { scope: "s" });
    });
    const [first, again] = await store.read(async (reader) => [
      await reader.get("things", "r0"),
      await reader.get("things", "r0"),
    ]);
    expect(again).toBe(first);
    const all = await store.read((reader) => reader.list("things", "s"));
    const lists = new Set(all.map((record) => record.shared));
    expect(lists.size).toBeLessThanOrEqual(2);
    for (const record of all) expect(record.shared).toStrictEqual(shared);
  });

  it("survive a FileStore reopen and read the same after it", async () => {
    const directory = await tempDirectory();
    let store: Store = await FileStore.open(directory, { warmRecords: 0 });
    const written = Array.from({ length: 20 }, (_, n) => awkward(n));
    await store.transaction(async (tx) => {
      for (const record of written) await tx.put("things", record, { scope: uuid });
    });
    const before = await store.read((reader) => reader.list("things", uuid));
    await store.close();
    store = await FileStore.open(directory, { warmRecords: 0 });
    const after = await store.read((reader) => reader.list("things", uuid));
    await store.close();
    // JSON on disk drops undefined members and turns -0, NaN and infinities into 0 and null, as FileStore always did.
    expect(after).toStrictEqual(JSON.parse(JSON.stringify(before)));
  });

  it("refuses a warmRecords that is not a whole number of at least 0", () => {
    for (const warmRecords of [-1, 1.5, Number.NaN]) {
      expect(() => new MemoryStore({ warmRecords })).toThrow(CustodyError);
    }
    expect(() => new MemoryStore({ warmRecords: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
