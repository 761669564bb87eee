/**
 * The objects known to be frozen all the way down, so a store may keep them as they are instead of copying
 * them (#19). Only code that built the object itself registers it: a caller's `Object.freeze` is shallow, so
 * `Object.isFrozen` alone would let a mutable member into a stored record.
 *
 * @module
 */

const registry = new WeakSet<object>();

/** Records that `value` and everything it holds is frozen; returns it. */
export function markDeeplyFrozen<T extends object>(value: T): T {
  registry.add(value);
  return value;
}

/** Whether `value` was registered by {@link markDeeplyFrozen}. */
export function isDeeplyFrozen(value: object): boolean {
  return registry.has(value);
}
