/**
 * Context members known never to change: the approvers and credentials the engine builds, frozen all the way
 * down and branded so, one object per stored user or credential for as long as it is unchanged. A
 * consensus depends on those two keywords alone, so its result for the same members can be reused (see
 * `CompiledExpression`); members a caller built itself are never registered, and are always evaluated.
 *
 * @module
 */

import { deepFreezeBranded, isDeepFrozen } from "../common/deep-frozen.js";

/**
 * Freezes `value` all the way down and brands it as such (`common/deep-frozen.ts`). Only plain data (objects, arrays,
 * constants) that no one else holds.
 */
export function markImmutable<T extends object>(value: T): T {
  return deepFreezeBranded(value) as T;
}

/** Whether every element of `list` is branded as frozen all the way down ({@link markImmutable}). */
export function allImmutable(list: readonly unknown[]): boolean {
  for (const element of list) if (!isDeepFrozen(element)) return false;
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
