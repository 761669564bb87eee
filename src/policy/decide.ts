/**
 * The decision for one activity at one vote (docs/spec/policy-language.md §3, the `decide` outline):
 * root quorum → root-quorum-only types → explicit deny → allow → own-credential default → pending
 * consensus → pending root quorum → implicit deny.
 *
 * @module
 */

import { PolicyRun } from "./compiled.js";
import { type CompiledPolicy, compilePolicy } from "./evaluate-policy.js";
import { sharedEvaluations } from "./shared-evaluations.js";
import type {
  DecideInput,
  Decision,
  DecisionOutcome,
  DecisionReason,
  Evaluation,
  Outcome,
  PolicyContext,
  RootQuorum,
} from "./types.js";
import { ownField } from "./values.js";

/** Activity types only the root quorum can approve; no ALLOW policy unlocks them. */
export const ROOT_QUORUM_ONLY_ACTIVITY_TYPES: readonly string[] = [
  "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM",
  "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
  "ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE",
  "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
];

const NOT_APPLYING: readonly Outcome[] = ["OUTCOME_DENY_IMPLICIT", "OUTCOME_TIME_INACTIVE"];

/**
 * Decides an activity. Every policy is evaluated, even when the root quorum settles the outcome, so the
 * record always holds one evaluation per policy.
 */
export function decide({ policies, rootQuorum, context }: DecideInput): Decision {
  return decideCompiled(policies.map(compilePolicy), rootQuorum, context);
}

/**
 * {@link decide} with policies compiled beforehand. With `shared`, the evaluation records without an error
 * are each policy's frozen ones (see `CompiledPolicy.evaluate`).
 *
 * @internal
 */
export function decideCompiled(
  policies: readonly CompiledPolicy[],
  rootQuorum: RootQuorum,
  context: PolicyContext,
  shared = false,
): Decision {
  // One reading of each tested field for all the policies: nothing changes the context while they are judged.
  // Only for the engine's own contexts (`shared`), plain data throughout: a caller's context could hold a
  // getter that answers each policy differently.
  const run = new PolicyRun(context, shared ? [] : undefined);
  const evaluations = shared
    ? sharedEvaluations(policies, context, run)
    : policies.map((policy) => policy.evaluateIn(run, false));
  const settle = (outcome: DecisionOutcome, reason: DecisionReason): Decision => ({ outcome, reason, evaluations });

  const approverIds = new Set(context.approvers.map((approver) => approver.id));
  const rootVotes = [...new Set(rootQuorum.userIds)].filter((id) => approverIds.has(id)).length;
  // A threshold below 1 would let an activity through with no root vote at all; it counts as 1.
  if (rootVotes >= Math.max(1, rootQuorum.threshold)) return settle("ALLOW", "ROOT_QUORUM");
  if (ROOT_QUORUM_ONLY_ACTIVITY_TYPES.includes(context.activity.type)) {
    return rootVotes > 0 ? settle("CONSENSUS_NEEDED", "ROOT_QUORUM_PENDING") : settle("DENY", "ROOT_QUORUM_REQUIRED");
  }

  const outcomes = outcomesOf(evaluations);
  if (outcomes.has("OUTCOME_DENY_EXPLICIT")) return settle("DENY", "EXPLICIT_DENY");
  if (outcomes.has("OUTCOME_ALLOW")) return settle("ALLOW", "POLICY_ALLOW");
  if (changesOwnCredentials(context) && [...outcomes].every((outcome) => NOT_APPLYING.includes(outcome))) {
    return settle("ALLOW", "SELF_CREDENTIAL");
  }
  if (outcomes.has("OUTCOME_REQUIRES_CONSENSUS")) return settle("CONSENSUS_NEEDED", "CONSENSUS_PENDING");
  if (rootVotes > 0) return settle("CONSENSUS_NEEDED", "ROOT_QUORUM_PENDING");
  return settle("DENY", "IMPLICIT_DENY");
}

// The outcomes of a frozen (shared) evaluation list, gathered once for every decision that gets that list.
const outcomesOfShared = new WeakMap<readonly Evaluation[], ReadonlySet<Outcome>>();

/** The distinct outcomes of `evaluations`. */
function outcomesOf(evaluations: readonly Evaluation[]): ReadonlySet<Outcome> {
  const known = outcomesOfShared.get(evaluations);
  if (known !== undefined) return known;
  const outcomes = new Set(evaluations.map((evaluation) => evaluation.outcome));
  if (Object.isFrozen(evaluations)) outcomesOfShared.set(evaluations, outcomes);
  return outcomes;
}

/** A CREDENTIAL activity whose `params.user_id` is the submitter (`approvers[0]`). */
function changesOwnCredentials({ activity, approvers }: PolicyContext): boolean {
  const submitter = approvers[0];
  const target = activity.params === undefined ? undefined : ownField(activity.params, "user_id");
  return activity.resource === "CREDENTIAL" && submitter !== undefined && target === submitter.id;
}
