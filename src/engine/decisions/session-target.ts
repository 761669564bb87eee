/**
 * A session is for the user who stamps the request (the swagger: "If none provided, the read write session
 * will be created for the user who is making the request"). One for another user is an impersonation, so a
 * broad allow policy is not enough: it needs the root quorum, or an ALLOW policy whose condition reads the
 * target (`activity.params.user_id`), which `create_read_write_session` exposes to policies for this.
 *
 * @module
 */

import { readsKeywordPath } from "../../policy/analysis.js";
import { parseExpression } from "../../policy/parser.js";
import type { Decision, Policy, PolicyContext } from "../../policy/types.js";
import { ownField } from "../../policy/values.js";

/** Activity kinds whose `user_id` names the user the activity makes a credential for. */
const ACTS_AS_USER: readonly string[] = ["CREATE_READ_WRITE_SESSION"];

const TARGET: readonly [string, ...string[]] = ["activity", "params", "user_id"];

function namesTarget(condition: string | null | undefined): boolean {
  if (condition == null || condition.trim() === "") return false;
  try {
    return readsKeywordPath(parseExpression(condition), TARGET);
  } catch {
    return false; // a condition that does not parse allowed nothing anyway
  }
}

/**
 * `decision` unless it lets a policy that never looks at the target mint a session for another user;
 * then an implicit deny.
 */
export function confineSessionsToSubmitter(
  decision: Decision,
  policies: readonly { readonly policy: Policy }[],
  context: PolicyContext,
): Decision {
  if (decision.outcome !== "ALLOW" || decision.reason !== "POLICY_ALLOW") return decision;
  const { activity, approvers } = context;
  if (activity.kind === undefined || !ACTS_AS_USER.includes(activity.kind)) return decision;
  const target = activity.params === undefined ? undefined : ownField(activity.params, "user_id");
  if (target === undefined || target === approvers[0]?.id) return decision;
  const named = decision.evaluations.some(
    (evaluation, i) => evaluation.outcome === "OUTCOME_ALLOW" && namesTarget(policies[i]?.policy.condition),
  );
  return named ? decision : { ...decision, outcome: "DENY", reason: "IMPLICIT_DENY" };
}
