/**
 * Frozen copies of the records the engine writes on every activity (the activity, its policy evaluation).
 * Stores keep records immutable; the in-memory store did it by `structuredClone` and a freeze of every record
 * put, which was 13% of an ed25519 activity's CPU (#19). Plain JSON data, which is all these records hold, is
 * copied here by hand and frozen as it is built, about ten times faster, and a store keeps a frozen record as
 * it is (the copy is registered as deeply frozen, see `storage/deeply-frozen.ts`). Anything else (a typed array, a class instance, a cycle) takes the old path, so the copy is always
 * the one `structuredClone` would give.
 *
 * @module
 */

import { markDeeplyFrozen } from "../storage/deeply-frozen.js";

/** Deeper than any record the engine builds; past it (or at a cycle) the value is cloned the general way. */
const MAX_DEPTH = 64;

/** Returned by {@link plainCopy} for a value it does not copy itself. */
const NOT_PLAIN: unique symbol = Symbol("not plain");

function plainCopy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    // A function or symbol is refused by structuredClone: let it say so.
    return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  }
  if (depth > MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return NOT_PLAIN;
      const item = plainCopy(value[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return Object.freeze(out);
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = plainCopy((value as Record<string, unknown>)[key], depth + 1);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    // defineProperty, not assignment: a "__proto__" member (from a parsed body) stays plain data.
    if (key === "__proto__") Object.defineProperty(out, key, { value: member, enumerable: true, writable: true });
    else out[key] = member;
  }
  return Object.freeze(out);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** A deep copy of `record`, frozen all the way down: what a store would keep of it, made without its help. */
export function frozenRecord<T>(record: T): T {
  const copy = plainCopy(record, 0);
  const frozen = copy === NOT_PLAIN ? deepFreeze(structuredClone(record)) : copy;
  return (typeof frozen === "object" && frozen !== null ? markDeeplyFrozen(frozen) : frozen) as T;
}
