/**
 * Which keyword roots each expression field sees (docs/spec/policy-language.md §2). One table, used by the
 * evaluator to resolve names and by validation to refuse names a field can never resolve.
 *
 * @module
 */

import type { CustodyError } from "../common/errors.js";
import { expressionError } from "./expression-errors.js";
import type { PolicyExpressionField } from "./types.js";

/** The keyword roots visible in each expression field. `user` is not a keyword: it is only a lambda variable. */
export const POLICY_KEYWORDS: Readonly<Record<PolicyExpressionField, readonly string[]>> = {
  condition: [
    "activity",
    "eth",
    "solana",
    "tron",
    "bitcoin",
    "tempo",
    "wallet",
    "wallets",
    "wallet_account",
    "private_key",
    "secret",
  ],
  consensus: ["approvers", "credentials"],
  time: ["time"],
};

/** The field whose keyword `name` is, if any. */
function fieldOfKeyword(name: string): PolicyExpressionField | undefined {
  for (const field of ["condition", "consensus", "time"] as const) {
    if (POLICY_KEYWORDS[field].includes(name)) return field;
  }
  return undefined;
}

/**
 * Why the free name `name` (one no lambda binds) cannot resolve in `field`, as an error at `position`;
 * `undefined` when it is one of the field's keywords.
 */
export function keywordScopeError(
  name: string,
  field: PolicyExpressionField,
  position: number,
): CustodyError | undefined {
  const owner = fieldOfKeyword(name);
  if (owner === field) return undefined;
  if (owner !== undefined) {
    return expressionError(
      "POLICY_UNKNOWN_IDENTIFIER",
      `'${name}' is a ${owner} keyword and cannot be used in a ${field} expression`,
      position,
    );
  }
  const hint = name === "user" ? "; 'user' is only a lambda variable, as in approvers.any(user, user.id == '...')" : "";
  return expressionError("POLICY_UNKNOWN_IDENTIFIER", `unknown identifier '${name}'${hint}`, position);
}
