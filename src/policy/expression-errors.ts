/**
 * The refusals of the expression language. All are `CustodyError`s carrying the character `position`
 * where one exists and a `reason` a caller can switch on.
 *
 * @module
 */

import { CustodyError, type ErrorCode } from "../common/errors.js";

/** The `details.reason` of every error this module raises: why a policy or expression was refused or failed. */
export type PolicyErrorReason =
  | "POLICY_EMPTY"
  | "POLICY_INVALID_SELECTOR"
  | "POLICY_SYNTAX_ERROR"
  | "POLICY_EXPRESSION_TOO_LONG"
  | "POLICY_EXPRESSION_TOO_DEEP"
  | "POLICY_UNKNOWN_IDENTIFIER"
  | "POLICY_UNKNOWN_FIELD"
  | "POLICY_MISSING_FIELD"
  | "POLICY_TYPE_MISMATCH"
  | "POLICY_OUT_OF_RANGE"
  | "POLICY_INVALID_TIME"
  | "POLICY_EVALUATION_BUDGET_EXCEEDED";

const CODE_OF: Record<PolicyErrorReason, ErrorCode> = {
  POLICY_EMPTY: "INVALID_ARGUMENT",
  POLICY_INVALID_SELECTOR: "INVALID_ARGUMENT",
  POLICY_SYNTAX_ERROR: "INVALID_ARGUMENT",
  POLICY_EXPRESSION_TOO_LONG: "INVALID_ARGUMENT",
  POLICY_EXPRESSION_TOO_DEEP: "INVALID_ARGUMENT",
  POLICY_UNKNOWN_IDENTIFIER: "INVALID_ARGUMENT",
  POLICY_UNKNOWN_FIELD: "INVALID_ARGUMENT",
  POLICY_MISSING_FIELD: "FAILED_PRECONDITION",
  POLICY_TYPE_MISMATCH: "INVALID_ARGUMENT",
  POLICY_OUT_OF_RANGE: "OUT_OF_RANGE",
  POLICY_INVALID_TIME: "INVALID_ARGUMENT",
  POLICY_EVALUATION_BUDGET_EXCEEDED: "RESOURCE_EXHAUSTED",
};

/** An expression failure at `position` (omitted when the failure has no place in the text). */
export function expressionError(reason: PolicyErrorReason, message: string, position?: number): CustodyError {
  return position === undefined
    ? new CustodyError(CODE_OF[reason], message, { reason })
    : new CustodyError(CODE_OF[reason], `${message} (at position ${position})`, { reason, position });
}

/** A syntax error at `position`. */
export function syntaxError(message: string, position: number): CustodyError {
  return expressionError("POLICY_SYNTAX_ERROR", message, position);
}
