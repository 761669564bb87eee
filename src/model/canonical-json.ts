/**
 * Canonical JSON for bodies the engine builds itself (in-process calls): keys sorted at every level, no
 * white space, `undefined` members dropped. The same call always gives the same bytes, hence the same
 * fingerprint.
 *
 * @module
 */

/** A value's canonical text and what that text parses back to. */
export interface CanonicalForm {
  readonly text: string;
  /** What `JSON.parse(text)` gives. */
  readonly copy: unknown;
}

/**
 * The canonical text of `value` (keys sorted, no white space, `undefined` members dropped, `undefined` array
 * items as `null`: the bytes stored fingerprints were computed over) together with what `JSON.parse` of that text
 * gives. The copy is made in one walk that reads each member once, and the text is printed from the copy, so a
 * getter cannot make the two differ (a value printed by a primitive's own `toJSON` is walked again). The
 * in-process path needs both: the text is fingerprinted and recorded, the copy is the body the engine works on;
 * printing the text and then parsing it again would be the largest cost of that path. The copy has the
 * members of the text in the same sorted order: non-finite numbers as `null`, `-0` as `0`, objects of any kind
 * (a Date, a boxed string) as their own enumerable keys. Throws a TypeError for what JSON cannot hold (a
 * function, a BigInt) and a RangeError for a cycle.
 */
export function canonicalForm(value: unknown): CanonicalForm {
  const walk: CopyWalk = { plain: true };
  const copy = copyOf(value, walk);
  if (walk.plain) {
    // The copy's keys were inserted sorted, and it holds only JSON's own kinds of value: one JSON.stringify
    // prints exactly the canonical text, and as one flat string, which the fingerprint's hash reads without
    // flattening a rope of appended pieces first.
    return { text: JSON.stringify(copy), copy };
  }
  if (walk.printed) {
    // A value printed by a toJSON of its own (a BigInt's, say) may print anything: walk the original again.
    const text = { out: "" };
    const again = formOf(value, text);
    return { text: text.out, copy: again };
  }
  // Keys that are array indices ("0", "12"), which objects enumerate before the others in numeric order, not
  // sorted as strings: the copy holds the right members, and the text is printed from it key by key.
  const text = { out: "" };
  formOf(copy, text);
  return { text: text.out, copy };
}

interface CopyWalk {
  /** Whether `JSON.stringify` of the copy prints the canonical text. */
  plain: boolean;
  /** Whether some value was printed by a `toJSON` of a primitive's prototype. */
  printed?: boolean;
}

/** The parsed copy of {@link formOf}, without the text; `walk` learns whether the copy can print it. */
function copyOf(value: unknown, walk: CopyWalk): unknown {
  if (value === null || typeof value !== "object") {
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") return Number.isFinite(value) ? value + 0 : null;
    const printed = JSON.stringify(value);
    if (printed === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    walk.plain = false;
    walk.printed = true;
    return JSON.parse(printed);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out[i] = item === undefined ? null : copyOf(item, walk);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    // A key starting with a digit may be an array index, which no insertion order puts where sorting does.
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57) walk.plain = false;
    const copied = copyOf(member, walk);
    // Defined, not assigned: JSON.parse makes "__proto__" an own member too.
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = copied;
    }
  }
  return out;
}

/** Appends the canonical text of `value` to `text.out` and returns its parsed copy. */
function formOf(value: unknown, text: { out: string }): unknown {
  if (value === null || typeof value !== "object") {
    const printed = JSON.stringify(value);
    if (printed === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    text.out += printed;
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") return Number.isFinite(value) ? value + 0 : null;
    // A bigint with a toJSON of its own, say: whatever its text parses to.
    return JSON.parse(printed);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    text.out += "[";
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) text.out += ",";
      if (item === undefined) {
        text.out += "null";
        out[i] = null;
      } else {
        out[i] = formOf(item, text);
      }
    }
    text.out += "]";
    return out;
  }
  const out: Record<string, unknown> = {};
  text.out += "{";
  let first = true;
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    if (!first) text.out += ",";
    first = false;
    text.out += `${JSON.stringify(key)}:`;
    const copied = formOf(member, text);
    // Defined, not assigned: JSON.parse makes "__proto__" an own member too.
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = copied;
    }
  }
  text.out += "}";
  return out;
}
