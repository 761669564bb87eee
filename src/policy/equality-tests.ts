/**
 * A fast path for the most common shape of condition: equality tests of keyword fields against literals,
 * alone or joined by `&&` or `||` (`activity.resource == 'PRIVATE_KEY' && wallet.id == '…'`). An organization
 * with many policies has many such conditions, and every activity judges all of them.
 *
 * The fast path only answers when the closures of `evaluator.ts` would give the same answer without failing:
 * every field is present, holds a string or bool of the literal's type, and is reached through plain objects;
 * and the evaluation's step budget covers the steps the closures would take, which it takes from the budget
 * exactly as they would (a later expression of the same policy shares the budget). Anything else (a missing
 * field, a type mismatch, a list, a timestamp, an exhausted budget) returns `undefined`, and the closures run
 * and fail exactly as they would without the fast path.
 *
 * @module
 */

import type { Expr } from "./ast.js";
import type { EvaluationRun, FieldCache } from "./evaluator.js";
import { keywordScopeError } from "./keywords.js";
import type { PolicyContext, PolicyExpressionField } from "./types.js";

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

/** One `path == literal` (or `!=`) test. */
interface EqualityTest extends FieldRead {
  readonly literal: string | boolean;
  readonly negate: boolean;
  /** Whether the field is the left operand: `equal` then spends on the field's value, else on the literal's. */
  readonly fieldOnLeft: boolean;
  /** The steps the closures take for this test, besides the spend on a long left string. */
  readonly steps: number;
}

/** Runs the tests: the expression's bool, or `undefined` to let the closures decide. */
export type EqualityFastPath = (run: EvaluationRun) => boolean | undefined;

/** An expression of the shape this module judges: its fast path, and every field it reads. */
export interface EqualityTests {
  readonly judge: EqualityFastPath;
  readonly reads: readonly FieldRead[];
}

/** The fast path of `expr` in `field`, when it has the shape this module judges; `undefined` otherwise. */
export function equalityFastPath(expr: Expr, field: PolicyExpressionField): EqualityTests | undefined {
  if (expr.kind === "compare") {
    const test = equalityTest(expr, field);
    return test === undefined ? undefined : { judge: fastPath([test], true, 0), reads: [test] };
  }
  if (expr.kind !== "logical") return undefined;
  const tests: EqualityTest[] = [];
  for (const operand of expr.operands) {
    const test = equalityTest(operand, field);
    if (test === undefined) return undefined;
    tests.push(test);
  }
  // The logical node spends one step itself before its operands.
  return { judge: fastPath(tests, expr.operator === "&&", 1), reads: tests };
}

function equalityTest(expr: Expr, field: PolicyExpressionField): EqualityTest | undefined {
  if (expr.kind !== "compare" || (expr.operator !== "==" && expr.operator !== "!=")) return undefined;
  const { left, right } = expr;
  const fieldOnLeft = left.kind === "chain";
  const [path, literal] = fieldOnLeft ? [left, right] : [right, left];
  if (literal.kind !== "string" && literal.kind !== "bool") return undefined;
  if (path.kind !== "chain" || path.head.kind !== "ident" || path.steps.length === 0) return undefined;
  const keyword = path.head.name;
  // `time` reads the trusted clock, and a name outside the field's scope always fails: neither is a field read.
  if (keyword === "time" || keywordScopeError(keyword, field, 0) !== undefined) return undefined;
  const fields: string[] = [];
  for (const step of path.steps) {
    if (step.kind !== "field") return undefined;
    fields.push(step.name);
  }
  // compare 1 + chain 1 + head 1 + one per field step + literal 1.
  return {
    keyword,
    fields,
    pathId: pathIdOf(keyword, fields),
    literal: literal.value,
    negate: expr.operator === "!=",
    fieldOnLeft,
    steps: 4 + fields.length,
  };
}

function fastPath(tests: readonly EqualityTest[], all: boolean, ownSteps: number): EqualityFastPath {
  return (run) => {
    let steps = ownSteps;
    let every = true;
    let some = false;
    for (const test of tests) {
      const value = testedValue(run, test);
      if (typeof value !== typeof test.literal) return undefined;
      const leftValue = test.fieldOnLeft ? value : test.literal;
      steps += test.steps + (typeof leftValue === "string" ? leftValue.length >> 10 : 0);
      if ((value === test.literal) !== test.negate) some = true;
      else every = false;
    }
    if (run.remaining - steps < 0) return undefined;
    run.remaining -= steps;
    return all ? every : some;
  };
}

/** The value `test` compares, from the decision's cache when it has one. */
function testedValue(run: EvaluationRun, test: EqualityTest): unknown {
  return readField(run.context, test, run.fieldCache);
}

/**
 * The string or bool at `read` in `context` (from `cache` when it was read before, and kept there), as the
 * closures would read it; `undefined` for anything they would read differently or fail on.
 */
export function readField(context: PolicyContext, read: FieldRead, cache: FieldCache | undefined): unknown {
  const fresh = () => fieldValue(context as unknown as Record<string, unknown>, read.keyword, read.fields);
  if (cache === undefined || read.pathId === undefined) return fresh();
  let value = cache[read.pathId];
  if (value === undefined) {
    value = fresh() ?? UNREADABLE;
    cache[read.pathId] = value;
  }
  return value === UNREADABLE ? undefined : value;
}

/**
 * The string or bool at `keyword.fields…` when every step reads an own member of a plain object, as the
 * closures read it; `undefined` for anything they would read differently or fail on.
 */
function fieldValue(context: Record<string, unknown>, keyword: string, fields: readonly string[]): unknown {
  let value: unknown = Object.hasOwn(context, keyword) ? context[keyword] : undefined;
  for (const name of fields) {
    if (!isPlainObject(value)) return undefined;
    value = Object.hasOwn(value, name) ? value[name] : undefined;
  }
  return typeof value === "string" || typeof value === "boolean" ? value : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
