/**
 * Expressions and policies compiled once and run many times. Every activity evaluates every policy of its
 * organization, so an expression's source is parsed and compiled into closures (see `evaluator.ts`) the first
 * time it is met, and kept by its text; a policy keeps its compiled expressions and the evaluation records it
 * can give, so judging it allocates nothing but what a failure reports.
 *
 * @module
 */

import { type CustodyError, isCustodyError } from "../common/errors.js";
import { type ApproverQuantifier, approverQuantifiers } from "./analysis.js";
import type { Expr } from "./ast.js";
import type { FieldCache } from "./evaluator.js";
import { type Code, compileNode, type EvaluationRun, MAX_EVALUATION_STEPS } from "./evaluator.js";
import { expressionError } from "./expression-errors.js";
import { type FieldFastPath, type FieldRead, fieldFastPath } from "./field-tests.js";
import { allImmutable, sameMembers } from "./immutable-inputs.js";
import { parseExpression } from "./parser.js";
import { PolicyTimestamp, parseTimestamp } from "./timestamp.js";
import type { EvaluationError, PolicyContext, PolicyExpressionField } from "./types.js";
import { toValue, type Value } from "./values.js";

/** One evaluation pass over a context: a shared step budget and one reading of the trusted time. */
export class PolicyRun implements EvaluationRun {
  remaining = MAX_EVALUATION_STEPS;
  readonly slots: Value[] = [];
  private trusted: PolicyTimestamp | CustodyError | undefined;

  /**
   * `fieldCache`: the field values read so far in `context` by the decision this run belongs to (see
   * `field-tests.ts`); only valid while the context does not change, so a decision makes its own.
   */
  constructor(
    readonly context: PolicyContext,
    readonly fieldCache?: FieldCache,
  ) {}

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
    if (isCustodyError(this.trusted)) throw this.trusted;
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
  /** Tests of fields against literals, judged without the closures when they can be (see `field-tests.ts`). */
  private readonly fieldTests: FieldFastPath | undefined;
  /** The fields an expression of such tests reads; `undefined` for any other expression. */
  readonly fieldReads: readonly FieldRead[] | undefined;
  /** Why the source does not parse, when it does not. */
  readonly failure: CustodyError | undefined;
  /** The same, as an evaluation record reports it. */
  readonly failureRecord: EvaluationError | undefined;
  private quantifiers: CompiledQuantifier[] | undefined;
  /** The last results of a consensus, by the first approver they were computed for. */
  private consensusResults: WeakMap<object, ConsensusResult> | undefined;

  constructor(
    readonly field: PolicyExpressionField,
    readonly source: string,
  ) {
    try {
      this.expr = parseExpression(source);
      this.code = compileNode(this.expr, source, field);
      const tests = fieldFastPath(this.expr, field);
      this.fieldTests = tests?.judge;
      this.fieldReads = tests?.reads;
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      this.failure = error;
      this.failureRecord = errorRecord(field, error);
    }
  }

  /** The expression's bool in `run`. Throws a `CustodyError` when it fails or gives something else. */
  evaluate(run: PolicyRun): boolean {
    if (this.failure !== undefined) throw this.failure;
    if (this.field === "consensus") return this.consensus(run);
    return this.run(run);
  }

  /**
   * A consensus reads `approvers` and `credentials` and nothing else, so the same immutable members give the
   * same result in the same number of steps: an organization's every activity by one submitter asks each of
   * its policies' consensus the same question. The result is reused when the run's budget covers the steps
   * the evaluation took; a failure is never reused, it is evaluated again.
   */
  private consensus(run: PolicyRun): boolean {
    const { approvers, credentials } = run.context;
    const first = Array.isArray(approvers) ? approvers[0] : undefined;
    if (typeof first !== "object" || first === null || !Array.isArray(credentials)) return this.run(run);
    const known = this.consensusResults?.get(first);
    if (known?.matches(approvers, credentials) && run.remaining >= known.steps) {
      run.remaining -= known.steps;
      return known.value;
    }
    const before = run.remaining;
    const value = this.run(run);
    if (allImmutable(approvers) && allImmutable(credentials)) {
      this.consensusResults ??= new WeakMap();
      // Copies of the lists (their members are immutable; the caller's lists might not stay as they are).
      this.consensusResults.set(
        first,
        new ConsensusResult([...approvers], [...credentials], value, before - run.remaining),
      );
    }
    return value;
  }

  private run(run: PolicyRun): boolean {
    if (this.fieldTests !== undefined) {
      const judged = this.fieldTests(run);
      if (judged !== undefined) return judged;
    }
    const value = this.code!(run);
    if (typeof value !== "boolean") {
      throw expressionError("POLICY_TYPE_MISMATCH", `a ${this.field} expression must give a bool`, this.expr!.start);
    }
    return value;
  }

  /**
   * The inferred pending rule (docs/spec/policy-language.md §3): a consensus that is not yet met can still be met if a
   * current approver (or one of their credentials) satisfies the body of some quantifier over `approvers` or
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

/** A consensus's result for the approvers and credentials it was computed with. */
class ConsensusResult {
  constructor(
    private readonly approvers: readonly unknown[],
    private readonly credentials: readonly unknown[],
    readonly value: boolean,
    readonly steps: number,
  ) {}

  /** Whether `approvers` and `credentials` hold the very same members, in the same order. */
  matches(approvers: readonly unknown[], credentials: readonly unknown[]): boolean {
    return sameMembers(this.approvers, approvers) && sameMembers(this.credentials, credentials);
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
