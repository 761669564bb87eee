/**
 * Checks a policy's expressions when it is written (`create_policy`, `create_policies`, `update_policy`),
 * so a policy that can only ever fail is refused with the field and the character at fault.
 *
 * @module
 */

import { CustodyError, invalidArgument, isCustodyError } from "../common/errors.js";
import { checkAddressCase } from "./address-case.js";
import { checkIdentifiers } from "./analysis.js";
import { isBlank } from "./evaluate-policy.js";
import type { PolicyErrorReason } from "./expression-errors.js";
import { checkFields, type PolicyWarning } from "./field-check.js";
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

/** Something in a valid policy that works, but not as its author probably meant (see {@link validatePolicyExpressions}). */
export interface PolicyExpressionWarning {
  /** The request path of the expression, as for an error (`parameters.condition`). */
  field: string;
  /** The character of the expression it is about. */
  position: number;
  message: string;
}

/**
 * Throws `INVALID_ARGUMENT` when neither a condition nor a consensus is given, or when an expression does
 * not parse, exceeds a limit, names something its field can never resolve (`user.id` outside a lambda,
 * `approvers` in a condition), or reads a field its keyword does not have (`eth.tx.recipient`:
 * `POLICY_UNKNOWN_FIELD`, with the closest field in the message and `details.suggestion`). The error's
 * `details` carry `field` and `position`.
 *
 * Returns the warnings of a valid policy: a mixed-case `0x` literal compared with an `eth` value (which are
 * lower case, so it never matches), and keywords or fields custodian never fills (`tempo.tx`, `secret`).
 * The hosted service stores such policies, so they are stored here too.
 */
export function validatePolicyExpressions(
  expressions: PolicyExpressions,
  options: ValidatePolicyExpressionsOptions = {},
): PolicyExpressionWarning[] {
  const pathOf = (field: PolicyExpressionField) => options.fields?.[field] ?? `parameters.${field}`;
  if (isBlank(expressions.condition) && isBlank(expressions.consensus)) {
    throw invalidArgument("a policy needs a condition or a consensus expression", pathOf("condition"), {
      reason: "POLICY_EMPTY" satisfies PolicyErrorReason,
    });
  }
  const warnings: PolicyExpressionWarning[] = [];
  for (const field of ["condition", "consensus", "time"] as const) {
    const source = expressions[field];
    if (isBlank(source)) continue;
    const found: PolicyWarning[] = [];
    try {
      const expr = parseExpression(source);
      checkIdentifiers(expr, field);
      checkFields(expr, found);
      checkAddressCase(expr, found);
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `${field}: ${error.message}`,
        { ...error.details, field: pathOf(field) },
        { cause: error },
      );
    }
    // One warning per message: a keyword read in several places is one thing to fix.
    const messages = new Set<string>();
    for (const warning of found) {
      if (messages.has(warning.message)) continue;
      messages.add(warning.message);
      warnings.push({ field: pathOf(field), ...warning });
    }
  }
  return warnings;
}
