/**
 * The warnings of a policy-writing activity (`create_policy`, `create_policies`, `update_policy`), read back
 * from its intent: what `validatePolicyExpressions` found in the expressions it wrote that works, but not as
 * its author probably meant (a mixed-case `0x` literal compared with an `eth` value, a keyword custodian never
 * fills). The hosted service stores such policies, so custodian stores them too and says so here; the wire
 * result stays the hosted one (`{policyId}`).
 *
 * @module
 */
import { isCustodyError } from "../common/errors.js";
import type { ActivityRecord } from "../model/records.js";
import { type PolicyExpressionWarning, validatePolicyExpressions } from "../policy/index.js";

type Intent = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The warnings of the expressions one intent member wrote; `prefix` is its request path. */
function warningsOf(
  expressions: { condition?: unknown; consensus?: unknown; time?: unknown },
  fields: { condition: string; consensus: string; time: string },
): PolicyExpressionWarning[] {
  const given = {
    condition: text(expressions.condition),
    consensus: text(expressions.consensus),
    time: text(expressions.time),
  };
  // An update that changes only the consensus names no condition: check each given field on its own.
  const found: PolicyExpressionWarning[] = [];
  for (const field of ["condition", "consensus", "time"] as const) {
    const source = given[field];
    if (source === undefined || source.trim() === "") continue;
    try {
      const single = field === "time" ? { consensus: "true", time: source } : { [field]: source };
      found.push(...validatePolicyExpressions(single, { fields }));
    } catch (error) {
      // Stored before the check refused it: its errors show when it is evaluated.
      if (!isCustodyError(error)) throw error;
    }
  }
  return found;
}

/**
 * The warnings of a policy-writing activity, each naming the request field and position; none for any other
 * activity, or for the selector forms (whose conditions are generated).
 */
export function policyWriteWarnings(activity: Pick<ActivityRecord, "intent">): PolicyExpressionWarning[] {
  const { intent } = activity;
  const single = intent.createPolicyIntentV3 as Intent | undefined;
  if (single !== undefined) {
    return warningsOf(single, {
      condition: "parameters.condition",
      consensus: "parameters.consensus",
      time: "parameters.time",
    });
  }
  const many = (intent.createPoliciesIntent as Intent | undefined)?.policies;
  if (Array.isArray(many)) {
    return many.flatMap((policy: Intent, i) =>
      warningsOf(policy, {
        condition: `parameters.policies[${i}].condition`,
        consensus: `parameters.policies[${i}].consensus`,
        time: `parameters.policies[${i}].time`,
      }),
    );
  }
  const update = (intent.updatePolicyIntentV2 ?? intent.updatePolicyIntent) as Intent | undefined;
  if (update !== undefined) {
    return warningsOf(
      { condition: update.policyCondition, consensus: update.policyConsensus, time: update.time },
      { condition: "parameters.policyCondition", consensus: "parameters.policyConsensus", time: "parameters.time" },
    );
  }
  return [];
}

/** A warning as one line: `parameters.condition (character 14): the address ...`. */
export function warningLine(warning: PolicyExpressionWarning): string {
  return `${warning.field} (character ${warning.position}): ${warning.message}`;
}
