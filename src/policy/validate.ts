/**
 * Checks a policy's expressions when it is written (`create_policy`, `create_policies`, `update_policy`),
 * so a policy that can only ever fail is refused with the field and the character at fault.
 *
 * @module
 */

import { CustodyError, invalidArgument, isCustodyError } from "../common/errors.js";
import { checkIdentifiers } from "./analysis.js";
import { isBlank } from "./evaluate-policy.js";
import type { PolicyErrorReason } from "./expression-errors.js";
import { parseExpression } from "./parser.js";
import type { PolicyExpressionField } from "./types.js";

/** The expression fields of a policy being created or updated. */
export interface PolicyExpressions {
  /** The condition; absent, `null` or blank when the policy has none. */
  condition?: string | null;
  /** The consensus; absent, `null` or blank when the policy has none. */
  consensus?: string | null;
  /** The time expression; absent, `null` or blank when the policy has none. */
  time?: string | null;
}

/** Options of {@link validatePolicyExpressions}. */
export interface ValidatePolicyExpressionsOptions {
  /**
   * The request path reported for each field. Defaults to `parameters.condition`, `parameters.consensus`
   * and `parameters.time` (`create_policy`); `create_policies` and `update_policy` name them differently.
   */
  fields?: Partial<Record<PolicyExpressionField, string>>;
}

/**
 * Throws `INVALID_ARGUMENT` when neither a condition nor a consensus is given, or when an expression does
 * not parse, exceeds a limit, or names something its field can never resolve (`user.id` outside a lambda,
 * `approvers` in a condition). The error's `details` carry `field` and `position`.
 */
export function validatePolicyExpressions(
  expressions: PolicyExpressions,
  options: ValidatePolicyExpressionsOptions = {},
): void {
  const pathOf = (field: PolicyExpressionField) => options.fields?.[field] ?? `parameters.${field}`;
  if (isBlank(expressions.condition) && isBlank(expressions.consensus)) {
    throw invalidArgument("a policy needs a condition or a consensus expression", pathOf("condition"), {
      reason: "POLICY_EMPTY" satisfies PolicyErrorReason,
    });
  }
  for (const field of ["condition", "consensus", "time"] as const) {
    const source = expressions[field];
    if (isBlank(source)) continue;
    try {
      checkIdentifiers(parseExpression(source), field);
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `${field}: ${error.message}`,
        { ...error.details, field: pathOf(field) },
        { cause: error },
      );
    }
  }
}
