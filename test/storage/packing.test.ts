/**
 * Records held packed (`warmRecords`): MemoryStore and FileStore pack what has not been read for a while and decode
 * it when read. With `warmRecords: 0` every committed record is packed at once, so the whole storage contract runs
 * against packed records, and reads must give back records equal to those written, key order and odd values
 * included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { MemoryStore } from "../../src/index.js";
import { FileStore } from "../../src/storage/file/index.js";
import { pack, unpack } from "../../src/storage/packing.js";
import type { Store, StoredRecord } from "../../src/storage/store.js";
import { tempDirectories } from "../support/temp-directories.js";
import { runStoreContract } from "./contract.js";

const tempDirectory = tempDirectories("packing");

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

/** `value` and `expected` equal as `toStrictEqual` sees them, with keys in the same order at every level. */
function expectSameOrder(value: unknown, expected: unknown): void {
  if (typeof expected !== "object" || expected === null) return;
  expect(Object.keys(value as object)).toEqual(Object.keys(expected));
  for (const key of Object.keys(expected)) {
    expectSameOrder((value as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]);
  }
}

/** Packs and unpacks `record` as a store does, and checks that it comes back exactly. */
function roundTrip(record: StoredRecord, seeds: readonly string[]): void {
  const packed = pack(record, seeds);
  if (packed === undefined) return;
  const read = unpack(packed, seeds);
  expect(read).toStrictEqual(record);
  expectSameOrder(read, record);
}

const hexDigit = fc.constantFrom(..."0123456789abcdef");
const hex = (minLength: number, maxLength: number) => fc.string({ unit: hexDigit, minLength, maxLength });
/** Strings on and just off each form packing keeps as data, and text of every kind. */
const atom = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.uuid().map((id) => `${id.slice(0, 35)}g`),
  hex(14, 70),
  fc.tuple(fc.string({ maxLength: 18 }), hex(15, 66)).map(([prefix, digits]) => prefix + digits),
  fc.tuple(fc.constantFrom("0x", "sha256:", "0X", "x"), hex(1, 66)).map(([prefix, digits]) => prefix + digits),
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 20n }).map((n) => `0${n}`),
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 24 }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("ACTIVITY_STATUS_COMPLETED", "PAYLOAD_ENCODING_HEXADECIMAL", "", "00", "0"),
);
const scalar = fc.oneof(
  atom,
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 2 ** 53, -(2 ** 53) + 1, true, false, null, undefined),
);

/**
 * A request body as records hold it: fixed text from a small set (so that it recurs across records, as the parts of
 * stamped bodies do) around values the record also holds elsewhere, data, and text of its own.
 */
function body(values: readonly string[]) {
  const fixed = fc.constantFrom('{"organizationId":"', '","parameters":{"payload":"', '"},"timestampMs":"', '"}', ", ");
  const piece = fc.oneof(
    fixed,
    fixed,
    values.length > 0 ? fc.constantFrom(...values) : fixed,
    fc.bigInt({ min: 10n ** 5n, max: 10n ** 16n }).map(String),
    hex(16, 40),
    fc.string({ maxLength: 24 }),
  );
  return fc.array(piece, { minLength: 1, maxLength: 14 }).map((pieces) => pieces.join(""));
}

/** Records of a few shapes (so that places recur), each with a body built from its own values. */
const record = fc
  .record({
    id: fc.uuid(),
    scope: fc.oneof(fc.uuid(), fc.constantFrom("org", "")),
    kind: fc.constantFrom("a", "b"),
    values: fc.array(atom, { maxLength: 6 }),
    extra: fc.dictionary(fc.constantFrom("x", "y", "__proto__", "", "é"), scalar, { maxKeys: 3 }),
    nested: fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxLength: 4 }),
  })
  .chain(({ id, scope, kind, values, extra, nested }) =>
    body([id, scope, ...values]).map((message): { record: StoredRecord; seeds: string[] } => {
      const fields: Record<string, unknown> =
        kind === "a"
          ? { id, organizationId: scope, values, votes: [{ id, message }], nested }
          : { id, values, message, extra, nested };
      return { record: fields as StoredRecord, seeds: [id, scope] };
    }),
  );

describe("pack and unpack", () => {
  it("give back any record exactly, over streams of records of recurring shapes and bodies", () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 30 }), (records) => {
        for (const { record: one, seeds } of records) roundTrip(one, seeds);
      }),
      { numRuns: 300 },
    );
  });

  it("start with a tag below U+0020, never `{`: an entry tells a packed record from a reopened record's JSON text by it", () => {
    fc.assert(
      fc.property(record, ({ record: one, seeds }) => {
        const packed = pack(one, seeds);
        if (packed !== undefined) expect(packed.charCodeAt(0)).toBeLessThan(0x20);
      }),
      { numRuns: 300 },
    );
  });

  it("give back bodies cut by a remembered template when their values move, vanish or repeat its fixed parts", () => {
    const org = "01a21d1b-6a69-7000-b9f1-c07b010dd21f";
    const address = "0xa1e42f72ad58983be4cd3e09cede16108489df57";
    const bodyOf = (payload: string, signWith: string, timestamp: string) =>
      `{"organizationId":"${org}","parameters":{"payload":"${payload}","signWith":"${signWith}"},"timestampMs":"${timestamp}"}`;
    const messages = [
      bodyOf("hello", address, "1795784666688"),
      bodyOf("hello", address, "1795784666689"),
      bodyOf("hello again", address, "1795784666690"),
      bodyOf("hello", address, "1795784666691"),
      // A value holding the text that follows it in the template.
      bodyOf('x","signWith":"', address, "1795784666692"),
      // The address is no longer a value of the record, so no longer a sibling to find.
      bodyOf("hello", "someone else entirely, at length", "1795784666693"),
      // Cut short, and grown past the template's end.
      `{"organizationId":"${org}","parameters":{"payload":"`,
      `${bodyOf("hello", address, "1795784666694")} and more text after it, 1795784666694`,
      bodyOf("", "", ""),
      bodyOf("héllo ✓ 𝔘", address, "01795784666695"),
      bodyOf("hello", address, "1795784666696"),
    ];
    for (const [n, message] of messages.entries()) {
      const id = `01a21d1b-6e40-7001-ad51-ad253f6cf5${String(n).padStart(2, "0")}`;
      const signWith = n === 5 ? "someone" : address;
      for (const place of ["first", "second"]) {
        const record = { id, organizationId: org, signWith, place, votes: [{ id, message }] } as StoredRecord;
        roundTrip(record, [id, org]);
      }
    }
  });
});
