/**
 * The in-process body's canonical text and copy (#19): the text is what the engine fingerprints and records, so
 * it must not change from one version to the next; the copy must be exactly what parsing that text gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalForm } from "../../src/model/canonical-json.js";

/** Stringify with keys sorted at every level: the canonical text, for keys that are not array indices. */
function sortedStringify(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== "object" || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  });
}

// Keys that V8 would not reorder (no array indices), so the reference above keeps them sorted.
const key = fc.string({ maxLength: 6 }).filter((text) => !/^(0|[1-9][0-9]*)$/.test(text) && text !== "__proto__");
const leaf = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY),
);
const body = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 4 }),
})).object;

describe("canonicalForm", () => {
  it("prints sorted JSON and copies exactly what that text parses to", () => {
    fc.assert(
      fc.property(body, (value) => {
        const { text, copy } = canonicalForm(value);
        expect(text).toBe(sortedStringify(value));
        expect(copy).toStrictEqual(JSON.parse(text));
        expect(JSON.stringify(copy)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the text every earlier version fingerprinted, for the cases JSON handles unusually", () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const cases: [unknown, string][] = [
      [{ b: 1, a: [undefined, -0, Number.NaN], c: undefined }, '{"a":[null,0,null],"b":1}'],
      // Sorted as strings, whatever order V8 lists index-like keys in.
      [{ 9: "nine", 10: "ten", a: "a" }, '{"10":"ten","9":"nine","a":"a"}'],
      [sparse, "[1,null,3]"],
      [{ when: new Date(0) }, '{"when":{}}'],
      ["text", '"text"'],
    ];
    for (const [value, text] of cases) {
      expect(canonicalForm(value).text).toBe(text);
      expect(canonicalForm(value).copy).toStrictEqual(JSON.parse(text));
    }
  });

  it("copies a __proto__ member as plain data, as JSON.parse does", () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
    const { text, copy } = canonicalForm(value);
    expect(text).toBe('{"__proto__":{"polluted":true},"x":1}');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy as object)).toEqual(["__proto__", "x"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads each member once, so a getter cannot make the copy differ from the text", () => {
    let reads = 0;
    const value = {
      get payload() {
        reads++;
        return `read ${reads}`;
      },
    };
    const { text, copy } = canonicalForm(value);
    expect(reads).toBe(1);
    expect(copy).toEqual(JSON.parse(text));
  });

  it("prints a value as its primitive's toJSON prints it, even an object with unsorted keys", () => {
    const prototype = BigInt.prototype as { toJSON?: () => unknown };
    prototype.toJSON = function (this: bigint) {
      return { z: this.toString(), a: 1 };
    };
    try {
      const { text, copy } = canonicalForm({ b: 2n, a: [3n] });
      expect(text).toBe('{"a":[{"z":"3","a":1}],"b":{"z":"2","a":1}}');
      expect(copy).toStrictEqual(JSON.parse(text));
    } finally {
      delete prototype.toJSON;
    }
  });

  it("refuses what JSON cannot hold", () => {
    expect(() => canonicalForm({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalForm({ n: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalForm(cycle)).toThrow(RangeError);
  });
});
