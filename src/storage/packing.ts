/**
 * The compact form of a committed record that has not been read for a while: one one-byte string per record,
 * decoded back into an equal frozen record when it is read again. A million stored activities kept as object
 * trees cost some 2.5 KB of heap each (objects, property arrays, hash tables, and every id, hex value and request
 * body as its own string); packed, the same record is a few hundred bytes.
 *
 * The encoding is schema-free (any JSON record, plus `undefined`, `-0` and non-finite numbers, which a
 * MemoryStore keeps) and loses nothing, so a read gives back a record equal to the one written, key order
 * included. It is compact because records are repetitive:
 * - ids (UUIDs), lowercase hex (signatures, digests, `0x` payloads, `sha256:` fingerprints) and decimal strings
 *   are kept as bytes and numbers, not text;
 * - strings that recur across records (enumeration values, organization and user names, the fixed parts of
 *   request bodies) are kept once, in a table shared by every record, and referred to by number;
 * - a string equal to one the record already holds (its id, scope or index keys, a value named twice) is a
 *   reference to it, and a long string (a stamped request body) is cut into the record's own values, table
 *   strings and what is left;
 * - object key lists are kept once, as shapes, and an array or object met in two records by identity (the
 *   policy module's shared evaluation list) is kept once and handed back as that same object.
 *
 * The shared tables are bounded and only grow, so what a client invents cannot grow them without limit; once one
 * is full, values are written out in full instead.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { freezeBranded } from "../common/deep-frozen.js";
import type { StoredRecord } from "./store.js";

enum Tag {
  Null = 0,
  True = 1,
  False = 2,
  Undefined = 3,
  Uint = 4,
  NegativeInt = 5,
  Double = 6,
  Latin1 = 7,
  Utf8 = 8,
  Interned = 9,
  Uuid = 10,
  Hex = 11,
  Digits = 12,
  Sibling = 13,
  Composite = 14,
  Array = 15,
  Object = 16,
  ObjectInline = 17,
  Shared = 18,
  Hole = 19,
}

const MAX_INTERNED = 65_536;
const MAX_INTERN_LENGTH = 128;
const MAX_CANDIDATES = 16_384;
const MAX_SHAPES = 65_536;
const MAX_SHARED = 4_096;
/** Strings at least this long are remembered for references from later values of the same record. */
const SIBLING_MIN = 8;
/** Strings at least this long are cut into references and remaining parts. */
const COMPOSITE_MIN = 48;
/**
 * Only values at least this long are looked for inside a long string: ids, addresses, payloads. Shorter ones
 * (enumeration values) end up in the parts between them, which recur and are kept in the table.
 */
const CUT_MIN = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PREFIXED_HEX = /^([\x20-\x7e]{0,16}?)((?:[0-9a-f]{2}){8,})$/;
const DIGITS = /^(?:0|[1-9][0-9]{0,14})$/;
/** A character beyond Latin-1 (U+0100 and up): such text is kept as UTF-8. */
const NOT_LATIN1 = /[\u0100-\uffff]/;
/** In Unicode mode a surrogate pair is one code point, so only an unpaired surrogate is category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Runs inside a long string's leftover parts that are data, not text: digits and hex, cut out to be kept as such. */
const DATA_RUN = /[0-9]{6,}|[0-9a-f]{16,}/g;

/** Strings kept once for every record: index → string, and back. */
const internedStrings: string[] = [];
const internedIndex = new Map<string, number>();
/** Strings seen once: a second sighting interns them. Cleared when full, so it stays bounded. */
let candidates = new Set<string>();

/** Object key lists, as a trie keyed by each next key, numbered in the order first met. */
interface ShapeNode {
  readonly next: Map<string, ShapeNode>;
  index: number;
}
const shapeRoot: ShapeNode = { next: new Map(), index: -1 };
const shapes: string[][] = [];

/** Arrays and objects met in more than one record, kept by identity. */
const sharedValues: object[] = [];
const sharedIndex = new WeakMap<object, number>();
/**
 * Arrays and objects packed lately, to notice one met again. Few and recent on purpose: a value shared by many
 * records recurs within a few records, and a table of every packed value would cost more than the records.
 */
const MAX_SIGHTINGS = 256;
let sightings = new Set<object>();

function sighted(value: object): void {
  if (sightings.size >= MAX_SIGHTINGS) sightings = new Set();
  sightings.add(value);
}

/** What packing cannot keep (a value that is not plain data); such a record stays unpacked. */
class Unpackable extends Error {}

class Writer {
  bytes = Buffer.allocUnsafeSlow(4096);
  at = 0;

  reserve(count: number): void {
    if (this.at + count <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.at + count));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  byte(value: number): void {
    this.reserve(1);
    this.bytes[this.at++] = value;
  }

  varint(value: number): void {
    this.reserve(8);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.at++] = rest;
  }
}

const writer = new Writer();
const float = new Float64Array(1);
const floatBytes = new Uint8Array(float.buffer);

/** One record's packing: the strings it holds so far, for references back to them. */
class Packing {
  readonly siblings: string[] = [];

  constructor(seeds: readonly string[]) {
    for (const seed of seeds) this.siblings.push(seed);
  }

  value(value: unknown): void {
    switch (typeof value) {
      case "string":
        this.string(value, true);
        return;
      case "number":
        this.number(value);
        return;
      case "boolean":
        writer.byte(value ? Tag.True : Tag.False);
        return;
      case "undefined":
        writer.byte(Tag.Undefined);
        return;
      case "object":
        if (value === null) writer.byte(Tag.Null);
        else this.composite(value);
        return;
      default:
        throw new Unpackable();
    }
  }

  private number(value: number): void {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
      writer.byte(value >= 0 ? Tag.Uint : Tag.NegativeInt);
      writer.varint(Math.abs(value));
      return;
    }
    writer.byte(Tag.Double);
    float[0] = value;
    writer.reserve(8);
    writer.bytes.set(floatBytes, writer.at);
    writer.at += 8;
  }

  private composite(value: object): void {
    const shared = sharedIndex.get(value);
    if (shared !== undefined) {
      writer.byte(Tag.Shared);
      writer.varint(shared);
      return;
    }
    if (sightings.has(value) && sharedValues.length < MAX_SHARED) {
      sightings.delete(value);
      sharedIndex.set(value, sharedValues.length);
      sharedValues.push(value);
      writer.byte(Tag.Shared);
      writer.varint(sharedValues.length - 1);
      return;
    }
    if (Array.isArray(value)) {
      sighted(value);
      writer.byte(Tag.Array);
      writer.varint(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (item === undefined && !(i in value)) writer.byte(Tag.Hole);
        else this.value(item);
      }
      return;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new Unpackable();
    // An object without the plain prototype would come back with it; rare enough to leave unpacked.
    if (prototype === null) throw new Unpackable();
    sighted(value);
    const keys = Object.keys(value);
    const shape = shapeOf(keys);
    const source = value as Record<string, unknown>;
    if (shape === undefined) {
      writer.byte(Tag.ObjectInline);
      writer.varint(keys.length);
      for (const key of keys) {
        this.string(key, false);
        this.value(source[key]);
      }
      return;
    }
    writer.byte(Tag.Object);
    writer.varint(shape);
    for (const key of keys) this.value(source[key]);
  }

  /** Writes `text`; `whole` allows cutting it into parts (not for the parts themselves). */
  string(text: string, whole: boolean): void {
    const length = text.length;
    if (length >= SIBLING_MIN) {
      const sibling = this.siblingOf(text);
      if (sibling >= 0) {
        writer.byte(Tag.Sibling);
        writer.varint(sibling);
        return;
      }
    }
    if (whole && length >= COMPOSITE_MIN && this.cut(text)) {
      this.siblings.push(text);
      return;
    }
    this.plain(text);
    if (length >= SIBLING_MIN) this.siblings.push(text);
  }

  private siblingOf(text: string): number {
    const siblings = this.siblings;
    for (let i = 0; i < siblings.length; i++) if (siblings[i] === text) return i;
    return -1;
  }

  /** Writes a long string as parts: the record's own values found in it, and what lies between them. */
  private cut(text: string): boolean {
    const found: [start: number, end: number, sibling: number][] = [];
    const siblings = this.siblings;
    for (let i = 0; i < siblings.length; i++) {
      const sibling = siblings[i] as string;
      if (sibling.length < CUT_MIN || sibling.length > text.length) continue;
      for (let at = text.indexOf(sibling); at >= 0; at = text.indexOf(sibling, at + sibling.length)) {
        found.push([at, at + sibling.length, i]);
      }
    }
    const parts: (string | number)[] = [];
    let at = 0;
    if (found.length > 0) {
      found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      for (const [start, end, sibling] of found) {
        if (start < at) continue;
        if (start > at) splitData(text.slice(at, start), parts);
        parts.push(sibling);
        at = end;
      }
    }
    if (at < text.length) splitData(at === 0 ? text : text.slice(at), parts);
    if (parts.length < 2) return false;
    writer.byte(Tag.Composite);
    writer.varint(parts.length);
    for (const part of parts) {
      if (typeof part === "number") {
        writer.byte(Tag.Sibling);
        writer.varint(part);
      } else this.plain(part);
    }
    return true;
  }

  /** A string as data (UUID, hex, decimal), a table reference, or its text. */
  private plain(text: string): void {
    const length = text.length;
    if (length === 36 && UUID.test(text)) {
      writer.byte(Tag.Uuid);
      writeHex(text.replaceAll("-", ""));
      return;
    }
    if (length >= 16) {
      const hex = PREFIXED_HEX.exec(text);
      if (hex) {
        writer.byte(Tag.Hex);
        this.string(hex[1] as string, false);
        writer.varint((hex[2] as string).length / 2);
        writeHex(hex[2] as string);
        return;
      }
    }
    if (length > 0 && length <= 15 && DIGITS.test(text)) {
      writer.byte(Tag.Digits);
      writer.varint(Number(text));
      return;
    }
    const interned = intern(text);
    if (interned !== undefined) {
      writer.byte(Tag.Interned);
      writer.varint(interned);
      return;
    }
    if (NOT_LATIN1.test(text)) {
      // UTF-8 cannot hold a lone surrogate; a record with one stays unpacked rather than come back changed.
      if (LONE_SURROGATE.test(text)) throw new Unpackable();
      const size = Buffer.byteLength(text, "utf8");
      writer.byte(Tag.Utf8);
      writer.varint(size);
      writer.reserve(size);
      writer.at += writer.bytes.write(text, writer.at, size, "utf8");
      return;
    }
    writer.byte(Tag.Latin1);
    writer.varint(length);
    writer.reserve(length);
    writer.at += writer.bytes.write(text, writer.at, length, "latin1");
  }
}

/** Cuts digit and hex runs out of `text` so that they are kept as data; pushes the pieces to `parts`. */
function splitData(text: string, parts: (string | number)[]): void {
  let at = 0;
  DATA_RUN.lastIndex = 0;
  for (let match = DATA_RUN.exec(text); match !== null; match = DATA_RUN.exec(text)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push(match[0]);
    at = match.index + match[0].length;
  }
  if (at === 0) parts.push(text);
  else if (at < text.length) parts.push(text.slice(at));
}

function writeHex(hex: string): void {
  const count = hex.length / 2;
  writer.reserve(count);
  writer.at += writer.bytes.write(hex, writer.at, count, "hex");
}

/** The table index of `text` once it has been seen twice, while the table has room. */
function intern(text: string): number | undefined {
  const known = internedIndex.get(text);
  if (known !== undefined) return known;
  if (text.length > MAX_INTERN_LENGTH || internedStrings.length >= MAX_INTERNED) return undefined;
  if (!candidates.has(text)) {
    if (candidates.size >= MAX_CANDIDATES) candidates = new Set();
    candidates.add(text);
    return undefined;
  }
  candidates.delete(text);
  internedIndex.set(text, internedStrings.length);
  internedStrings.push(text);
  return internedStrings.length - 1;
}

function shapeOf(keys: readonly string[]): number | undefined {
  let node = shapeRoot;
  for (const key of keys) {
    let next = node.next.get(key);
    if (next === undefined) {
      if (shapes.length >= MAX_SHAPES) return undefined;
      next = { next: new Map(), index: -1 };
      node.next.set(key, next);
    }
    node = next;
  }
  if (node.index < 0) {
    if (shapes.length >= MAX_SHAPES) return undefined;
    node.index = shapes.length;
    shapes.push([...keys]);
  }
  return node.index;
}

/**
 * The packed form of `record`, or undefined when it holds something packing cannot keep. `seeds` are strings the
 * reader hands back to {@link unpack} (the id, the scope, the index keys): values equal to them cost a reference.
 */
export function pack(record: StoredRecord, seeds: readonly string[]): string | undefined {
  writer.at = 0;
  try {
    new Packing(seeds).value(record);
  } catch (error) {
    if (error instanceof Unpackable) return undefined;
    throw error;
  }
  return writer.bytes.toString("latin1", 0, writer.at);
}

let readBytes = Buffer.allocUnsafeSlow(4096);
let textBytes = Buffer.allocUnsafeSlow(128);

/** Reads one packed record back. Not reentrant: nothing it calls can call it. */
class Unpacking {
  at = 0;
  readonly siblings: string[] = [];

  constructor(seeds: readonly string[]) {
    for (const seed of seeds) this.siblings.push(seed);
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = readBytes[this.at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  value(): unknown {
    const tag = readBytes[this.at++] as Tag;
    switch (tag) {
      case Tag.Null:
        return null;
      case Tag.True:
        return true;
      case Tag.False:
        return false;
      case Tag.Undefined:
        return undefined;
      case Tag.Uint:
        return this.varint();
      case Tag.NegativeInt:
        return -this.varint();
      case Tag.Double: {
        floatBytes.set(readBytes.subarray(this.at, this.at + 8));
        this.at += 8;
        return float[0];
      }
      case Tag.Array: {
        const length = this.varint();
        const array: unknown[] = new Array(length);
        for (let i = 0; i < length; i++) {
          if (readBytes[this.at] === Tag.Hole) this.at++;
          else array[i] = this.value();
        }
        return freezeBranded(array);
      }
      case Tag.Object: {
        const keys = shapes[this.varint()] as string[];
        const object: Record<string, unknown> = {};
        for (const key of keys) setMember(object, key, this.value());
        return freezeBranded(object);
      }
      case Tag.ObjectInline: {
        const count = this.varint();
        const object: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) {
          const key = this.string(readBytes[this.at++] as Tag);
          setMember(object, key, this.value());
        }
        return freezeBranded(object);
      }
      case Tag.Shared:
        return sharedValues[this.varint()];
      default:
        return this.string(tag);
    }
  }

  string(tag: Tag): string {
    switch (tag) {
      case Tag.Sibling:
        return this.siblings[this.varint()] as string;
      case Tag.Composite: {
        const count = this.varint();
        const parts: string[] = [];
        for (let i = 0; i < count; i++) {
          const part = readBytes[this.at++] as Tag;
          parts.push(part === Tag.Sibling ? (this.siblings[this.varint()] as string) : this.plain(part));
        }
        return this.remember(parts.join(""));
      }
      default:
        return this.remember(this.plain(tag));
    }
  }

  private remember(text: string): string {
    if (text.length >= SIBLING_MIN) this.siblings.push(text);
    return text;
  }

  private plain(tag: Tag): string {
    switch (tag) {
      case Tag.Uuid: {
        const hex = readBytes.toString("hex", this.at, this.at + 16);
        this.at += 16;
        return asciiOf(
          `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
        );
      }
      case Tag.Hex: {
        const prefix = this.string(readBytes[this.at++] as Tag);
        const count = this.varint();
        const hex = readBytes.toString("hex", this.at, this.at + count);
        this.at += count;
        return prefix === "" ? hex : asciiOf(prefix + hex);
      }
      case Tag.Digits:
        return String(this.varint());
      case Tag.Interned:
        return internedStrings[this.varint()] as string;
      case Tag.Latin1: {
        const length = this.varint();
        const text = readBytes.toString("latin1", this.at, this.at + length);
        this.at += length;
        return text;
      }
      case Tag.Utf8: {
        const size = this.varint();
        const text = readBytes.toString("utf8", this.at, this.at + size);
        this.at += size;
        return text;
      }
      default:
        throw new Error(`packed record: unknown tag ${tag as number}`);
    }
  }
}

/** A flat copy of a string built by concatenation (a rope would keep its pieces and a tree of nodes). */
function asciiOf(text: string): string {
  if (textBytes.length < text.length) textBytes = Buffer.allocUnsafeSlow(text.length * 2);
  const size = textBytes.write(text, 0, "latin1");
  return textBytes.toString("latin1", 0, size);
}

function setMember(object: Record<string, unknown>, key: string, member: unknown): void {
  // defineProperty, not assignment: a "__proto__" member stays plain data.
  if (key === "__proto__") Object.defineProperty(object, key, { value: member, enumerable: true, writable: true });
  else object[key] = member;
}

/** The record `packed` holds, frozen all the way down; `seeds` as given to {@link pack}. */
export function unpack(packed: string, seeds: readonly string[]): StoredRecord {
  if (readBytes.length < packed.length) readBytes = Buffer.allocUnsafeSlow(packed.length * 2);
  readBytes.write(packed, 0, "latin1");
  return new Unpacking(seeds).value() as StoredRecord;
}
