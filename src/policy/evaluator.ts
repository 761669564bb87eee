/**
 * Evaluates parsed expressions. Each tree is compiled once into nested closures (one per node, with every
 * name resolved, every message's quote and every constant prepared ahead), and the closures run against a
 * context as many times as activities need them, instead of walking the tree with a scope and a binding list
 * per evaluation, which would be most of a policy's cost.
 *
 * Strict and without short-circuit (docs/spec/policy-language.md, decisions 4 and 10): every operand
 * of `&&`, `||`, `in` and every element of a quantifier is evaluated, so a missing field or a type error
 * anywhere makes the whole expression fail, whatever the other operands say. A step budget bounds the
 * work one evaluation may do, so nested quantifiers over large lists cannot stall the engine. The closures
 * take their steps, and raise their errors, in exactly the order and at exactly the positions a walk of the
 * tree would.
 *
 * @module
 */

import type { CustodyError } from "../common/errors.js";
import type { Chain, Expr, Span, Step } from "./ast.js";
import { isWithinCronSpan, parseCronSpan } from "./cron-span.js";
import { expressionError } from "./expression-errors.js";
import { keywordScopeError } from "./keywords.js";
import { PolicyTimestamp, parseTimestamp } from "./timestamp.js";
import type { PolicyContext, PolicyExpressionField } from "./types.js";
import { compareOrder, isList, ownField, toValue, typeOf, type Value, valuesEqual } from "./values.js";

/**
 * Most evaluation steps (nodes, chain steps, list elements visited) one policy evaluation may take: about
 * a hundred times what a large real policy needs, and at most about a hundred milliseconds of work.
 */
export const MAX_EVALUATION_STEPS = 500_000;

/**
 * What one evaluation reads and spends: the context, the step budget (shared by every expression of one
 * policy evaluation), the trusted time, and the values of the lambda variables in scope, by depth.
 */
/**
 * The field values one decision has read, by a field test's path number (`field-tests.ts`): the policies of an organization
 * test the same few fields (`activity.resource`, `wallet.id`, ...), and the context does not change while
 * they are judged, so each is read once per decision. A marker value stands for a field the fast path cannot
 * read.
 */
export type FieldCache = unknown[];

export interface EvaluationRun {
  readonly context: PolicyContext;
  /** Steps left; below zero the evaluation has failed. */
  remaining: number;
  /** The trusted request time; throws when the context has none. */
  now(): PolicyTimestamp;
  /** `slots[d]` holds the variable of the lambda at depth `d` while its body runs. */
  readonly slots: Value[];
  /** Field values already read in this context by the field-test fast path, shared by one decision's policies. */
  readonly fieldCache?: FieldCache | undefined;
}

/** A compiled node. Throws a `CustodyError` on the first failure. */
export type Code = (run: EvaluationRun) => Value;

/** Spends `steps` of the budget, failing at `position` once it is exhausted. */
export function spend(run: EvaluationRun, steps: number, position: number): void {
  run.remaining -= steps;
  if (run.remaining < 0) {
    throw expressionError(
      "POLICY_EVALUATION_BUDGET_EXCEEDED",
      `evaluation exceeded ${MAX_EVALUATION_STEPS} steps`,
      position,
    );
  }
}

const QUOTE_LIMIT = 60;

/**
 * Compiles `expr`, read from `source` in the keyword scope of `field`. `bound` names the lambda variables
 * in scope around it, outermost first (their values are `slots[0..]`): empty for a whole expression.
 */
export function compileNode(
  expr: Expr,
  source: string,
  field: PolicyExpressionField,
  bound: readonly string[] = [],
): Code {
  return new Compiler(source, field).node(expr, bound);
}

/** A closure that builds its message only when it is needed (failures are rare, and messages cost). */
type Describe = () => string;

class Compiler {
  constructor(
    private readonly source: string,
    private readonly field: PolicyExpressionField,
  ) {}

  node(expr: Expr, bound: readonly string[]): Code {
    const at = expr.start;
    switch (expr.kind) {
      case "int":
      case "string":
      case "bool": {
        const value = expr.value;
        return (run) => {
          spend(run, 1, at);
          return value;
        };
      }
      case "list": {
        const items = expr.items.map((item) => this.node(item, bound));
        return (run) => {
          spend(run, 1, at);
          const values: Value[] = [];
          for (const item of items) values.push(item(run));
          return values;
        };
      }
      case "ident":
        return this.ident(expr, bound);
      case "not": {
        const operand = this.bool(expr.operand, bound, "the operand of '!'");
        return (run) => {
          spend(run, 1, at);
          return !operand(run);
        };
      }
      case "logical": {
        const role = `an operand of '${expr.operator}'`;
        const operands = expr.operands.map((operand) => this.bool(operand, bound, role));
        const all = expr.operator === "&&";
        return (run) => {
          spend(run, 1, at);
          // Every operand runs, whatever the ones before gave.
          let every = true;
          let some = false;
          for (const operand of operands) {
            if (operand(run)) some = true;
            else every = false;
          }
          return all ? every : some;
        };
      }
      case "compare":
        return this.compare(expr, bound);
      case "function":
        return this.callFunction(expr, bound);
      case "chain":
        return this.chain(expr, bound);
    }
  }

  private quote(span: Span): string {
    const text = this.source.slice(span.start, span.end);
    return `'${text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text}'`;
  }

  /** `expr`, which must give a bool; `role` names it in the message when it does not. */
  private bool(expr: Expr, bound: readonly string[], role: string): (run: EvaluationRun) => boolean {
    const code = this.node(expr, bound);
    return (run) => {
      const value = code(run);
      if (typeof value !== "boolean") {
        throw typeError(`${role} must be a bool, but ${this.quote(expr)} is ${article(typeOf(value))}`, expr.start);
      }
      return value;
    };
  }

  private ident(expr: Expr & { kind: "ident" }, bound: readonly string[]): Code {
    const at = expr.start;
    const { name } = expr;
    // The innermost lambda variable of that name, as a walk of the bindings would find it.
    const slot = bound.lastIndexOf(name);
    if (slot >= 0) {
      return (run) => {
        spend(run, 1, at);
        return run.slots[slot]!;
      };
    }
    const field = this.field;
    if (keywordScopeError(name, field, at) !== undefined) {
      return (run) => {
        spend(run, 1, at);
        throw keywordScopeError(name, field, at)!;
      };
    }
    if (name === "time") {
      return (run) => {
        spend(run, 1, at);
        return { now: run.now() };
      };
    }
    const describe = () => `keyword '${name}'`;
    return (run) => {
      spend(run, 1, at);
      const raw = ownField(run.context, name);
      if (raw === undefined || raw === null) {
        throw expressionError("POLICY_MISSING_FIELD", `keyword '${name}' is not present for this activity`, at);
      }
      return toValue(raw, describe, at);
    };
  }

  private compare(expr: Expr & { kind: "compare" }, bound: readonly string[]): Code {
    const start = expr.start;
    const left = this.node(expr.left, bound);
    const right = this.node(expr.right, bound);
    const at = expr.operatorStart;
    const { operator } = expr;
    switch (operator) {
      case "==":
      case "!=": {
        const negate = operator === "!=";
        return (run) => {
          spend(run, 1, start);
          const a = left(run);
          const b = right(run);
          return equal(run, a, b, at) !== negate;
        };
      }
      case "in": {
        const listSpan = expr.right;
        const describeList = () => this.quote(listSpan);
        return (run) => {
          spend(run, 1, start);
          const needle = left(run);
          const list = right(run);
          if (!isList(list)) {
            throw typeError(`'in' needs a list on its right, but ${describeList()} is ${article(typeOf(list))}`, at);
          }
          return elementsEqual(run, list, needle, describeList, at);
        };
      }
      default:
        return (run) => {
          spend(run, 1, start);
          const a = left(run);
          const b = right(run);
          const sign = compareOrder(a, b, operator, at);
          if (operator === "<") return sign < 0;
          if (operator === "<=") return sign <= 0;
          if (operator === ">") return sign > 0;
          return sign >= 0;
        };
    }
  }

  private callFunction(expr: Expr & { kind: "function" }, bound: readonly string[]): Code {
    const start = expr.start;
    const args = expr.args.map((arg) => {
      const code = this.node(arg, bound);
      return (run: EvaluationRun): string => {
        const value = code(run);
        if (typeof value !== "string") {
          throw typeError(
            `${expr.name}() takes string arguments, but ${this.quote(arg)} is ${article(typeOf(value))}`,
            arg.start,
          );
        }
        return value;
      };
    });
    const at = expr.args.map((arg) => arg.start);
    if (expr.name === "Timestamp") {
      return (run) => {
        spend(run, 1, start);
        const values = args.map((arg) => arg(run));
        return parseTimestamp(values[0]!, at[0]);
      };
    }
    const positions = { cron: at[0], duration: at[1], timeZone: at[2] };
    return (run) => {
      spend(run, 1, start);
      const values = args.map((arg) => arg(run));
      const span = parseCronSpan(values[0]!, values[1]!, values[2]!, positions);
      return isWithinCronSpan(span, run.now().epochMillis);
    };
  }

  private chain(expr: Chain, bound: readonly string[]): Code {
    const start = expr.start;
    const head = this.node(expr.head, bound);
    const steps = expr.steps.map((step, i) => {
      // What the step applies to, as messages quote it: the head, then the chain up to the step before.
      const receiver: Span = i === 0 ? expr.head : { start: expr.start, end: expr.steps[i - 1]!.end };
      const code = this.step(step, () => this.quote(receiver), bound);
      const stepAt = step.start;
      return (run: EvaluationRun, value: Value): Value => {
        spend(run, 1, stepAt);
        return code(run, value);
      };
    });
    return (run) => {
      spend(run, 1, start);
      let value = head(run);
      for (const step of steps) value = step(run, value);
      return value;
    };
  }

  private step(step: Step, describe: Describe, bound: readonly string[]): (run: EvaluationRun, value: Value) => Value {
    const at = step.start;
    switch (step.kind) {
      case "field": {
        const { name } = step;
        const describeField = () => `field '${name}' of ${describe()}`;
        return (_run, value) => {
          // A bare `.count` on a list means `.count()` (custodian's decision 2).
          if (Array.isArray(value)) {
            if (name === "count") return BigInt(value.length);
          } else if (typeof value === "object" && !(value instanceof PolicyTimestamp)) {
            const raw = ownField(value, name);
            // Strings and bools read as themselves; everything else through the value model.
            return typeof raw === "string" || typeof raw === "boolean" ? raw : toValue(raw, describeField, at);
          }
          throw typeError(`${describe()} is ${article(typeOf(value))} and has no field '${name}'`, at);
        };
      }
      case "index": {
        const index = this.node(step.index, bound);
        const indexAt = step.index.start;
        return (run, value) => indexValue(run, value, index(run), indexAt, describe);
      }
      case "slice": {
        const from = this.node(step.from, bound);
        const to = this.node(step.to, bound);
        return (run, value) => sliceValue(run, value, from(run), to(run), at, describe);
      }
      case "count":
        return (_run, value) => BigInt(listOf(value, "count()", at, describe).length);
      case "contains": {
        const needle = this.node(step.value, bound);
        return (run, value) => {
          const list = listOf(value, "contains()", at, describe);
          return elementsEqual(run, list, needle(run), describe, at);
        };
      }
      case "lambda": {
        const { method } = step;
        const depth = bound.length;
        const body = this.bool(step.body, [...bound, step.variable], `the predicate of ${method}()`);
        const label = `${method}()`;
        return (run, value) => {
          const list = listOf(value, label, at, describe);
          const kept: unknown[] = [];
          let every = true;
          let some = false;
          for (let i = 0; i < list.length; i++) {
            const element = list[i];
            // A hole of a sparse array is no element: it is skipped, as Array.prototype.map skips it.
            if (element === undefined && !(i in list)) continue;
            spend(run, 1, at);
            run.slots[depth] = elementValue(element, i, describe, at);
            if (body(run)) {
              some = true;
              kept.push(element);
            } else every = false;
          }
          if (method === "filter") return kept;
          return method === "any" ? some : every;
        };
      }
    }
  }
}

function typeError(message: string, position: number): CustodyError {
  return expressionError("POLICY_TYPE_MISMATCH", message, position);
}

function equal(run: EvaluationRun, left: Value, right: Value, position: number): boolean {
  if (typeof left === "string") spend(run, left.length >> 10, position);
  // Two strings (the common case: ids, addresses, types) compare directly; every other pair by the typing rules.
  if (typeof left === "string" && typeof right === "string") return left === right;
  return valuesEqual(left, right, position);
}

/** Element `i` of a list as a value; its message names the list only when it fails. */
function elementValue(element: unknown, i: number, describe: Describe, position: number): Value {
  if (typeof element === "string" || typeof element === "boolean") return element;
  return toValue(element, () => `element ${i} of ${describe()}`, position);
}

/** Whether `needle` equals some element, comparing with every one (a mistyped element fails the expression). */
function elementsEqual(
  run: EvaluationRun,
  list: readonly unknown[],
  needle: Value,
  describe: Describe,
  position: number,
): boolean {
  let found = false;
  for (let i = 0; i < list.length; i++) {
    const element = list[i];
    // A hole of a sparse array is no element: it is skipped, as Array.prototype.map skips it.
    if (element === undefined && !(i in list)) continue;
    spend(run, 1, position);
    if (equal(run, needle, elementValue(element, i, describe, position), position)) found = true;
  }
  return found;
}

function listOf(value: Value, method: string, position: number, describe: Describe): readonly unknown[] {
  if (!isList(value)) {
    throw typeError(`${method} needs a list, but ${describe()} is ${article(typeOf(value))}`, position);
  }
  return value;
}

function indexValue(run: EvaluationRun, value: Value, index: Value, at: number, describe: Describe): Value {
  if (typeOf(value) === "map") {
    if (typeof index !== "string") {
      throw typeError(`${describe()} is a map and is indexed by string keys, not ${typeOf(index)}`, at);
    }
    return toValue(ownField(value as object, index), () => `key '${index}' of ${describe()}`, at);
  }
  if (!isList(value) && typeof value !== "string") {
    throw typeError(`${describe()} is ${article(typeOf(value))} and cannot be indexed`, at);
  }
  if (typeof index !== "bigint") {
    throw typeError(`${describe()} is ${article(typeOf(value))} and is indexed by int, not ${typeOf(index)}`, at);
  }
  const items = typeof value === "string" ? characters(run, value, at) : value;
  if (index < 0n || index >= BigInt(items.length)) {
    throw expressionError(
      "POLICY_OUT_OF_RANGE",
      `index ${index} is out of range for ${describe()} (length ${items.length})`,
      at,
    );
  }
  const item = items[Number(index)];
  return typeof value === "string" ? (item as string) : toValue(item, () => `element ${index} of ${describe()}`, at);
}

function sliceValue(run: EvaluationRun, value: Value, from: Value, to: Value, at: number, describe: Describe): Value {
  if (!isList(value) && typeof value !== "string") {
    throw typeError(`${describe()} is ${article(typeOf(value))} and cannot be sliced`, at);
  }
  if (typeof from !== "bigint" || typeof to !== "bigint") {
    throw typeError("slice bounds must be ints", at);
  }
  const items = typeof value === "string" ? characters(run, value, at) : value;
  if (from < 0n || from > to || to > BigInt(items.length)) {
    throw expressionError(
      "POLICY_OUT_OF_RANGE",
      `slice [${from}..${to}] is out of range for ${describe()} (length ${items.length})`,
      at,
    );
  }
  const part = items.slice(Number(from), Number(to));
  return typeof part === "string" ? part : typeof value === "string" ? part.join("") : part;
}

/**
 * A string as indexable characters: the string itself when it has no surrogate pairs (every hex string,
 * address and id), otherwise its code points, so an index never splits a character.
 */
function characters(run: EvaluationRun, value: string, position: number): string | readonly string[] {
  spend(run, value.length >> 10, position);
  return /[\uD800-\uDFFF]/.test(value) ? Array.from(value) : value;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
