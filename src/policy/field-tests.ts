/**
 * A fast path for the shapes conditions are mostly made of: tests of keyword fields against literals —
 * `==` and `!=`, `in` a list of literals, `<`, `<=`, `>`, `>=` between ints — and a bool field, under `!`,
 * `&&` and `||` nested in any way (`activity.type in ['…', '…'] && (wallet.id == '…' || eth.tx.value < 10)`).
 * An organization with many policies has many such conditions, and every activity judges all of them; each
 * field read here is read once per decision (the decision's {@link FieldCache}), so a hundred policies testing
 * the same few fields cost a hundred small comparisons.
 *
 * The fast path only answers when the closures of `evaluator.ts` would give the same answer without failing:
 * every field is present, holds a string, bool or int of the type its test needs, and is reached through plain
 * objects; and the evaluation's step budget covers the steps the closures would take (they run every operand:
 * the language does not short-circuit), which it takes from the budget exactly as they would (a later
 * expression of the same policy shares the budget). Anything else (a missing field, a type mismatch, a list, a
 * timestamp, an exhausted budget) returns `undefined`, and the closures run and fail exactly as they would
 * without the fast path.
 *
 * @module
 */

import type { Expr } from "./ast.js";
import type { EvaluationRun, FieldCache } from "./evaluator.js";
import { keywordScopeError } from "./keywords.js";
import type { PolicyContext, PolicyExpressionField } from "./types.js";
import { MAX_UINT, MIN_INT } from "./values.js";

const UNREADABLE = Symbol("unreadable");

// Field paths, numbered for the cache. Bounded: past the bound, new paths are read every time.
const pathIds = new Map<string, number>();
const MAX_PATHS = 10_000;

function pathIdOf(keyword: string, fields: readonly string[]): number | undefined {
  const key = JSON.stringify([keyword, ...fields]);
  let id = pathIds.get(key);
  if (id === undefined && pathIds.size < MAX_PATHS) {
    id = pathIds.size;
    pathIds.set(key, id);
  }
  return id;
}

/** A keyword field an expression reads: `keyword.fields…`. */
export interface FieldRead {
  readonly keyword: string;
  readonly fields: readonly string[];
  /** The field's number in a {@link FieldCache}; none once too many paths were numbered. */
  readonly pathId: number | undefined;
}

/** A value a test compares: what a field or a literal reads as in the language. */
export type Scalar = string | boolean | bigint;

/** Runs the tests: the expression's bool, or `undefined` to let the closures decide. */
export type FieldFastPath = (run: EvaluationRun) => boolean | undefined;

/** An expression of the shape this module judges: its fast path, and every field it reads. */
export interface FieldTests {
  readonly judge: FieldFastPath;
  readonly reads: readonly FieldRead[];
}

// The steps the running fast path has tallied. One counter, saved and restored around each judgement, so a
// judgement started while another runs (a getter of a caller's context deciding again) leaves it as it was.
let tally = 0;

type BoolCode = (run: EvaluationRun) => boolean | undefined;
type ScalarCode = (run: EvaluationRun) => Scalar | undefined;

/** The fast path of `expr` in `field`, when it has the shape this module judges; `undefined` otherwise. */
export function fieldFastPath(expr: Expr, field: PolicyExpressionField): FieldTests | undefined {
  const reads: FieldRead[] = [];
  const code = boolCode(expr, field, reads);
  if (code === undefined) return undefined;
  const judge: FieldFastPath = (run) => {
    const outer = tally;
    tally = 0;
    const value = code(run);
    const steps = tally;
    tally = outer;
    if (value === undefined || run.remaining - steps < 0) return undefined;
    run.remaining -= steps;
    return value;
  };
  return { judge, reads };
}

/** `expr` as a bool, taking the steps its closure takes (see `evaluator.ts`). */
function boolCode(expr: Expr, field: PolicyExpressionField, reads: FieldRead[]): BoolCode | undefined {
  switch (expr.kind) {
    case "bool": {
      const value = expr.value;
      return () => {
        tally += 1;
        return value;
      };
    }
    case "chain": {
      const read = scalarCode(expr, field, reads);
      if (read === undefined) return undefined;
      return (run) => {
        const value = read(run);
        return typeof value === "boolean" ? value : undefined;
      };
    }
    case "not": {
      const operand = boolCode(expr.operand, field, reads);
      if (operand === undefined) return undefined;
      return (run) => {
        tally += 1;
        const value = operand(run);
        return value === undefined ? undefined : !value;
      };
    }
    case "logical": {
      const operands: BoolCode[] = [];
      for (const operand of expr.operands) {
        const code = boolCode(operand, field, reads);
        if (code === undefined) return undefined;
        operands.push(code);
      }
      const all = expr.operator === "&&";
      return (run) => {
        tally += 1;
        let every = true;
        let some = false;
        for (const operand of operands) {
          const value = operand(run);
          if (value === undefined) return undefined;
          if (value) some = true;
          else every = false;
        }
        return all ? every : some;
      };
    }
    case "compare":
      return compareCode(expr, field, reads);
    default:
      return undefined;
  }
}

function compareCode(
  expr: Expr & { kind: "compare" },
  field: PolicyExpressionField,
  reads: FieldRead[],
): BoolCode | undefined {
  const left = scalarCode(expr.left, field, reads);
  if (left === undefined) return undefined;
  const { operator } = expr;
  if (operator === "in") return inCode(left, expr.right);
  const right = scalarCode(expr.right, field, reads);
  if (right === undefined) return undefined;
  if (operator === "==" || operator === "!=") {
    const negate = operator === "!=";
    return (run) => {
      tally += 1;
      const a = left(run);
      const b = right(run);
      if (a === undefined || b === undefined || typeof a !== typeof b) return undefined;
      // A long string on the left costs as `equal` makes it cost.
      if (typeof a === "string") tally += a.length >> 10;
      return (a === b) !== negate;
    };
  }
  return (run) => {
    tally += 1;
    const a = left(run);
    const b = right(run);
    if (typeof a !== "bigint" || typeof b !== "bigint") return undefined;
    if (operator === "<") return a < b;
    if (operator === "<=") return a <= b;
    if (operator === ">") return a > b;
    return a >= b;
  };
}

/** `needle in [literal, …]`: every element is compared, and all must have the needle's type. */
function inCode(needle: ScalarCode, list: Expr): BoolCode | undefined {
  if (list.kind !== "list") return undefined;
  const items: Scalar[] = [];
  for (const item of list.items) {
    if (item.kind !== "string" && item.kind !== "bool" && item.kind !== "int") return undefined;
    // An element outside the int range fails as it is read: the closures say so.
    if (typeof item.value === "bigint" && (item.value < MIN_INT || item.value > MAX_UINT)) return undefined;
    items.push(item.value);
  }
  const type = items.length === 0 ? undefined : typeof items[0];
  if (items.some((item) => typeof item !== type)) return undefined;
  // The list node and each of its literals, then one step per element compared.
  const steps = 1 + 2 * items.length;
  return (run) => {
    tally += 1;
    const value = needle(run);
    if (value === undefined) return undefined;
    if (items.length === 0) {
      tally += 1;
      return false;
    }
    if (typeof value !== type) return undefined;
    tally += steps + (typeof value === "string" ? (value.length >> 10) * items.length : 0);
    return items.includes(value);
  };
}

/** A literal or a keyword field as a scalar, taking the steps its closure takes. */
function scalarCode(expr: Expr, field: PolicyExpressionField, reads: FieldRead[]): ScalarCode | undefined {
  if (expr.kind === "string" || expr.kind === "bool" || expr.kind === "int") {
    const value = expr.value;
    return () => {
      tally += 1;
      return value;
    };
  }
  const read = fieldReadOf(expr, field);
  if (read === undefined) return undefined;
  reads.push(read);
  // chain 1 + head 1 + one per field step.
  const steps = 2 + read.fields.length;
  return (run) => {
    const value = readField(run.context, read, run.fieldCache);
    if (value === undefined) return undefined;
    tally += steps;
    return value as Scalar;
  };
}

/** `keyword.field…` when `expr` is a chain of plain field steps from a keyword of `field`. */
export function fieldReadOf(expr: Expr, field: PolicyExpressionField): FieldRead | undefined {
  if (expr.kind !== "chain" || expr.head.kind !== "ident" || expr.steps.length === 0) return undefined;
  const keyword = expr.head.name;
  // `time` reads the trusted clock, and a name outside the field's scope always fails: neither is a field read.
  if (keyword === "time" || keywordScopeError(keyword, field, 0) !== undefined) return undefined;
  const fields: string[] = [];
  for (const step of expr.steps) {
    if (step.kind !== "field") return undefined;
    fields.push(step.name);
  }
  return { keyword, fields, pathId: pathIdOf(keyword, fields) };
}

/**
 * The scalar at `read` in `context` (from `cache` when it was read before, and kept there), as the closures
 * would read it: a string, a bool, or an int (a safe-integer number or an in-range bigint, as a bigint);
 * `undefined` for anything they would read differently or fail on.
 */
export function readField(context: PolicyContext, read: FieldRead, cache: FieldCache | undefined): unknown {
  const record = context as unknown as Record<string, unknown>;
  if (cache === undefined || read.pathId === undefined) return fieldValue(record, read.keyword, read.fields);
  let value = cache[read.pathId];
  if (value === undefined) {
    value = fieldValue(record, read.keyword, read.fields) ?? UNREADABLE;
    cache[read.pathId] = value;
  }
  return value === UNREADABLE ? undefined : value;
}

/**
 * The scalar at `keyword.fields…` when every step reads an own member of a plain object, as the closures read
 * it; `undefined` for anything they would read differently or fail on.
 */
function fieldValue(context: Record<string, unknown>, keyword: string, fields: readonly string[]): Scalar | undefined {
  let value: unknown = Object.hasOwn(context, keyword) ? context[keyword] : undefined;
  for (const name of fields) {
    if (!isPlainObject(value)) return undefined;
    value = Object.hasOwn(value, name) ? value[name] : undefined;
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "bigint":
      return value < MIN_INT || value > MAX_UINT ? undefined : value;
    case "number":
      return Number.isSafeInteger(value) ? BigInt(value) : undefined;
    default:
      return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
