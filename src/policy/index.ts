/**
 * `custodian/policy`: the policy language and decision, pure (no storage, no clock, no I/O).
 *
 * - {@link decide} judges an activity: root quorum, explicit deny, allow, pending consensus, implicit deny,
 *   with one {@link Evaluation} per policy whose `outcome` is the swagger `Outcome` value.
 * - {@link evaluatePolicy} and {@link evaluateExpression} evaluate one policy or one expression.
 * - {@link validatePolicyExpressions} refuses, when a policy is written, expressions that cannot work,
 *   with the field and character position at fault.
 * - {@link conditionFromSelectors} turns the older selector policies into a condition.
 * - {@link traceExpression} shows how an expression reached its result, clause by clause, with the values read.
 * - {@link consensusCouldCount} says whether a consensus could count a given voter (who may vote).
 *
 * Every failure is a `CustodyError`; `details.reason` is one of {@link PolicyErrorReason}.
 *
 * @example
 * ```ts
 * import { decide } from "custodian/policy";
 *
 * const { outcome, evaluations } = decide({
 *   policies: [{ policyId: "p1", effect: "EFFECT_ALLOW", condition: "activity.resource == 'WALLET'" }],
 *   rootQuorum: { userIds: ["root-user-id"], threshold: 1 },
 *   context: {
 *     activity: { type: "ACTIVITY_TYPE_CREATE_WALLET", kind: "CREATE_WALLET", resource: "WALLET", action: "CREATE" },
 *     approvers: [{ id: "user-id", tags: [] }],
 *   },
 * });
 * // outcome === "ALLOW"; evaluations[0].outcome === "OUTCOME_ALLOW"
 * ```
 *
 * @module
 */

export { decide, ROOT_QUORUM_ONLY_ACTIVITY_TYPES } from "./decide.js";
export { consensusCouldCount, evaluateExpression, evaluatePolicy } from "./evaluate-policy.js";
export { MAX_EVALUATION_STEPS } from "./evaluator.js";
export type { PolicyErrorReason } from "./expression-errors.js";
export { POLICY_KEYWORDS } from "./keywords.js";
export { MAX_EXPRESSION_LENGTH } from "./lexer.js";
export { MAX_NESTING_DEPTH } from "./parser.js";
export {
  conditionFromSelectors,
  SELECTOR_OPERATORS,
  type Selector,
  type SelectorOperator,
  type SelectorV2,
} from "./selectors.js";
export {
  describeValue,
  type ExpressionTrace,
  MAX_TRACE_CLAUSES,
  MAX_VALUE_TEXT,
  type TracedClause,
  type TracedOperand,
  traceExpression,
} from "./trace.js";
export type {
  DecideInput,
  Decision,
  DecisionOutcome,
  DecisionReason,
  Effect,
  Evaluation,
  EvaluationError,
  Outcome,
  Policy,
  PolicyActivity,
  PolicyContext,
  PolicyCredential,
  PolicyData,
  PolicyExpressionField,
  PolicyUser,
  RootQuorum,
} from "./types.js";
export {
  type PolicyExpressions,
  type PolicyExpressionWarning,
  type ValidatePolicyExpressionsOptions,
  validatePolicyExpressions,
} from "./validate.js";
