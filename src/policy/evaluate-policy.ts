/**
 * One policy's outcome for one activity (policy-language spec §3, the per-policy table), absent fields
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

import { CustodyError, isCustodyError } from "../errors.js";
import { approverQuantifiers } from "./analysis.js";
import type { Expr } from "./ast.js";
import { EvaluationBudget, type EvaluationScope, evaluateNode } from "./evaluator.js";
import { expressionError } from "./expression-errors.js";
import { parseExpression } from "./parser.js";
import { PolicyTimestamp, parseTimestamp } from "./timestamp.js";
import type {
  Evaluation,
  EvaluationError,
  Policy,
  PolicyContext,
  PolicyCredential,
  PolicyExpressionField,
  PolicyUser,
} from "./types.js";
import { toValue } from "./values.js";

/** Whether an expression field is absent: `undefined`, `null` or only whitespace. */
export function isBlank(expression: string | null | undefined): expression is null | undefined {
  return expression == null || expression.trim() === "";
}

/** One evaluation pass over a context: a shared step budget and one reading of the trusted time. */
class PolicySession {
  private readonly budget = new EvaluationBudget();
  private now: PolicyTimestamp | CustodyError | undefined;

  constructor(private readonly context: PolicyContext) {}

  scope(field: PolicyExpressionField, source: string): EvaluationScope {
    return { source, field, context: this.context, budget: this.budget, now: () => this.trustedNow() };
  }

  /** Parses and evaluates `source`, which must give a bool. Throws a `CustodyError` otherwise. */
  evaluateBoolean(field: PolicyExpressionField, source: string): { value: boolean; expr: Expr } {
    const expr = parseExpression(source);
    const value = evaluateNode(expr, this.scope(field, source));
    if (typeof value !== "boolean") {
      throw expressionError("POLICY_TYPE_MISMATCH", `a ${field} expression must give a bool`, expr.start);
    }
    return { value, expr };
  }

  /**
   * The inferred pending rule (spec §3): a consensus that is not yet met can still be met if a current
   * approver (or one of their credentials) satisfies the body of some quantifier over `approvers` or
   * `credentials`, or if it has no such quantifier at all (`approvers.count() >= 2`).
   */
  someApproverCounts(consensus: Expr, source: string): boolean {
    const quantifiers = approverQuantifiers(consensus);
    if (quantifiers.length === 0) return true;
    const scope = this.scope("consensus", source);
    return quantifiers.some(({ keyword, variable, body }) => {
      const members = this.context[keyword];
      if (!Array.isArray(members)) return false;
      return members.some((member) => {
        try {
          const value = toValue(member, () => keyword, body.start);
          return evaluateNode(body, scope, { name: variable, value, parent: undefined }) === true;
        } catch (error) {
          // A body that fails for this member (for instance one reading an outer lambda variable) is simply not met.
          if (isCustodyError(error)) return false;
          throw error;
        }
      });
    });
  }

  private trustedNow(): PolicyTimestamp {
    if (this.now === undefined) {
      const raw = this.context.time?.now;
      try {
        if (raw instanceof Date) this.now = PolicyTimestamp.fromDate(raw);
        else if (typeof raw === "string") this.now = parseTimestamp(raw);
        else throw expressionError("POLICY_MISSING_FIELD", "the trusted time (time.now) is not present");
      } catch (error) {
        if (!isCustodyError(error)) throw error;
        this.now = error;
      }
    }
    if (this.now instanceof CustodyError) throw this.now;
    return this.now;
  }
}

type FieldResult = { ok: true; value: boolean; expr: Expr } | { ok: false; error: EvaluationError };

function run(session: PolicySession, field: PolicyExpressionField, source: string): FieldResult {
  try {
    return { ok: true, ...session.evaluateBoolean(field, source) };
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    const position = error.details.position;
    return { ok: false, error: { field, message: error.message, ...(position === undefined ? {} : { position }) } };
  }
}

/**
 * Evaluates one policy against one context. Never throws for a faulty expression or context: the failure
 * is recorded as `OUTCOME_ERROR` with its message, and such a policy neither allows nor denies.
 */
export function evaluatePolicy(policy: Policy, context: PolicyContext): Evaluation {
  const session = new PolicySession(context);
  const record = (outcome: Evaluation["outcome"], error?: EvaluationError): Evaluation => ({
    ...(policy.policyId === undefined ? {} : { policyId: policy.policyId }),
    ...(policy.policyName === undefined ? {} : { policyName: policy.policyName }),
    effect: policy.effect,
    outcome,
    ...(error === undefined ? {} : { error }),
  });

  if (!isBlank(policy.time)) {
    const time = run(session, "time", policy.time);
    if (!time.ok) return record("OUTCOME_ERROR", time.error);
    if (!time.value) return record("OUTCOME_TIME_INACTIVE");
  }
  // Both fields are evaluated whatever the first gives: a failure in either makes the policy an error.
  const condition = isBlank(policy.condition) ? undefined : run(session, "condition", policy.condition);
  const consensus = isBlank(policy.consensus) ? undefined : run(session, "consensus", policy.consensus);
  if (condition?.ok === false) return record("OUTCOME_ERROR", condition.error);
  if (consensus?.ok === false) return record("OUTCOME_ERROR", consensus.error);
  if (condition !== undefined && !condition.value) return record("OUTCOME_DENY_IMPLICIT");
  const allow = policy.effect === "EFFECT_ALLOW";
  if (consensus === undefined || consensus.value) return record(allow ? "OUTCOME_ALLOW" : "OUTCOME_DENY_EXPLICIT");
  if (allow && session.someApproverCounts(consensus.expr, policy.consensus!)) {
    return record("OUTCOME_REQUIRES_CONSENSUS");
  }
  return record("OUTCOME_DENY_IMPLICIT");
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
  let expr: Expr;
  try {
    expr = parseExpression(consensus);
  } catch (error) {
    if (isCustodyError(error)) return false;
    throw error;
  }
  // Only the voter is in scope, so a quantifier body is judged for this voter alone.
  const session = new PolicySession({ activity: { type: "" }, approvers: [voter], credentials });
  return session.someApproverCounts(expr, consensus);
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
    return new PolicySession(context).evaluateBoolean(field, expression).value;
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    throw new CustodyError(error.code, `${field}: ${error.message}`, { ...error.details, field }, { cause: error });
  }
}
