/**
 * A brand for plain data frozen all the way down, which therefore never changes: the store's own copies of
 * records and the policy module's shared values (evaluation records, approvers, credentials). Whoever holds a
 * branded value may share it instead of copying it, and may compare it by identity.
 *
 * The brand is a private class field stamped onto the object (a base class whose constructor returns the
 * object it is given), so it is invisible to `Object.keys`, JSON, `structuredClone` and deep equality, and
 * nothing outside this module can forge it. A `WeakSet` of frozen objects would do the same, but adding each new
 * record's objects to one costs more than copying them, and the collector's work on the weak table comes on
 * top.
 *
 * @module
 */

/** Returns the object it is given, so a subclass's field initializers run on that object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the stamping pattern; see the module comment.
    return target as Stamp;
  }
}

class DeepFrozenBrand extends Stamp {
  readonly #deepFrozen = true;

  static has(value: object): boolean {
    return #deepFrozen in value;
  }
}

/** Whether `value` was frozen all the way down by {@link freezeBranded} or {@link deepFreezeBranded}. */
export function isDeepFrozen(value: unknown): boolean {
  return typeof value === "object" && value !== null && DeepFrozenBrand.has(value);
}

/**
 * Brands and freezes `value`, a plain object or array whose members are all constants or branded values
 * already: the caller vouches for them (its own fresh copy, built from such members).
 */
export function freezeBranded<T extends object>(value: T): Readonly<T> {
  // Branded before it is frozen: a future engine may refuse private fields on non-extensible objects.
  if (!DeepFrozenBrand.has(value)) new DeepFrozenBrand(value);
  return Object.freeze(value);
}

/**
 * Freezes `value` and every object it holds, in place, branding each. Only plain data (objects, arrays,
 * constants) that no one else will change.
 */
export function deepFreezeBranded<T extends object>(value: T): Readonly<T> {
  if (DeepFrozenBrand.has(value)) return value;
  for (const member of Object.values(value)) {
    if (typeof member === "object" && member !== null) deepFreezeBranded(member);
  }
  return freezeBranded(value);
}
