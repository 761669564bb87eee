/**
 * Evaluates a parsed expression against a context.
 *
 * Strict and without short-circuit (policy-language spec, custodian's decisions 4 and 10): every operand
 * of `&&`, `||`, `in` and every element of a quantifier is evaluated, so a missing field or a type error
 * anywhere makes the whole expression fail, whatever the other operands say. A step budget bounds the
 * work one evaluation may do, so nested quantifiers over large lists cannot stall the engine.
 *
 * @module
 */

import type { CustodyError } from "../errors.js";
import type { Chain, Expr, Span, Step } from "./ast.js";
import { isWithinCronSpan, parseCronSpan } from "./cron-span.js";
import { expressionError } from "./expression-errors.js";
import { keywordScopeError } from "./keywords.js";
import { type PolicyTimestamp, parseTimestamp } from "./timestamp.js";
import type { PolicyContext, PolicyExpressionField } from "./types.js";
import { compareOrder, isList, isMap, ownField, toValue, typeOf, type Value, valuesEqual } from "./values.js";

/**
 * Most evaluation steps (nodes, chain steps, list elements visited) one policy evaluation may take: about
 * a hundred times what a large real policy needs, and at most about a hundred milliseconds of work.
 */
export const MAX_EVALUATION_STEPS = 500_000;

/** A countdown of evaluation steps, shared by every expression of one policy evaluation. */
export class EvaluationBudget {
  constructor(private remaining: number = MAX_EVALUATION_STEPS) {}

  spend(steps: number, position: number): void {
    this.remaining -= steps;
    if (this.remaining < 0) {
      throw expressionError(
        "POLICY_EVALUATION_BUDGET_EXCEEDED",
        `evaluation exceeded ${MAX_EVALUATION_STEPS} steps`,
        position,
      );
    }
  }
}

/** Everything an evaluation reads: the source (for messages), the field (for keyword scope), the context. */
export interface EvaluationScope {
  source: string;
  field: PolicyExpressionField;
  context: PolicyContext;
  budget: EvaluationBudget;
  /** The trusted request time; throws when the context has none. */
  now: () => PolicyTimestamp;
}

/** Lambda variables in scope, innermost first. */
export type Bindings = { name: string; value: Value; parent: Bindings } | undefined;

const QUOTE_LIMIT = 60;

/** Evaluates `expr` in `scope`; throws a `CustodyError` on the first failure. */
export function evaluateNode(expr: Expr, scope: EvaluationScope, bindings?: Bindings): Value {
  return new Evaluator(scope).evaluate(expr, bindings);
}

class Evaluator {
  constructor(private readonly scope: EvaluationScope) {}

  evaluate(expr: Expr, bindings: Bindings): Value {
    this.scope.budget.spend(1, expr.start);
    switch (expr.kind) {
      case "int":
      case "string":
      case "bool":
        return expr.value;
      case "list":
        return expr.items.map((item) => this.evaluate(item, bindings));
      case "ident":
        return this.resolve(expr, bindings);
      case "not":
        return !this.bool(expr.operand, bindings, "the operand of '!'");
      case "logical": {
        const values = expr.operands.map((operand) => this.bool(operand, bindings, `an operand of '${expr.operator}'`));
        return expr.operator === "&&" ? values.every(Boolean) : values.some(Boolean);
      }
      case "compare":
        return this.compare(expr, bindings);
      case "function":
        return this.callFunction(expr, bindings);
      case "chain":
        return this.chain(expr, bindings);
    }
  }

  private quote(span: Span): string {
    const text = this.scope.source.slice(span.start, span.end);
    return `'${text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text}'`;
  }

  private typeError(message: string, position: number): CustodyError {
    return expressionError("POLICY_TYPE_MISMATCH", message, position);
  }

  private bool(expr: Expr, bindings: Bindings, role: string): boolean {
    const value = this.evaluate(expr, bindings);
    if (typeof value !== "boolean") {
      throw this.typeError(`${role} must be a bool, but ${this.quote(expr)} is ${article(typeOf(value))}`, expr.start);
    }
    return value;
  }

  private resolve(expr: Expr & { kind: "ident" }, bindings: Bindings): Value {
    for (let binding = bindings; binding !== undefined; binding = binding.parent) {
      if (binding.name === expr.name) return binding.value;
    }
    const scopeError = keywordScopeError(expr.name, this.scope.field, expr.start);
    if (scopeError !== undefined) throw scopeError;
    if (expr.name === "time") return { now: this.scope.now() };
    const raw = ownField(this.scope.context, expr.name);
    if (raw === undefined || raw === null) {
      throw expressionError(
        "POLICY_MISSING_FIELD",
        `keyword '${expr.name}' is not present for this activity`,
        expr.start,
      );
    }
    return toValue(raw, () => `keyword '${expr.name}'`, expr.start);
  }

  private compare(expr: Expr & { kind: "compare" }, bindings: Bindings): Value {
    const left = this.evaluate(expr.left, bindings);
    const right = this.evaluate(expr.right, bindings);
    const at = expr.operatorStart;
    switch (expr.operator) {
      case "==":
        return this.equal(left, right, at);
      case "!=":
        return !this.equal(left, right, at);
      case "in": {
        if (!isList(right)) {
          throw this.typeError(
            `'in' needs a list on its right, but ${this.quote(expr.right)} is ${article(typeOf(right))}`,
            at,
          );
        }
        return this.elementsEqual(right, left, expr.right, at).some(Boolean);
      }
      default: {
        const sign = compareOrder(left, right, expr.operator, at);
        if (expr.operator === "<") return sign < 0;
        if (expr.operator === "<=") return sign <= 0;
        if (expr.operator === ">") return sign > 0;
        return sign >= 0;
      }
    }
  }

  private equal(left: Value, right: Value, position: number): boolean {
    if (typeof left === "string") this.scope.budget.spend(left.length >> 10, position);
    return valuesEqual(left, right, position);
  }

  /** Compares `needle` with every element (no short-circuit: a mistyped element fails the expression). */
  private elementsEqual(list: readonly unknown[], needle: Value, listSpan: Span, position: number): boolean[] {
    return list.map((element, i) => {
      this.scope.budget.spend(1, position);
      const value = toValue(element, () => `element ${i} of ${this.quote(listSpan)}`, position);
      return this.equal(needle, value, position);
    });
  }

  private callFunction(expr: Expr & { kind: "function" }, bindings: Bindings): Value {
    const args = expr.args.map((arg) => {
      const value = this.evaluate(arg, bindings);
      if (typeof value !== "string") {
        throw this.typeError(
          `${expr.name}() takes string arguments, but ${this.quote(arg)} is ${article(typeOf(value))}`,
          arg.start,
        );
      }
      return value;
    });
    const at = expr.args.map((arg) => arg.start);
    if (expr.name === "Timestamp") return parseTimestamp(args[0]!, at[0]);
    const span = parseCronSpan(args[0]!, args[1]!, args[2]!, { cron: at[0], duration: at[1], timeZone: at[2] });
    return isWithinCronSpan(span, this.scope.now().epochMillis);
  }

  private chain(expr: Chain, bindings: Bindings): Value {
    let value = this.evaluate(expr.head, bindings);
    let receiver: Span = expr.head;
    for (const step of expr.steps) {
      this.scope.budget.spend(1, step.start);
      value = this.step(value, step, receiver, bindings);
      receiver = { start: expr.start, end: step.end };
    }
    return value;
  }

  private step(value: Value, step: Step, receiver: Span, bindings: Bindings): Value {
    const describe = () => this.quote(receiver);
    switch (step.kind) {
      case "field": {
        // A bare `.count` on a list means `.count()` (custodian's decision 2).
        if (isList(value) && step.name === "count") return BigInt(value.length);
        if (!isMap(value)) {
          throw this.typeError(
            `${describe()} is ${article(typeOf(value))} and has no field '${step.name}'`,
            step.start,
          );
        }
        const raw = ownField(value, step.name);
        return toValue(raw, () => `field '${step.name}' of ${describe()}`, step.start);
      }
      case "index":
        return this.index(value, this.evaluate(step.index, bindings), step, describe);
      case "slice":
        return this.slice(value, step, bindings, describe);
      case "count":
        return BigInt(this.list(value, "count()", step, describe).length);
      case "contains": {
        const list = this.list(value, "contains()", step, describe);
        const needle = this.evaluate(step.value, bindings);
        return this.elementsEqual(list, needle, receiver, step.start).some(Boolean);
      }
      case "lambda":
        return this.quantify(value, step, bindings, describe);
    }
  }

  private list(value: Value, method: string, step: Step, describe: () => string): readonly unknown[] {
    if (!isList(value)) {
      throw this.typeError(`${method} needs a list, but ${describe()} is ${article(typeOf(value))}`, step.start);
    }
    return value;
  }

  private index(value: Value, index: Value, step: Step & { kind: "index" }, describe: () => string): Value {
    const at = step.index.start;
    if (isMap(value)) {
      if (typeof index !== "string") {
        throw this.typeError(`${describe()} is a map and is indexed by string keys, not ${typeOf(index)}`, at);
      }
      return toValue(ownField(value, index), () => `key '${index}' of ${describe()}`, at);
    }
    if (!isList(value) && typeof value !== "string") {
      throw this.typeError(`${describe()} is ${article(typeOf(value))} and cannot be indexed`, at);
    }
    if (typeof index !== "bigint") {
      throw this.typeError(
        `${describe()} is ${article(typeOf(value))} and is indexed by int, not ${typeOf(index)}`,
        at,
      );
    }
    const items = typeof value === "string" ? this.characters(value, at) : value;
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

  private slice(value: Value, step: Step & { kind: "slice" }, bindings: Bindings, describe: () => string): Value {
    const from = this.evaluate(step.from, bindings);
    const to = this.evaluate(step.to, bindings);
    if (!isList(value) && typeof value !== "string") {
      throw this.typeError(`${describe()} is ${article(typeOf(value))} and cannot be sliced`, step.start);
    }
    if (typeof from !== "bigint" || typeof to !== "bigint") {
      throw this.typeError("slice bounds must be ints", step.start);
    }
    const items = typeof value === "string" ? this.characters(value, step.start) : value;
    if (from < 0n || from > to || to > BigInt(items.length)) {
      throw expressionError(
        "POLICY_OUT_OF_RANGE",
        `slice [${from}..${to}] is out of range for ${describe()} (length ${items.length})`,
        step.start,
      );
    }
    const part = items.slice(Number(from), Number(to));
    return typeof part === "string" ? part : typeof value === "string" ? part.join("") : part;
  }

  /**
   * A string as indexable characters: the string itself when it has no surrogate pairs (every hex string,
   * address and id), otherwise its code points, so an index never splits a character.
   */
  private characters(value: string, position: number): string | readonly string[] {
    this.scope.budget.spend(value.length >> 10, position);
    return /[\uD800-\uDFFF]/.test(value) ? Array.from(value) : value;
  }

  private quantify(value: Value, step: Step & { kind: "lambda" }, bindings: Bindings, describe: () => string): Value {
    const list = this.list(value, `${step.method}()`, step, describe);
    const kept: unknown[] = [];
    const results = list.map((element, i) => {
      this.scope.budget.spend(1, step.start);
      const bound = toValue(element, () => `element ${i} of ${describe()}`, step.start);
      const result = this.bool(
        step.body,
        { name: step.variable, value: bound, parent: bindings },
        `the predicate of ${step.method}()`,
      );
      if (result) kept.push(element);
      return result;
    });
    if (step.method === "filter") return kept;
    return step.method === "any" ? results.some(Boolean) : results.every(Boolean);
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
