/**
 * The value model of the language: how context data reads as language values, and the typing rules of
 * the comparison operators (strict: comparing values of different types is an error, never `false`).
 *
 * @module
 */

import { expressionError } from "./expression-errors.js";
import { PolicyTimestamp } from "./timestamp.js";

/** A language value: lists and maps stay the caller's arrays and objects, read lazily. */
export type Value =
  | bigint
  | string
  | boolean
  | PolicyTimestamp
  | readonly unknown[]
  | { readonly [key: string]: unknown };

export type TypeName = "int" | "string" | "bool" | "timestamp" | "list" | "map";

/** Smallest int (i128) and largest uint (u256) the language can hold. */
export const MIN_INT = -(1n << 127n);
export const MAX_UINT = (1n << 256n) - 1n;

export function typeOf(value: Value): TypeName {
  if (typeof value === "bigint") return "int";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (value instanceof PolicyTimestamp) return "timestamp";
  return Array.isArray(value) ? "list" : "map";
}

export function isList(value: Value): value is readonly unknown[] {
  return Array.isArray(value);
}

export function isMap(value: Value): value is { readonly [key: string]: unknown } {
  return typeOf(value) === "map";
}

/** The own property `key` of `object`: inherited members such as `constructor` or `__proto__` are never fields. */
export function ownField(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/**
 * Reads context data as a value. Integers become BigInt (a `number` must be a safe integer, so no precision
 * was lost before it reached us); `Date` becomes a timestamp; `null`/`undefined` are a missing field.
 */
export function toValue(raw: unknown, describe: () => string, position: number): Value {
  switch (typeof raw) {
    case "bigint":
      if (raw < MIN_INT || raw > MAX_UINT) {
        throw expressionError("POLICY_OUT_OF_RANGE", `${describe()} is outside the int range (i128 to u256)`, position);
      }
      return raw;
    case "number":
      if (Number.isSafeInteger(raw)) return BigInt(raw);
      throw expressionError(
        "POLICY_TYPE_MISMATCH",
        Number.isInteger(raw)
          ? `${describe()} is an integer beyond 2^53 given as a number; it must be given as a BigInt`
          : `${describe()} is not an integer; the language has no floating-point numbers`,
        position,
      );
    case "string":
    case "boolean":
      return raw;
    case "undefined":
      throw expressionError("POLICY_MISSING_FIELD", `${describe()} is missing`, position);
    case "object": {
      if (raw === null) throw expressionError("POLICY_MISSING_FIELD", `${describe()} is null`, position);
      if (raw instanceof PolicyTimestamp || Array.isArray(raw)) return raw;
      if (raw instanceof Date) return PolicyTimestamp.fromDate(raw, position);
      const prototype = Object.getPrototypeOf(raw);
      if (prototype === Object.prototype || prototype === null) return raw as { readonly [key: string]: unknown };
      break;
    }
  }
  throw expressionError("POLICY_TYPE_MISMATCH", `${describe()} holds a value the language cannot read`, position);
}

/** `a == b` for two values of one scalar type; anything else is a type error at `position`. */
export function valuesEqual(a: Value, b: Value, position: number): boolean {
  const type = sameScalarType(a, b, "==", position);
  if (type === "timestamp") return (a as PolicyTimestamp).epochNanos === (b as PolicyTimestamp).epochNanos;
  return a === b;
}

/** The sign of `a - b` for two ints or two timestamps (the only ordered types). */
export function compareOrder(a: Value, b: Value, operator: string, position: number): number {
  const type = sameScalarType(a, b, operator, position);
  if (type !== "int" && type !== "timestamp") {
    throw expressionError(
      "POLICY_TYPE_MISMATCH",
      `'${operator}' orders ints or timestamps, not ${type} values`,
      position,
    );
  }
  const [x, y] =
    type === "int"
      ? [a as bigint, b as bigint]
      : [(a as PolicyTimestamp).epochNanos, (b as PolicyTimestamp).epochNanos];
  return x < y ? -1 : x > y ? 1 : 0;
}

function sameScalarType(a: Value, b: Value, operator: string, position: number): TypeName {
  const left = typeOf(a);
  const right = typeOf(b);
  if (left !== right) {
    throw expressionError("POLICY_TYPE_MISMATCH", `'${operator}' cannot compare ${left} with ${right}`, position);
  }
  if (left === "list" || left === "map") {
    throw expressionError("POLICY_TYPE_MISMATCH", `'${operator}' cannot compare ${left} values`, position);
  }
  return left;
}
