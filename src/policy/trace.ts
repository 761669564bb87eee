/**
 * An expression's evaluation as a person reads it: each clause (comparison, `&&`, `||`, `!`) with the values
 * its operands read and what it gave, and the clauses that decided the result. It is for explaining a
 * decision, never for taking one: the result it reports is the plain evaluator's, and each clause is run by
 * the same compiled closures on the same context, so a clause's value is the one the decision saw.
 *
 * The walk stops at anything that is not a clause (a keyword chain, a quantifier, a literal): such an
 * operand is shown as one value. Bounded: at most {@link MAX_TRACE_CLAUSES} clauses, each value's text at
 * most {@link MAX_VALUE_TEXT} characters, and the re-evaluations share a budget of a few evaluations.
 *
 * @module
 */

import { isCustodyError } from "../common/errors.js";
import type { Expr } from "./ast.js";
import { compileExpression, errorRecord, PolicyRun } from "./compiled.js";
import { compileNode, MAX_EVALUATION_STEPS } from "./evaluator.js";
import { PolicyTimestamp } from "./timestamp.js";
import type { EvaluationError, PolicyContext, PolicyExpressionField } from "./types.js";
import type { Value } from "./values.js";

/** Most clauses one trace lists; the rest are counted in {@link ExpressionTrace.omitted}. */
export const MAX_TRACE_CLAUSES = 40;
/** Most characters of a value's or an operand's text. */
export const MAX_VALUE_TEXT = 120;
/** The budget the re-evaluations of one trace share: a clause is run once for itself and once per operand. */
const TRACE_BUDGET = 4 * MAX_EVALUATION_STEPS;

/** One operand of a comparison: its source text and the value it read, or why it failed. */
export interface TracedOperand {
  text: string;
  /** Whether the operand is a literal (its text is its value). */
  literal: boolean;
  value?: string;
  error?: string;
}

/** One clause of an expression. */
export interface TracedClause {
  /** Nesting: 0 for the whole expression. */
  depth: number;
  kind: "compare" | "and" | "or" | "not" | "value";
  /** Its source text, cut to {@link MAX_VALUE_TEXT} characters. */
  text: string;
  /** The comparison's operator. */
  operator?: string;
  left?: TracedOperand;
  right?: TracedOperand;
  /** What it gave: a bool for a clause that ran, undefined when it failed. */
  result?: boolean;
  /** Why it failed. */
  error?: string;
  /** Whether it is on the path that settled the result (see {@link traceExpression}). */
  deciding: boolean;
}

/** What {@link traceExpression} returns. */
export interface ExpressionTrace {
  field: PolicyExpressionField;
  /** The plain evaluator's result; undefined when the expression failed. */
  result?: boolean;
  /** The plain evaluator's failure. */
  error?: EvaluationError;
  /** Depth first, the whole expression first. */
  clauses: TracedClause[];
  /** How many clauses were left out past {@link MAX_TRACE_CLAUSES}. */
  omitted: number;
}

function cut(text: string): string {
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

/** `n` as digits, and as `d·10^k` too when it is a round number of at least a million (wei amounts). */
function intText(n: bigint): string {
  const digits = n.toString();
  const match = /^(-?\d+?)(0{6,})$/.exec(digits);
  if (!match) return digits;
  const exponent = (match[2] as string).length;
  return `${match[1]}·10^${exponent} (${digits})`;
}

function timestampText(value: PolicyTimestamp): string {
  const date = new Date(value.epochMillis);
  return Number.isNaN(date.getTime()) ? `${value.epochNanos}ns` : date.toISOString();
}

/** A value as a person reads it, at most {@link MAX_VALUE_TEXT} characters. */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === "bigint") text = intText(value);
  else if (typeof value === "string") text = JSON.stringify(value);
  else if (typeof value === "boolean" || typeof value === "number") text = String(value);
  else if (value instanceof PolicyTimestamp) text = timestampText(value);
  else if (value instanceof Date) text = value.toISOString();
  else if (value === null || value === undefined) text = "null";
  else if (Array.isArray(value)) {
    const shown: string[] = [];
    let length = 0;
    for (const element of value) {
      if (length > MAX_VALUE_TEXT) break;
      const part = describeValue(element);
      shown.push(part);
      length += part.length + 2;
    }
    text = `[${shown.join(", ")}${shown.length < value.length ? ", …" : ""}] (${value.length})`;
  } else {
    const keys = Object.keys(value as object);
    text = `{${keys.slice(0, 8).join(", ")}${keys.length > 8 ? ", …" : ""}}`;
  }
  return cut(text);
}

class Tracer {
  readonly clauses: TracedClause[] = [];
  omitted = 0;
  private readonly run: PolicyRun;

  constructor(
    private readonly source: string,
    private readonly field: PolicyExpressionField,
    context: PolicyContext,
  ) {
    this.run = new PolicyRun(context);
    this.run.remaining = TRACE_BUDGET;
  }

  private text(expr: Expr): string {
    return cut(this.source.slice(expr.start, expr.end));
  }

  /** `expr` run by the evaluator's closures in the shared run. */
  private value(expr: Expr): { value: Value } | { error: string } {
    try {
      return { value: compileNode(expr, this.source, this.field)(this.run) };
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      return { error: error.message };
    }
  }

  private operand(expr: Expr): TracedOperand {
    const literal = expr.kind === "int" || expr.kind === "string" || expr.kind === "bool";
    const read = this.value(expr);
    const base = { text: this.text(expr), literal };
    return "error" in read ? { ...base, error: read.error } : { ...base, value: describeValue(read.value) };
  }

  private add(clause: TracedClause): TracedClause | undefined {
    if (this.clauses.length >= MAX_TRACE_CLAUSES) {
      this.omitted++;
      return undefined;
    }
    this.clauses.push(clause);
    return clause;
  }

  /** Traces `expr` and its clauses; returns its clause (the result read from it even when it was left out). */
  visit(expr: Expr, depth: number): { result?: boolean; error?: string; clause?: TracedClause; children: Child[] } {
    const base = { depth, text: this.text(expr), deciding: false };
    if (expr.kind === "logical" || expr.kind === "not") {
      const kind = expr.kind === "not" ? "not" : expr.operator === "&&" ? "and" : "or";
      const clause = this.add({ ...base, kind });
      const operands = expr.kind === "not" ? [expr.operand] : expr.operands;
      const children = operands.map((operand) => ({ ...this.visit(operand, depth + 1) }));
      // The node itself once more, so its result and its failure are exactly the evaluator's.
      const own = this.bool(expr);
      if (clause) Object.assign(clause, own);
      return { ...own, ...(clause && { clause }), children };
    }
    if (expr.kind === "compare") {
      const clause = this.add({
        ...base,
        kind: "compare",
        operator: expr.operator,
        left: this.operand(expr.left),
        right: this.operand(expr.right),
      });
      const own = this.bool(expr);
      if (clause) Object.assign(clause, own);
      return { ...own, ...(clause && { clause }), children: [] };
    }
    const clause = this.add({ ...base, kind: "value" });
    const own = this.bool(expr);
    if (clause) Object.assign(clause, own);
    return { ...own, ...(clause && { clause }), children: [] };
  }

  private bool(expr: Expr): { result?: boolean; error?: string } {
    const read = this.value(expr);
    if ("error" in read) return { error: read.error };
    if (typeof read.value !== "boolean") return { error: `gives ${describeValue(read.value)}, not a bool` };
    return { result: read.value };
  }
}

type Child = ReturnType<Tracer["visit"]>;

/**
 * Marks the clauses that settled `node`'s result: a false `&&` by its first false operand, a true `||` by
 * its first true one, `!` by its operand, and any other clause by itself. A true `&&` or a false `||` needs
 * every operand, so only the clause itself is marked.
 */
function markDeciding(node: Child, kind: TracedClause["kind"] | undefined): void {
  if (node.clause) node.clause.deciding = true;
  if (node.result === undefined) return;
  if (kind === "not") {
    const [operand] = node.children;
    if (operand) markDeciding(operand, operand.clause?.kind);
    return;
  }
  const settles = kind === "and" ? false : kind === "or" ? true : undefined;
  if (settles === undefined || node.result !== settles) return;
  const first = node.children.find((child) => child.result === settles);
  if (first) markDeciding(first, first.clause?.kind);
}

/**
 * Traces `source`, an expression of `field`, in `context`. The result and failure are those of the plain
 * evaluator (`evaluateExpression`); the clauses show how it got there. Never throws for a faulty expression
 * or context.
 */
export function traceExpression(
  source: string,
  context: PolicyContext,
  field: PolicyExpressionField = "condition",
): ExpressionTrace {
  const compiled = compileExpression(field, source);
  const trace: ExpressionTrace = { field, clauses: [], omitted: 0 };
  try {
    trace.result = compiled.evaluate(new PolicyRun(context));
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    trace.error = errorRecord(field, error);
  }
  if (compiled.expr === undefined) return trace;
  const tracer = new Tracer(source, field, context);
  const root = tracer.visit(compiled.expr, 0);
  markDeciding(root, root.clause?.kind);
  trace.clauses = tracer.clauses;
  trace.omitted = tracer.omitted;
  return trace;
}
