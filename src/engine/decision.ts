/**
 * The policy decision of an activity, at submission and at every vote: the organization's stored policies
 * and root quorum judged by `custodian/policy`'s `decide` in the activity's context; the record kept of
 * each decision; the error a denial answers with; and who may still vote on a pending activity.
 *
 * @module
 */
import { CustodyError } from "../errors.js";
import { consensusCouldCount, decide, evaluatePolicy, ROOT_QUORUM_ONLY_ACTIVITY_TYPES } from "../policy/index.js";
import type { Decision, Evaluation, Policy, PolicyContext, PolicyCredential } from "../policy/types.js";
import type { DataReader } from "./data.js";
import { buildPolicyContext, type PolicyContextInput, policyUserOf } from "./policy-context.js";
import type {
  ActivityRecord,
  OrganizationRecord,
  PolicyEvaluationRecord,
  PolicyRecord,
  UserRecord,
} from "./records.js";
import { confineSessionsToSubmitter } from "./session-target.js";

/** A decision with the consensus still open, and the context it was taken in. */
export interface ActivityDecision extends Decision {
  /** See {@link PolicyEvaluationRecord.openConsensus}. */
  openConsensus: PolicyEvaluationRecord["openConsensus"];
  context: PolicyContext;
}

function asPolicy(record: PolicyRecord): Policy {
  return {
    policyId: record.id,
    policyName: record.policyName,
    effect: record.effect,
    condition: record.condition,
    consensus: record.consensus,
    time: record.time,
  };
}

/**
 * The ALLOW policies that apply to a pending activity (time active, condition true, neither failing) but
 * whose consensus is not met: a later vote can count under them. None for a root-quorum-only activity,
 * which only root users can move.
 */
function openConsensusOf(policies: readonly Policy[], decision: Decision, context: PolicyContext) {
  const found: PolicyEvaluationRecord["openConsensus"] = [];
  const rootQuorumOnly = ROOT_QUORUM_ONLY_ACTIVITY_TYPES.includes(context.activity.type);
  if (decision.outcome !== "CONSENSUS_NEEDED" || rootQuorumOnly) return found;
  for (const [i, policy] of policies.entries()) {
    const { consensus } = policy;
    if (policy.effect !== "EFFECT_ALLOW" || consensus == null || consensus.trim() === "") continue;
    if (decision.evaluations[i]?.outcome === "OUTCOME_ALLOW") continue;
    const applies = evaluatePolicy({ ...policy, consensus: null }, context).outcome === "OUTCOME_ALLOW";
    if (applies) found.push({ policyId: policy.policyId as string, consensus });
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

/** Decides an activity with the governing organization's current policies and root quorum. */
export async function decideActivity(input: DecideActivityInput): Promise<ActivityDecision> {
  const records = await input.data.listAll("policies", input.governing.id);
  const policies = records.map(asPolicy);
  const context = await buildPolicyContext(input);
  const decision = confineSessionsToSubmitter(
    decide({ policies, rootQuorum: input.governing.rootQuorum, context }),
    policies,
    context,
  );
  return { ...decision, openConsensus: openConsensusOf(policies, decision, context), context };
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

function named(evaluation: Evaluation): string {
  return `policy ${evaluation.policyName === undefined ? "" : `"${evaluation.policyName}" `}(${evaluation.policyId})`;
}

/**
 * The `PERMISSION_DENIED` a denied activity answers with and records as its failure, naming the activity
 * and the evaluations that decided it: the explicit denials, or, for an implicit deny, the policies that
 * failed to evaluate (one of them might have allowed it).
 */
export function denialError(activity: Pick<ActivityRecord, "id" | "type">, decision: Decision): CustodyError {
  const what = `activity ${activity.id} (${activity.type})`;
  let deciding: Evaluation[] = [];
  let message: string;
  if (decision.reason === "EXPLICIT_DENY") {
    deciding = decision.evaluations.filter((e) => e.outcome === "OUTCOME_DENY_EXPLICIT");
    message = `${what} is denied by ${deciding.map(named).join(", ")}`;
  } else if (decision.reason === "ROOT_QUORUM_REQUIRED") {
    message = `${what} can only be approved by the root quorum`;
  } else {
    deciding = decision.evaluations.filter((e) => e.outcome === "OUTCOME_ERROR");
    const failures = deciding.map((e) => `${named(e)} failed: ${e.error?.field}: ${e.error?.message}`);
    message = `${what} is denied: no policy allows it${failures.length > 0 ? `; ${failures.join("; ")}` : ""}`;
  }
  return new CustodyError("PERMISSION_DENIED", message, {
    reason: "POLICY_DENIED",
    decision: decision.reason,
    activityId: activity.id,
    activityType: activity.type,
    evaluations: deciding.map((e) => ({ ...e })),
  });
}

/** The credentials a user could vote with (API keys and passkeys), for showing whether they can vote. */
async function registeredCredentials(data: DataReader, user: UserRecord): Promise<PolicyCredential[]> {
  const [apiKeys, authenticators] = await Promise.all([
    data.listAll("apiKeys", user.id),
    data.listAll("authenticators", user.id),
  ]);
  return [
    ...apiKeys.map((key) => ({ id: key.id, user_id: user.id, type: key.credentialType, public_key: key.publicKey })),
    ...authenticators.map((authenticator) => ({
      id: authenticator.id,
      user_id: user.id,
      type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
      credential_id: authenticator.credentialId,
      public_key: "",
    })),
  ];
}

/**
 * The organization whose policies and root quorum decide `activity`: its submitter's (see
 * {@link DecideActivityInput.governing}), or the activity's own when the submitter is gone.
 */
export async function governingOrganizationOf(data: DataReader, activity: ActivityRecord): Promise<string> {
  const submitterId = activity.votes[0]?.userId;
  const submitter = submitterId === undefined ? undefined : await data.get("users", submitterId);
  return submitter?.organizationId ?? activity.organizationId;
}

/**
 * Whether a vote from `userId` can count on a pending activity: the user belongs to the governing
 * organization and is one of its root users (the root quorum counts them), or some consensus the last
 * decision left open could count them (spec decision 14). `credentials` are those the vote is stamped
 * with; when not given (to show `canApprove`), the user's registered ones.
 */
export async function voterCanCount(
  data: DataReader,
  activity: ActivityRecord,
  userId: string,
  credentials?: readonly PolicyCredential[],
): Promise<boolean> {
  const governingId = await governingOrganizationOf(data, activity);
  const [organization, user] = await Promise.all([data.get("organizations", governingId), data.get("users", userId)]);
  if (!organization || !user || user.organizationId !== organization.id) return false;
  if (organization.rootQuorum.userIds.includes(userId)) return true;
  const [latest] = await data.list("policyEvaluations", activity.id, { order: "desc", limit: 1 });
  if (!latest || latest.openConsensus.length === 0) return false;
  const voter = policyUserOf(user);
  const voting = credentials ?? (await registeredCredentials(data, user));
  return latest.openConsensus.some(({ consensus }) => consensusCouldCount(consensus, voter, voting));
}
