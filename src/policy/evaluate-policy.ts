/**
 * One policy's outcome for one activity (docs/spec/policy-language.md §3, the per-policy table), absent fields
 * counting as true:
 * - `time` false: `OUTCOME_TIME_INACTIVE`, nothing else is looked at;
 * - any field fails (parse, missing field, type error): `OUTCOME_ERROR`, which neither allows nor denies;
 * - `condition` false: the policy does not apply;
 * - `condition` and `consensus` true: `OUTCOME_ALLOW` or `OUTCOME_DENY_EXPLICIT` by effect;
 * - `condition` true, `consensus` false: an ALLOW policy is `OUTCOME_REQUIRES_CONSENSUS` when a current
 *   approver could be counted by it (see `someApproverCounts`), otherwise it does not apply; a DENY policy
 *   does not apply.
 *
 * The swagger `Outcome` enum has no "not applicable", so a policy that does not apply is recorded as
 * `OUTCOME_DENY_IMPLICIT`: it contributes nothing, and the decision's implicit deny is what remains when
 * nothing else applies.
 *
 * @module
 */

import { freezeBranded } from "../common/deep-frozen.js";
import { CustodyError, isCustodyError } from "../common/errors.js";
import { type CompiledExpression, compileExpression, errorRecord, PolicyRun } from "./compiled.js";
import type { FieldCache } from "./evaluator.js";
import { MAX_EVALUATION_STEPS } from "./evaluator.js";
import type { FieldRead } from "./field-tests.js";
import type {
  Evaluation,
  EvaluationError,
  Outcome,
  Policy,
  PolicyContext,
  PolicyCredential,
  PolicyExpressionField,
  PolicyUser,
} from "./types.js";

/** Whether an expression field is absent: `undefined`, `null` or only whitespace. */
export function isBlank(expression: string | null | undefined): expression is null | undefined {
  return expression == null || expression.trim() === "";
}

/** An expression's bool, or the record of its failure. */
function run(expression: CompiledExpression, session: PolicyRun): boolean | EvaluationError {
  if (expression.failureRecord !== undefined) return { ...expression.failureRecord };
  try {
    return expression.evaluate(session);
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    return errorRecord(expression.field, error);
  }
}

function compiledField(
  field: PolicyExpressionField,
  source: string | null | undefined,
): CompiledExpression | undefined {
  return isBlank(source) ? undefined : compileExpression(field, source);
}

/**
 * A policy compiled for evaluation: its expressions compiled (blank ones absent), and the records of the
 * outcomes that carry no error built once, frozen, to be shared by every decision that gives them.
 */
export class CompiledPolicy {
  readonly time: CompiledExpression | undefined;
  readonly condition: CompiledExpression | undefined;
  readonly consensus: CompiledExpression | undefined;
  private readonly records = new Map<Outcome, Evaluation>();
  /**
   * The context fields this policy's outcome depends on, besides `approvers` and `credentials` (all a
   * consensus can read): those of a condition made of tests of fields against literals (see `field-tests.ts`), or none without a condition.
   * `undefined` when the outcome depends on more: a `time` expression (the clock), any other condition.
   */
  readonly fieldReads: readonly FieldRead[] | undefined;

  constructor(readonly policy: Policy) {
    this.time = compiledField("time", policy.time);
    this.condition = compiledField("condition", policy.condition);
    this.consensus = compiledField("consensus", policy.consensus);
    if (this.time === undefined) this.fieldReads = this.condition === undefined ? [] : this.condition.fieldReads;
  }

  /** Whether this was compiled from a policy with the same fields as `policy`. */
  matches(policy: Policy): boolean {
    const own = this.policy;
    return (
      own.policyId === policy.policyId &&
      own.policyName === policy.policyName &&
      own.effect === policy.effect &&
      own.condition === policy.condition &&
      own.consensus === policy.consensus &&
      own.time === policy.time
    );
  }

  /**
   * The policy's evaluation in `context` (see {@link evaluatePolicy}). With `shared`, a record without an
   * error is the policy's frozen one for that outcome; otherwise every record is new.
   */
  evaluate(context: PolicyContext, shared = false, fieldCache?: FieldCache): Evaluation {
    return this.evaluateIn(new PolicyRun(context, fieldCache), shared);
  }

  /**
   * {@link evaluate} in `run`, which one decision reuses for each of its policies: its budget starts full
   * again here, and nothing else in it belongs to one policy (a lambda's slot is written before it is read).
   */
  evaluateIn(run: PolicyRun, shared: boolean): Evaluation {
    run.remaining = MAX_EVALUATION_STEPS;
    const outcome = this.outcome(run);
    if (typeof outcome !== "string") return newRecord(this.policy, "OUTCOME_ERROR", outcome);
    return shared ? this.sharedRecord(outcome) : newRecord(this.policy, outcome);
  }

  /** The policy's outcome, or the failure that makes it `OUTCOME_ERROR`. */
  private outcome(session: PolicyRun): Outcome | EvaluationError {
    if (this.time !== undefined) {
      const time = run(this.time, session);
      if (typeof time !== "boolean") return time;
      if (!time) return "OUTCOME_TIME_INACTIVE";
    }
    // Both fields are evaluated whatever the first gives: a failure in either makes the policy an error.
    const condition = this.condition === undefined ? undefined : run(this.condition, session);
    const consensus = this.consensus === undefined ? undefined : run(this.consensus, session);
    if (typeof condition === "object") return condition;
    if (typeof consensus === "object") return consensus;
    if (condition === false) return "OUTCOME_DENY_IMPLICIT";
    const allow = this.policy.effect === "EFFECT_ALLOW";
    if (consensus === undefined || consensus) return allow ? "OUTCOME_ALLOW" : "OUTCOME_DENY_EXPLICIT";
    if (allow && this.consensus!.someApproverCounts(session)) return "OUTCOME_REQUIRES_CONSENSUS";
    return "OUTCOME_DENY_IMPLICIT";
  }

  /**
   * Whether the policy applies to `context` whatever its consensus says: its time active, its condition true
   * (or absent), neither failing. That is the outcome the policy would have with no consensus, `OUTCOME_ALLOW`
   * for an ALLOW policy.
   */
  appliesWithoutConsensus(context: PolicyContext): boolean {
    const session = new PolicyRun(context);
    if (this.time !== undefined && run(this.time, session) !== true) return false;
    return this.condition === undefined || run(this.condition, session) === true;
  }

  private sharedRecord(outcome: Outcome): Evaluation {
    let record = this.records.get(outcome);
    if (record === undefined) {
      // Branded: a store shares it in every activity's evaluation instead of copying it.
      record = freezeBranded(newRecord(this.policy, outcome));
      this.records.set(outcome, record);
    }
    return record;
  }
}

function newRecord(policy: Policy, outcome: Outcome, error?: EvaluationError): Evaluation {
  // Built member by member, in the order the records have always had.
  const record = {} as Evaluation;
  if (policy.policyId !== undefined) record.policyId = policy.policyId;
  if (policy.policyName !== undefined) record.policyName = policy.policyName;
  record.effect = policy.effect;
  record.outcome = outcome;
  if (error !== undefined) record.error = error;
  return record;
}

const compiledPolicies = new WeakMap<Policy, CompiledPolicy>();

/** `policy` compiled, from the cache when this same object, unchanged, was compiled before. */
export function compilePolicy(policy: Policy): CompiledPolicy {
  const cached = compiledPolicies.get(policy);
  if (cached?.matches(policy)) return cached;
  const compiled = new CompiledPolicy(policy);
  compiledPolicies.set(policy, compiled);
  return compiled;
}

/**
 * Evaluates one policy against one context. Never throws for a faulty expression or context: the failure
 * is recorded as `OUTCOME_ERROR` with its message, and such a policy neither allows nor denies.
 */
export function evaluatePolicy(policy: Policy, context: PolicyContext): Evaluation {
  return compilePolicy(policy).evaluate(context);
}

/**
 * Whether a consensus expression could count `voter`, voting with `credentials`, as one of its approvers:
 * true when the voter (or one of those credentials) satisfies the body of some quantifier over
 * `approvers` or `credentials`, or when the consensus has no such quantifier (`approvers.count() >= 2`
 * counts anyone). This is the rule that lets a user named in a consensus vote on an activity it holds, and
 * refuses a vote no consensus could use. A consensus that does not parse counts no one; a blank one
 * accepts any approver.
 */
export function consensusCouldCount(
  consensus: string | null | undefined,
  voter: PolicyUser,
  credentials: readonly PolicyCredential[] = [],
): boolean {
  if (isBlank(consensus)) return true;
  // Only the voter is in scope, so a quantifier body is judged for this voter alone.
  const session = new PolicyRun({ activity: { type: "" }, approvers: [voter], credentials });
  return compileExpression("consensus", consensus).someApproverCounts(session);
}

/**
 * Evaluates a single expression to a bool in the keyword scope of `field` (for instance an MFA policy's
 * condition). Throws a `CustodyError` with `details.field` and, where known, `details.position`.
 */
export function evaluateExpression(
  expression: string,
  context: PolicyContext,
  field: PolicyExpressionField = "condition",
): boolean {
  try {
    return compileExpression(field, expression).evaluate(new PolicyRun(context));
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    throw new CustodyError(error.code, `${field}: ${error.message}`, { ...error.details, field }, { cause: error });
  }
}
