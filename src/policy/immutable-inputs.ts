/**
 * Context members known never to change: the approvers and credentials the engine builds, frozen all the way
 * down and registered here, one object per stored user or credential for as long as it is unchanged. A
 * consensus depends on those two keywords alone, so its result for the same members can be reused (see
 * `CompiledExpression`); members a caller built itself are never registered, and are always evaluated.
 *
 * @module
 */

const immutable = new WeakSet<object>();

/** Freezes `value` all the way down and records it as immutable. Only plain data (objects, arrays, constants). */
export function markImmutable<T extends object>(value: T): T {
  for (const member of Object.values(value)) {
    if (typeof member === "object" && member !== null && !immutable.has(member)) markImmutable(member);
  }
  Object.freeze(value);
  immutable.add(value);
  return value;
}

/** Whether every element of `list` was registered by {@link markImmutable}. */
export function allImmutable(list: readonly unknown[]): boolean {
  for (const element of list) {
    if (typeof element !== "object" || element === null || !immutable.has(element)) return false;
  }
  return true;
}

/**
 * Whether two lists hold the very same members, in the same order: for immutable members, that they hold the
 * same values. What the policy caches compare their inputs with.
 */
export function sameMembers(known: readonly unknown[], given: readonly unknown[]): boolean {
  if (known.length !== given.length) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== given[i]) return false;
  return true;
}
