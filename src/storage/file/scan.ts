/**
 * Reading the change sets of journal flushes and snapshot frames without building their records.
 *
 * Opening a store needs every record's collection, id and placement, but not the record itself: that is read
 * later, for a few records, or packed in the background. So the frames that `codec.ts` lays out
 * (`["collection",{"id":"...",...},{placement}]` triples, no whitespace) are walked here: each record is only
 * delimited, and kept as its JSON text (a slice of the frame's text), and only the small rest of each triple is
 * parsed. Anything laid out otherwise gets `undefined`, and the caller parses the frame whole as before, so the
 * same shape errors are reported with their place; a record whose text does not parse is reported when it is read.
 *
 * @module
 */
import { type Change, Entry } from "../memory.js";
import { checkPlacement, decodeDeletes, decodePut } from "./codec.js";

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const ZERO = 48;
const NINE = 57;

/** Where a frame lies, for the errors of its contents. */
export interface FramePlace {
  file: string;
  offset: number;
}

/** A journal flush read by {@link decodeFlushText}: its first sequence number and each transaction's changes. */
export interface FlushChanges {
  seq: number;
  transactions: Change[][];
}

/** The index after the JSON string whose opening quote is at `at`, or -1. */
function stringEnd(text: string, at: number): number {
  let end = text.indexOf('"', at + 1);
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    let backslashes = 1;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end < 0 ? -1 : end + 1;
}

/** The index after the object or array that opens at `at`, or -1 when it does not close. */
function compositeEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/** Reads the put triple at `at` into `out`; the index after it, or -1 when it is not laid out as written. */
function readPut(text: string, at: number, out: Change[], where: FramePlace): number {
  if (text.charCodeAt(at) !== OPEN_BRACKET || text.charCodeAt(at + 1) !== QUOTE) return -1;
  const collectionEnd = stringEnd(text, at + 1);
  if (collectionEnd < 0 || text.charCodeAt(collectionEnd) !== COMMA) return -1;
  const recordAt = collectionEnd + 1;
  const recordEnd = compositeEnd(text, recordAt);
  if (recordEnd < 0 || text.charCodeAt(recordEnd) !== COMMA || text.charCodeAt(recordEnd + 1) !== OPEN_BRACE) {
    return -1;
  }
  const placementEnd = compositeEnd(text, recordEnd + 1);
  if (placementEnd < 0 || text.charCodeAt(placementEnd) !== CLOSE_BRACKET) return -1;
  const idEnd = text.startsWith('{"id":"', recordAt) ? stringEnd(text, recordAt + 6) : -1;
  let parts: unknown;
  try {
    // A record whose first member is not its id is parsed now: only the id's place is known without parsing.
    if (idEnd < 0 || idEnd > recordEnd) parts = JSON.parse(text.slice(at, placementEnd + 1));
    else {
      parts = JSON.parse(
        `[${text.slice(at + 1, collectionEnd)},${text.slice(recordAt + 6, idEnd)},${text.slice(recordEnd + 1, placementEnd)}]`,
      );
    }
  } catch {
    return -1;
  }
  if (idEnd < 0 || idEnd > recordEnd) {
    out.push(decodePut(parts, where));
  } else {
    const [collection, id, placement] = parts as [string, string, unknown];
    out.push({
      collection,
      id,
      entry: Entry.of(id, text.slice(recordAt, recordEnd), checkPlacement(collection, id, placement, where)),
    });
  }
  return placementEnd + 1;
}

/** Reads the put triples of a list whose `[` is just before `at` into `out`; the index after its `]`, or -1. */
function readPuts(text: string, at: number, out: Change[], where: FramePlace): number {
  let next = at;
  if (text.charCodeAt(next) === CLOSE_BRACKET) return next + 1;
  for (;;) {
    next = readPut(text, next, out, where);
    if (next < 0) return -1;
    const c = text.charCodeAt(next++);
    if (c === CLOSE_BRACKET) return next;
    if (c !== COMMA) return -1;
  }
}

/**
 * The changes of a journal flush (`{"seq":n,"transactions":[{"put":[...],"delete":[...]},...]}`), each put's
 * record kept as its text, or `undefined` when the text is laid out otherwise.
 */
export function decodeFlushText(text: string, where: FramePlace): FlushChanges | undefined {
  if (!text.startsWith('{"seq":')) return undefined;
  let at = 7;
  while (at < text.length && text.charCodeAt(at) >= ZERO && text.charCodeAt(at) <= NINE) at++;
  const seq = Number(text.slice(7, at));
  if (at === 7 || !Number.isSafeInteger(seq) || seq < 1 || !text.startsWith(',"transactions":[', at)) return undefined;
  at += 17;
  const transactions: Change[][] = [];
  if (text.charCodeAt(at) === CLOSE_BRACKET) at++;
  else
    for (;;) {
      if (text.charCodeAt(at++) !== OPEN_BRACE) return undefined;
      const changes: Change[] = [];
      if (text.startsWith('"put":[', at)) {
        at = readPuts(text, at + 7, changes, where);
        if (at < 0) return undefined;
        if (text.startsWith(',"delete":[', at)) at++;
      }
      if (text.startsWith('"delete":[', at)) {
        const end = compositeEnd(text, at + 9);
        if (end < 0) return undefined;
        let deletes: unknown;
        try {
          deletes = JSON.parse(text.slice(at + 9, end));
        } catch {
          return undefined;
        }
        decodeDeletes(deletes, changes, where);
        at = end;
      }
      if (text.charCodeAt(at++) !== CLOSE_BRACE) return undefined;
      transactions.push(changes);
      const c = text.charCodeAt(at++);
      if (c === CLOSE_BRACKET) break;
      if (c !== COMMA) return undefined;
    }
  if (text.charCodeAt(at) !== CLOSE_BRACE || at + 1 !== text.length) return undefined;
  return { seq, transactions };
}

/**
 * The puts of a snapshot's records frame (`{"records":[...]}`), each record kept as its text, or `undefined`
 * when the text is laid out otherwise.
 */
export function decodeRecordsText(text: string, where: FramePlace): Change[] | undefined {
  if (!text.startsWith('{"records":[')) return undefined;
  const changes: Change[] = [];
  const at = readPuts(text, 12, changes, where);
  if (at < 0 || text.charCodeAt(at) !== CLOSE_BRACE || at + 1 !== text.length) return undefined;
  return changes;
}
