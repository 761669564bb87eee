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
 *   strings and what is left; how a body met at one place (a member of objects of one shape) was cut is
 *   remembered, so that the next body of that kind is cut by checking that its fixed parts are where they were
 *   rather than by searching it for every value of the record;
 * - object key lists are kept once, as shapes, and an array or object met in two records by identity (the
 *   policy module's shared evaluation list) is kept once and handed back as that same object.
 *
 * Packing runs on the write path (a store packs each record as it leaves the warm window), so it is written for
 * speed as much as size: strings are classified by their characters, not by regular expressions, and written
 * straight into one reused buffer.
 *
 * The shared tables are bounded and only grow, so what a client invents cannot grow them without limit; once one
 * is full, values are written out in full instead. The cut templates are bounded too, a few per place.
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

/** A character beyond Latin-1 (U+0100 and up): such text is kept as UTF-8. */
const NOT_LATIN1 = /[\u0100-\uffff]/;
/** In Unicode mode a surrogate pair is one code point, so only an unpaired surrogate is category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Strings shorter than this are copied byte by byte; longer ones are left to `Buffer.write`, whose call costs more. */
const SHORT_TEXT = 64;
/** The longest prefix kept as text before a hex value (`0x`, `sha256:`). */
const MAX_HEX_PREFIX = 16;
/**
 * The value of each lowercase hex digit by character code, -1 for any other character below 128. Every string is
 * classified by hand with it rather than by regular expressions: packing runs on the write path, for every value
 * of every record, and most values are neither ids nor hex.
 */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) HEX_VALUE["0123456789abcdef".charCodeAt(c)] = c;

/** Where each byte's two hex digits start in a UUID. */
const UUID_DIGITS = new Uint8Array([0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]);

/** The value of the lowercase hex digit `code` (a character code), or -1. */
function hexValue(code: number): number {
  return code < 128 ? (HEX_VALUE[code] as number) : -1;
}

/** Whether `text` (1 to 15 characters) is a decimal number as `String` writes it: no sign, no leading zero. */
function isDigits(text: string, length: number): boolean {
  const first = text.charCodeAt(0);
  if (first === 0x30) return length === 1;
  if (first < 0x31 || first > 0x39) return false;
  for (let i = 1; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** Strings kept once for every record: index → string, and back. */
const internedStrings: string[] = [];
const internedIndex = new Map<string, number>();
/** Strings seen once: a second sighting interns them. Cleared when full, so it stays bounded. */
let candidates = new Set<string>();

/**
 * Object key lists, as a trie keyed by each next key, numbered in the order first met. Each node remembers the key
 * that last followed it: records of one kind take the same path every time, and comparing one key is cheaper than
 * looking it up.
 */
interface ShapeNode {
  readonly next: Map<string, ShapeNode>;
  index: number;
  lastKey: string | undefined;
  lastNext: ShapeNode | undefined;
}
const newShapeNode = (): ShapeNode => ({ next: new Map(), index: -1, lastKey: undefined, lastNext: undefined });
const shapeRoot: ShapeNode = newShapeNode();
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

/**
 * How long strings met at one place of a record (a member of an object of one shape) were last cut, so that the
 * next one there, a request body of a kind already met, is cut by checking that its fixed parts are where they
 * were instead of searching it for every long value of the record. A template's items are its parts in order:
 * - `Fixed`: a table string (`text`, table index `index`), the text that recurs between values;
 * - `Sibling`: the record's string number `index`, found there again;
 * - `Free`: anything else up to the next part (a value this record alone holds, a timestamp), cut as a search
 *   cuts text between values.
 * Two free items never follow each other, so each free part ends where the next fixed part or sibling is found.
 * A match whose free parts are much longer than the template's were has swallowed parts a search would have
 * found, so it counts as a miss. Each place keeps a few templates: one place holds bodies of several kinds.
 */
enum Part {
  Fixed = 0,
  Sibling = 1,
  Free = 2,
}
interface TemplateItem {
  readonly part: Part;
  readonly text: string;
  readonly index: number;
}
interface Template {
  readonly items: readonly TemplateItem[];
  /** Characters in free parts when it was made. */
  readonly free: number;
  /** Set when free text of it has become a table string: a new search will make it again with that part fixed. */
  stale: boolean;
}
/** Templates by place: shape index × {@link MAX_SLOT_KEYS} + the member's position in the shape. */
const templates = new Map<number, Template[]>();
const MAX_TEMPLATE_SLOTS = 4096;
const MAX_SLOT_TEMPLATES = 4;
/** Members at this position or later of an object have no template. */
const MAX_SLOT_KEYS = 1024;
/** How many more characters than the template's a match may leave in free parts (values of other lengths). */
const FREE_SLACK = 16;

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

  /** Writes the bytes of `hex` from `start` to `end` (an even count of lowercase hex digits, checked before). */
  hex(text: string, start: number, end: number): void {
    this.reserve((end - start) / 2);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = start; i < end; i += 2) {
      bytes[at++] = ((HEX_VALUE[text.charCodeAt(i)] as number) << 4) | (HEX_VALUE[text.charCodeAt(i + 1)] as number);
    }
    this.at = at;
  }
}

const writer = new Writer();
const float = new Float64Array(1);
const floatBytes = new Uint8Array(float.buffer);

/**
 * A long string's parts while it is being cut, before any is written: triples of start, end and what the part is
 * ({@link SPAN_FREE}, {@link SPAN_DATA}, a sibling number, or -(table index) - {@link SPAN_FIXED_BASE} for a
 * template's fixed part). Reused: packing is not reentrant.
 */
const spans: number[] = [];
/** Text between the record's own values (leftover of a cut). */
const SPAN_FREE = -1;
/** A digit or hex run cut out of such text, kept as data. */
const SPAN_DATA = -2;
const SPAN_FIXED_BASE = 3;

/** One record's packing: the strings it holds so far, for references back to them. */
class Packing {
  readonly siblings: string[] = [];

  constructor(seeds: readonly string[]) {
    for (const seed of seeds) this.siblings.push(seed);
  }

  /** Writes `value`; `slot` is where it sits (see {@link templates}), -1 where no template is kept. */
  value(value: unknown, slot: number): void {
    switch (typeof value) {
      case "string":
        this.string(value, slot);
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

  /** Writes an array or object; `whole` for the record itself, which no other record holds, so is not looked up. */
  composite(value: object, whole = false): void {
    const shared = whole ? undefined : sharedIndex.get(value);
    if (shared !== undefined) {
      writer.byte(Tag.Shared);
      writer.varint(shared);
      return;
    }
    if (!whole && sightings.has(value) && sharedValues.length < MAX_SHARED) {
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
        else this.value(item, -1);
      }
      return;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new Unpackable();
    // An object without the plain prototype would come back with it; rare enough to leave unpacked.
    if (prototype === null) throw new Unpackable();
    sighted(value);
    const keys = Object.keys(value);
    // In the order of the keys; taken in one call rather than a lookup by name per member, which for objects of
    // many shapes goes the slow, generic way.
    const values = Object.values(value);
    const shape = shapeOf(keys);
    if (shape === undefined) {
      writer.byte(Tag.ObjectInline);
      writer.varint(keys.length);
      for (let k = 0; k < keys.length; k++) {
        this.part(keys[k] as string);
        this.value(values[k], -1);
      }
      return;
    }
    writer.byte(Tag.Object);
    writer.varint(shape);
    const base = shape * MAX_SLOT_KEYS;
    for (let k = 0; k < keys.length; k++) this.value(values[k], k < MAX_SLOT_KEYS ? base + k : -1);
  }

  /** Writes a value's `text`, met at `slot`: a reference to an equal string before it, its parts, or itself. */
  private string(text: string, slot: number): void {
    const length = text.length;
    if (length >= SIBLING_MIN && this.wroteSibling(text)) return;
    // A long hex value (a `0x` payload, a signature) is one value, not text to cut into parts.
    if (length < COMPOSITE_MIN || (!this.prefixedHex(text, length) && !this.cut(text, slot))) this.plain(text);
    if (length >= SIBLING_MIN) this.siblings.push(text);
  }

  /** Writes text that is not cut into parts (a key, a part of a long string, a hex prefix). */
  private part(text: string): void {
    const length = text.length;
    if (length >= SIBLING_MIN && this.wroteSibling(text)) return;
    this.plain(text);
    if (length >= SIBLING_MIN) this.siblings.push(text);
  }

  /** Writes a reference to an equal string met before in this record, when there is one; says whether it did. */
  private wroteSibling(text: string): boolean {
    const sibling = this.siblingOf(text);
    if (sibling < 0) return false;
    writer.byte(Tag.Sibling);
    writer.varint(sibling);
    return true;
  }

  private siblingOf(text: string): number {
    const siblings = this.siblings;
    const length = text.length;
    // The length first: most strings differ in it, and reading it is cheaper than a call to compare strings.
    for (let i = 0; i < siblings.length; i++) {
      const sibling = siblings[i] as string;
      if (sibling.length === length && sibling === text) return i;
    }
    return -1;
  }

  /**
   * Writes a long string as parts: the record's own values found in it, and what lies between them. The parts
   * are found first, and written only when there are at least two, so that nothing is written (or counted as
   * seen by the table) twice.
   */
  private cut(text: string, slot: number): boolean {
    const known = slot >= 0 ? templates.get(slot) : undefined;
    let matched: Template | undefined;
    if (known !== undefined) {
      for (const template of known) {
        spans.length = 0;
        if (!template.stale && this.match(text, template)) {
          matched = template;
          break;
        }
      }
    }
    if (matched === undefined) {
      spans.length = 0;
      this.search(text);
    }
    if (spans.length < 6) return false;
    writer.byte(Tag.Composite);
    writer.varint(spans.length / 3);
    for (let i = 0; i < spans.length; i += 3) {
      const kind = spans[i + 2] as number;
      if (kind >= 0) {
        writer.byte(Tag.Sibling);
        writer.varint(kind);
      } else if (kind <= -SPAN_FIXED_BASE) {
        writer.byte(Tag.Interned);
        writer.varint(-kind - SPAN_FIXED_BASE);
      } else {
        const interned = this.plain(text.slice(spans[i] as number, spans[i + 1] as number));
        if (interned >= 0 && kind === SPAN_FREE) {
          if (matched !== undefined) matched.stale = true;
          else spans[i + 2] = -interned - SPAN_FIXED_BASE;
        }
      }
    }
    if (matched === undefined && slot >= 0) learn(slot, known);
    return true;
  }

  /** Finds `text`'s parts by `template`; false (spans left unfinished) when it does not fit. */
  private match(text: string, template: Template): boolean {
    const siblings = this.siblings;
    const items = template.items;
    let at = 0;
    let free = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as TemplateItem;
      if (item.part === Part.Free) {
        const next = items[i + 1];
        let end = text.length;
        if (next !== undefined) {
          const sought = next.part === Part.Fixed ? next.text : siblings[next.index];
          if (sought === undefined) return false;
          end = text.indexOf(sought, at);
          if (end < 0) return false;
        }
        free += end - at;
        if (free > template.free + FREE_SLACK) return false;
        if (end > at) splitData(text, at, end);
        at = end;
      } else if (item.part === Part.Fixed) {
        if (!text.startsWith(item.text, at)) return false;
        spans.push(at, at + item.text.length, -item.index - SPAN_FIXED_BASE);
        at += item.text.length;
      } else {
        const sibling = siblings[item.index];
        if (sibling === undefined || !text.startsWith(sibling, at)) return false;
        spans.push(at, at + sibling.length, item.index);
        at += sibling.length;
      }
    }
    return at === text.length;
  }

  /** Finds `text`'s parts by searching it for each of the record's long strings. */
  private search(text: string): void {
    const found: [start: number, end: number, sibling: number][] = [];
    const siblings = this.siblings;
    for (let i = 0; i < siblings.length; i++) {
      const sibling = siblings[i] as string;
      if (sibling.length < CUT_MIN || sibling.length > text.length) continue;
      for (let at = text.indexOf(sibling); at >= 0; at = text.indexOf(sibling, at + sibling.length)) {
        found.push([at, at + sibling.length, i]);
      }
    }
    let at = 0;
    if (found.length > 0) {
      found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      for (const [start, end, sibling] of found) {
        if (start < at) continue;
        if (start > at) splitData(text, at, start);
        spans.push(start, end, sibling);
        at = end;
      }
    }
    if (at < text.length) splitData(text, at, text.length);
  }

  /**
   * A string as data (UUID, hex, decimal), a table reference, or its text. Returns the table index when it is
   * written as one, else -1.
   */
  private plain(text: string): number {
    const length = text.length;
    if (length === 36 && this.uuid(text)) return -1;
    if (length >= 16 && this.prefixedHex(text, length)) return -1;
    if (length > 0 && length <= 15 && isDigits(text, length)) {
      writer.byte(Tag.Digits);
      writer.varint(Number(text));
      return -1;
    }
    const interned = intern(text);
    if (interned !== undefined) {
      writer.byte(Tag.Interned);
      writer.varint(interned);
      return interned;
    }
    if (length < SHORT_TEXT) {
      // Copied by hand, stopping at the first character beyond Latin-1 to write the string as UTF-8 instead.
      const start = writer.at;
      writer.reserve(length + 2);
      const bytes = writer.bytes;
      bytes[writer.at++] = Tag.Latin1;
      let at = writer.at + 1;
      bytes[at - 1] = length;
      let i = 0;
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code > 0xff) break;
        bytes[at++] = code;
      }
      if (i === length) {
        writer.at = at;
        return -1;
      }
      writer.at = start;
    } else if (!NOT_LATIN1.test(text)) {
      writer.byte(Tag.Latin1);
      writer.varint(length);
      writer.reserve(length);
      writer.at += writer.bytes.write(text, writer.at, length, "latin1");
      return -1;
    }
    // UTF-8 cannot hold a lone surrogate; a record with one stays unpacked rather than come back changed.
    if (LONE_SURROGATE.test(text)) throw new Unpackable();
    const size = Buffer.byteLength(text, "utf8");
    writer.byte(Tag.Utf8);
    writer.varint(size);
    writer.reserve(size);
    writer.at += writer.bytes.write(text, writer.at, size, "utf8");
    return -1;
  }

  /** Writes `text` as a UUID (lowercase, hyphens at 8, 13, 18 and 23) when it is one. */
  private uuid(text: string): boolean {
    if (
      text.charCodeAt(8) !== 0x2d ||
      text.charCodeAt(13) !== 0x2d ||
      text.charCodeAt(18) !== 0x2d ||
      text.charCodeAt(23) !== 0x2d
    ) {
      return false;
    }
    // Decoded straight into place after the tag, and committed only once every digit has proved to be hex.
    writer.reserve(17);
    const bytes = writer.bytes;
    let at = writer.at + 1;
    for (let i = 0; i < 16; i++) {
      const digit = UUID_DIGITS[i] as number;
      const high = hexValue(text.charCodeAt(digit));
      const low = hexValue(text.charCodeAt(digit + 1));
      if ((high | low) < 0) return false;
      bytes[at++] = (high << 4) | low;
    }
    bytes[writer.at] = Tag.Uuid;
    writer.at = at;
    return true;
  }

  /**
   * Writes `text` as hex when it is at least 8 bytes of lowercase hex after a prefix of at most 16 printable ASCII
   * characters, the prefix as short as can be (the hex run as long as can be, in whole bytes).
   */
  private prefixedHex(text: string, length: number): boolean {
    let start = length;
    while (start > 0 && hexValue(text.charCodeAt(start - 1)) >= 0) start--;
    if ((length - start) % 2 === 1) start++;
    if (start > MAX_HEX_PREFIX || length - start < 16) return false;
    for (let i = 0; i < start; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code > 0x7e) return false;
    }
    writer.byte(Tag.Hex);
    this.part(start === 0 ? "" : text.slice(0, start));
    writer.varint((length - start) / 2);
    writer.hex(text, start, length);
    return true;
  }
}

/** Keeps the template of a string just cut by a search into {@link spans} for `slot`, before the others there. */
function learn(slot: number, known: Template[] | undefined): void {
  if (known === undefined && templates.size >= MAX_TEMPLATE_SLOTS) return;
  const items: TemplateItem[] = [];
  let free = 0;
  for (let i = 0; i < spans.length; i += 3) {
    const kind = spans[i + 2] as number;
    if (kind >= 0) items.push({ part: Part.Sibling, text: "", index: kind });
    else if (kind <= -SPAN_FIXED_BASE) {
      const index = -kind - SPAN_FIXED_BASE;
      items.push({ part: Part.Fixed, text: internedStrings[index] as string, index });
    } else {
      free += (spans[i + 1] as number) - (spans[i] as number);
      if (items.at(-1)?.part !== Part.Free) items.push({ part: Part.Free, text: "", index: -1 });
    }
  }
  const kept: Template[] = [{ items, free, stale: false }];
  for (const template of known ?? []) if (!template.stale && kept.length < MAX_SLOT_TEMPLATES) kept.push(template);
  templates.set(slot, kept);
}

/**
 * Adds the parts of `text` from `start` to `end` to {@link spans}: digit runs (6 or more) and hex runs (16 or
 * more) as data, the text between them as free text.
 */
function splitData(text: string, start: number, end: number): void {
  let free = start;
  let i = start;
  while (i < end) {
    let digits = i;
    while (digits < end && (text.charCodeAt(digits) - 0x30) >>> 0 <= 9) digits++;
    let run = digits;
    if (digits - i < 6) {
      while (run < end && hexValue(text.charCodeAt(run)) >= 0) run++;
      if (run - i < 16) {
        i++;
        continue;
      }
    }
    if (i > free) spans.push(free, i, SPAN_FREE);
    spans.push(i, run, SPAN_DATA);
    free = run;
    i = run;
  }
  if (end > free) spans.push(free, end, SPAN_FREE);
}

/** The table index of `text` once it has been seen twice, while the table has room. */
function intern(text: string): number | undefined {
  const known = internedIndex.get(text);
  if (known !== undefined) return known;
  if (text.length > MAX_INTERN_LENGTH || internedStrings.length >= MAX_INTERNED) return undefined;
  if (candidates.size >= MAX_CANDIDATES) candidates = new Set();
  // Added and checked in one step (the size grows only for a string not there yet): most strings here are seen once.
  const size = candidates.size;
  candidates.add(text);
  if (candidates.size !== size) return undefined;
  candidates.delete(text);
  internedIndex.set(text, internedStrings.length);
  internedStrings.push(text);
  return internedStrings.length - 1;
}

function shapeOf(keys: readonly string[]): number | undefined {
  let node = shapeRoot;
  for (const key of keys) {
    let next = node.lastKey === key ? node.lastNext : node.next.get(key);
    if (next === undefined) {
      if (shapes.length >= MAX_SHAPES) return undefined;
      next = newShapeNode();
      node.next.set(key, next);
    }
    node.lastKey = key;
    node.lastNext = next;
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
    new Packing(seeds).composite(record, true);
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
