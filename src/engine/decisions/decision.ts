/**
 * The policy decision of an activity, at submission and at every vote: the organization's stored policies
 * and root quorum judged by `custodian/policy`'s `decide` in the activity's context; the record kept of
 * each decision; and the error a denial answers with. Who may still vote on a pending activity is
 * `pending.ts`.
 *
 * @module
 */
import { CustodyError } from "../../common/errors.js";
import type { ActivityRecord, OrganizationRecord, PolicyEvaluationRecord } from "../../model/records.js";
import { decideCompiled } from "../../policy/decide.js";
import type { CompiledPolicy } from "../../policy/evaluate-policy.js";
import { ROOT_QUORUM_ONLY_ACTIVITY_TYPES } from "../../policy/index.js";
import type { Decision, PolicyContext, RootQuorum } from "../../policy/types.js";
import {
  buildPolicyContexts,
  isSeveralContexts,
  type PolicyContextInput,
  type SeveralPolicyContexts,
} from "./policy-context.js";
import { compiledPolicies } from "./policy-set.js";
import { confineSessionsToSubmitter } from "./session-target.js";

/**
 * A decision with the consensus still open, and the context it was taken in (for an activity acting with
 * several keys, the context of the key whose decision settled it).
 */
export interface ActivityDecision extends Decision {
  /** See {@link PolicyEvaluationRecord.openConsensus}. */
  openConsensus: PolicyEvaluationRecord["openConsensus"];
  context: PolicyContext;
}

/**
 * The ALLOW policies that apply to a pending activity (time active, condition true, neither failing) but
 * whose consensus is not met: a later vote can count under them. None for a root-quorum-only activity,
 * which only root users can move.
 */
function openConsensusOf(policies: readonly CompiledPolicy[], decision: Decision, context: PolicyContext) {
  const found: PolicyEvaluationRecord["openConsensus"] = [];
  const rootQuorumOnly = ROOT_QUORUM_ONLY_ACTIVITY_TYPES.includes(context.activity.type);
  if (decision.outcome !== "CONSENSUS_NEEDED" || rootQuorumOnly) return found;
  for (const [i, compiled] of policies.entries()) {
    const { policy } = compiled;
    const { consensus } = policy;
    if (policy.effect !== "EFFECT_ALLOW" || consensus == null || consensus.trim() === "") continue;
    if (decision.evaluations[i]?.outcome === "OUTCOME_ALLOW") continue;
    if (compiled.appliesWithoutConsensus(context)) found.push({ policyId: policy.policyId as string, consensus });
  }
  return found;
}

/** What {@link decideActivity} reads. */
export interface DecideActivityInput extends PolicyContextInput {
  /**
   * The organization whose policies and root quorum decide: the submitter's. It is the activity's own
   * organization except when a parent's credential acts in a sub-organization (the authentication
   * activities), which the parent's policies govern, as they govern the parent's users.
   */
  readonly governing: OrganizationRecord;
}

/**
 * Decides an activity with the governing organization's current policies and root quorum. An activity that
 * acts with several keys (its row's `policyTarget` gives one target per key) is decided once per key, each
 * decision in that key's context, and goes ahead only as far as the worst of them lets it: see
 * {@link worstOf}.
 */
export async function decideActivity(input: DecideActivityInput): Promise<ActivityDecision> {
  const policies = await compiledPolicies(input.data, input.governing.id);
  const contexts = await buildPolicyContexts(input);
  if (isSeveralContexts(contexts)) return worstOf(policies, input.governing.rootQuorum, contexts);
  return decideIn(policies, input.governing.rootQuorum, contexts);
}

/** The decision in one context. */
function decideIn(
  policies: readonly CompiledPolicy[],
  rootQuorum: RootQuorum,
  context: PolicyContext,
): ActivityDecision {
  const decision = confineSessionsToSubmitter(decideCompiled(policies, rootQuorum, context, true), policies, context);
  // Member by member rather than spread: see `contextWith` in policy-context.ts.
  return {
    outcome: decision.outcome,
    reason: decision.reason,
    evaluations: decision.evaluations,
    openConsensus: openConsensusOf(policies, decision, context),
    context,
  };
}

/** How far a decision lets an activity go: higher is worse. */
function severity(decision: Decision): number {
  if (decision.outcome === "ALLOW") return 0;
  if (decision.outcome === "CONSENSUS_NEEDED") return 1;
  return decision.reason === "EXPLICIT_DENY" ? 3 : 2;
}

/**
 * The decision of an activity acting with several keys: an explicit deny of any key denies it; else any
 * other denial (implicit, root quorum required) denies it; else a key still needing consensus leaves it
 * waiting, open to every consensus some key waits for (each policy once); else it is allowed. The decision
 * that settled it (the first of the worst) gives the reason, the evaluations recorded and the context.
 */
function worstOf(
  policies: readonly CompiledPolicy[],
  rootQuorum: RootQuorum,
  contexts: SeveralPolicyContexts,
): ActivityDecision {
  const [first, ...others] = contexts;
  let worst = decideIn(policies, rootQuorum, first);
  const open = [...worst.openConsensus];
  for (const context of others) {
    const decision = decideIn(policies, rootQuorum, context);
    for (const waiting of decision.openConsensus) {
      if (!open.some((known) => known.policyId === waiting.policyId)) open.push(waiting);
    }
    if (severity(decision) > severity(worst)) worst = decision;
  }
  return worst.outcome === "CONSENSUS_NEEDED" ? { ...worst, openConsensus: open } : worst;
}

/** The record of one decision, prompted by the vote `voteId`. */
export function evaluationRecord(
  decision: Pick<PolicyEvaluationRecord, "outcome" | "reason" | "evaluations" | "openConsensus">,
  ids: { id: string; activity: ActivityRecord; voteId: string; now: number },
): PolicyEvaluationRecord {
  return {
    id: ids.id,
    activityId: ids.activity.id,
    organizationId: ids.activity.organizationId,
    voteId: ids.voteId,
    outcome: decision.outcome,
    reason: decision.reason,
    evaluations: decision.evaluations,
    openConsensus: decision.openConsensus,
    createdAtMs: ids.now,
  };
}

/**
 * What the hosted service answers for a denial, as its official clients pin it: an explicit deny is code 7,
 * `policy engine denied request explicitly` and no details (the viem and ethers packages' test snapshots:
 * `Turnkey error 7: policy engine denied request explicitly (Details: [])`); an implicit deny is code 7 with
 * the message below and one `PolicyEnginePermissionError` detail listing each policy's outcome (the solana
 * example's README shows the detail; the message is the live service's).
 */
export const EXPLICIT_DENY_MESSAGE = "policy engine denied request explicitly";
export const IMPLICIT_DENY_MESSAGE =
  "You don't have sufficient permissions to take this action. Please add a policy granting this user " +
  "permissions. Learn more at https://docs.turnkey.com/concepts/policies/quickstart.";
const POLICY_ENGINE_PERMISSION_ERROR = "type.googleapis.com/errors.v1.PolicyEnginePermissionError";

/**
 * The `PERMISSION_DENIED` a denied activity answers with and records as its failure: on the wire exactly
 * the hosted service's answer (see {@link EXPLICIT_DENY_MESSAGE}); in-process its details also name the
 * activity and the evaluations that decided it: the explicit denials, or, for an implicit deny, the
 * policies that failed to evaluate (one of them might have allowed it). `get_policy_evaluations` and
 * `explainActivity` keep every evaluation.
 */
export function denialError(activity: Pick<ActivityRecord, "id" | "type">, decision: Decision): CustodyError {
  const explicit = decision.reason === "EXPLICIT_DENY";
  const deciding = decision.evaluations.filter((e) =>
    explicit ? e.outcome === "OUTCOME_DENY_EXPLICIT" : e.outcome === "OUTCOME_ERROR",
  );
  const wireDetails = explicit
    ? []
    : [
        {
          "@type": POLICY_ENGINE_PERMISSION_ERROR,
          message: "No policies evaluated to outcome: Allow",
          policyEvaluations: decision.evaluations
            .filter((e) => e.policyId !== undefined)
            .map((e) => ({ policyId: e.policyId, outcome: e.outcome })),
        },
      ];
  const details = {
    reason: "POLICY_DENIED",
    decision: decision.reason,
    activityId: activity.id,
    activityType: activity.type,
    evaluations: deciding.map((e) => ({ ...e })),
  };
  return new CustodyError("PERMISSION_DENIED", explicit ? EXPLICIT_DENY_MESSAGE : IMPLICIT_DENY_MESSAGE, details, {
    wireDetails,
  });
}
