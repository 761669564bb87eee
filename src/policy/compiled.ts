/**
 * Expressions and policies compiled once and run many times. Every activity evaluates every policy of its
 * organization, so an expression's source is parsed and compiled into closures (see `evaluator.ts`) the first
 * time it is met, and kept by its text; a policy keeps its compiled expressions and the evaluation records it
 * can give, so judging it allocates nothing but what a failure reports.
 *
 * @module
 */

import { CustodyError, isCustodyError } from "../errors.js";
import { type ApproverQuantifier, approverQuantifiers } from "./analysis.js";
import type { Expr } from "./ast.js";
import { type Code, compileNode, type EvaluationRun, MAX_EVALUATION_STEPS } from "./evaluator.js";
import { expressionError } from "./expression-errors.js";
import { parseExpression } from "./parser.js";
import { PolicyTimestamp, parseTimestamp } from "./timestamp.js";
import type { EvaluationError, PolicyContext, PolicyExpressionField } from "./types.js";
import { toValue, type Value } from "./values.js";

/** One evaluation pass over a context: a shared step budget and one reading of the trusted time. */
export class PolicyRun implements EvaluationRun {
  remaining = MAX_EVALUATION_STEPS;
  readonly slots: Value[] = [];
  private trusted: PolicyTimestamp | CustodyError | undefined;

  constructor(readonly context: PolicyContext) {}

  now(): PolicyTimestamp {
    if (this.trusted === undefined) {
      const raw = this.context.time?.now;
      try {
        if (raw instanceof Date) this.trusted = PolicyTimestamp.fromDate(raw);
        else if (typeof raw === "string") this.trusted = parseTimestamp(raw);
        else throw expressionError("POLICY_MISSING_FIELD", "the trusted time (time.now) is not present");
      } catch (error) {
        if (!isCustodyError(error)) throw error;
        this.trusted = error;
      }
    }
    if (this.trusted instanceof CustodyError) throw this.trusted;
    return this.trusted;
  }
}

/** A quantifier over `approvers` or `credentials`, with its body compiled for one member at a time. */
interface CompiledQuantifier extends ApproverQuantifier {
  code: Code;
  describe: () => string;
}

/** An expression of one field, compiled; or the reason it does not parse. */
export class CompiledExpression {
  readonly expr: Expr | undefined;
  private readonly code: Code | undefined;
  /** Why the source does not parse, when it does not. */
  readonly failure: CustodyError | undefined;
  /** The same, as an evaluation record reports it. */
  readonly failureRecord: EvaluationError | undefined;
  private quantifiers: CompiledQuantifier[] | undefined;

  constructor(
    readonly field: PolicyExpressionField,
    readonly source: string,
  ) {
    try {
      this.expr = parseExpression(source);
      this.code = compileNode(this.expr, source, field);
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      this.failure = error;
      this.failureRecord = errorRecord(field, error);
    }
  }

  /** The expression's bool in `run`. Throws a `CustodyError` when it fails or gives something else. */
  evaluate(run: PolicyRun): boolean {
    if (this.failure !== undefined) throw this.failure;
    const value = this.code!(run);
    if (typeof value !== "boolean") {
      throw expressionError("POLICY_TYPE_MISMATCH", `a ${this.field} expression must give a bool`, this.expr!.start);
    }
    return value;
  }

  /**
   * The inferred pending rule (spec §3): a consensus that is not yet met can still be met if a current
   * approver (or one of their credentials) satisfies the body of some quantifier over `approvers` or
   * `credentials`, or if it has no such quantifier at all (`approvers.count() >= 2`). A consensus that does not
   * parse counts no one.
   */
  someApproverCounts(run: PolicyRun): boolean {
    if (this.expr === undefined) return false;
    this.quantifiers ??= approverQuantifiers(this.expr).map((quantifier) => ({
      ...quantifier,
      // Only the quantifier's own variable is bound: a body reading an outer one fails, and is not met.
      code: compileNode(quantifier.body, this.source, this.field, [quantifier.variable]),
      describe: () => quantifier.keyword,
    }));
    if (this.quantifiers.length === 0) return true;
    return this.quantifiers.some(({ keyword, body, code, describe }) => {
      const members = run.context[keyword];
      if (!Array.isArray(members)) return false;
      return members.some((member) => {
        try {
          run.slots[0] = toValue(member, describe, body.start);
          return code(run) === true;
        } catch (error) {
          // A body that fails for this member is simply not met.
          if (isCustodyError(error)) return false;
          throw error;
        }
      });
    });
  }
}

/** The record of an expression failure. */
export function errorRecord(field: PolicyExpressionField, error: CustodyError): EvaluationError {
  const position = error.details.position as number | undefined;
  return { field, message: error.message, ...(position === undefined ? {} : { position }) };
}

// Every activity evaluates every policy of its organization, so the same few sources are compiled over and
// over. A compiled expression depends on its field and text alone, so it is shared; the bound keeps an
// organization that writes many policies from growing the cache without end (oldest first out).
const CACHE_SIZE = 4096;
const compiledByField: Record<PolicyExpressionField, Map<string, CompiledExpression>> = {
  condition: new Map(),
  consensus: new Map(),
  time: new Map(),
};

/** `source` compiled for `field`, from the cache when it was met before. */
export function compileExpression(field: PolicyExpressionField, source: string): CompiledExpression {
  const cache = compiledByField[field];
  let compiled = cache.get(source);
  if (compiled === undefined) {
    compiled = new CompiledExpression(field, source);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(source, compiled);
  }
  return compiled;
}
