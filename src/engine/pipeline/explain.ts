/**
 * Explaining an activity: every decision taken about it (at submission and at each vote), with each
 * policy's outcome and, when an expression failed, why — so a person can see why something was denied or
 * is still waiting.
 *
 * @module
 */
import { notFound } from "../../common/errors.js";
import { consensusWindow } from "../../model/consensus-window.js";
import type { DataReader } from "../../model/data.js";
import type { ActivityStatus, PolicyEvaluationRecord, VoteSelection } from "../../model/records.js";
import type { Evaluation } from "../../policy/types.js";

/** One decision about an activity. */
export interface DecisionExplanation {
  /** The vote that prompted it: the submitter's for the first decision. */
  voteId: string;
  /** Who cast that vote, and how. */
  userId: string;
  selection: VoteSelection;
  /** `ALLOW`, `DENY`, `CONSENSUS_NEEDED`, or `REJECTED` for a rejection. */
  outcome: PolicyEvaluationRecord["outcome"];
  /** The rule that settled it (`ROOT_QUORUM`, `EXPLICIT_DENY`, `CONSENSUS_PENDING`, `REJECTED_BY_VOTE`, ...). */
  reason: PolicyEvaluationRecord["reason"];
  /** The decision in a sentence. */
  summary: string;
  /** One per policy, with the error when an expression failed. */
  evaluations: Evaluation[];
  /** The policies whose consensus could still be met by further votes. */
  waitingOn: { policyId: string; consensus: string }[];
  /** When it was taken (ms since the epoch). */
  decidedAtMs: number;
}

/** What {@link explainActivity} returns. */
export interface ActivityExplanation {
  activityId: string;
  organizationId: string;
  type: string;
  status: ActivityStatus;
  /** Oldest first. */
  decisions: DecisionExplanation[];
  /**
   * For an activity waiting for consensus: which votes count now, which expired with a consensus window
   * that closed (24 hours after the vote that opened it), and when the open window closes. Expired
   * approvals must be cast again; the activity stays `ACTIVITY_STATUS_CONSENSUS_NEEDED`.
   */
  consensusWindow?: { countingVoteIds: string[]; expiredVoteIds: string[]; closesAtMs?: number };
}

function named(evaluation: Evaluation): string {
  return evaluation.policyName === undefined
    ? `policy ${evaluation.policyId}`
    : `policy "${evaluation.policyName}" (${evaluation.policyId})`;
}

function summarize(record: PolicyEvaluationRecord): string {
  const by = (outcome: Evaluation["outcome"]) =>
    record.evaluations
      .filter((e) => e.outcome === outcome)
      .map(named)
      .join(", ");
  const errors = record.evaluations
    .filter((e) => e.outcome === "OUTCOME_ERROR")
    .map((e) => `${named(e)} failed in its ${e.error?.field}: ${e.error?.message}`);
  const failures = errors.length > 0 ? ` (${errors.join("; ")})` : "";
  switch (record.reason) {
    case "ROOT_QUORUM":
      return "allowed: the root quorum approved it";
    case "ROOT_QUORUM_PENDING":
      return `waiting: more root users must approve${failures}`;
    case "ROOT_QUORUM_REQUIRED":
      return "denied: only the root quorum can approve this activity type";
    case "EXPLICIT_DENY":
      return `denied by ${by("OUTCOME_DENY_EXPLICIT")}`;
    case "POLICY_ALLOW":
      return `allowed by ${by("OUTCOME_ALLOW")}`;
    case "SELF_CREDENTIAL":
      return "allowed: users may manage their own credentials unless a policy says otherwise";
    case "CONSENSUS_PENDING":
      return `waiting for approvals under ${record.openConsensus.map((o) => `policy ${o.policyId}`).join(", ")}`;
    case "REJECTED_BY_VOTE":
      return "rejected by a vote";
    default:
      return `denied: no policy allows it${failures}`;
  }
}

/**
 * Every decision recorded for `activityId`, oldest first, and for a pending one its consensus window at
 * `now`. NOT_FOUND when there is no such activity.
 */
export async function explainActivity(data: DataReader, activityId: string, now: number): Promise<ActivityExplanation> {
  const activity = await data.get("activities", activityId);
  if (!activity) throw notFound("activity", activityId, "activityId");
  const records = await data.listAll("policyEvaluations", activity.id);
  const window =
    activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED" ? consensusWindow(activity.votes, now) : undefined;
  return {
    activityId: activity.id,
    organizationId: activity.organizationId,
    type: activity.type,
    status: activity.status,
    decisions: records.map((record) => {
      const vote = activity.votes.find((candidate) => candidate.id === record.voteId);
      return {
        voteId: record.voteId,
        userId: vote?.userId ?? "",
        selection: vote?.selection ?? "VOTE_SELECTION_APPROVED",
        outcome: record.outcome,
        reason: record.reason,
        summary: summarize(record),
        evaluations: record.evaluations,
        waitingOn: record.openConsensus,
        decidedAtMs: record.createdAtMs,
      };
    }),
    ...(window && {
      consensusWindow: {
        countingVoteIds: window.counting.map((vote) => vote.id),
        expiredVoteIds: window.expired.map((vote) => vote.id),
        ...(window.closesAtMs !== undefined && { closesAtMs: window.closesAtMs }),
      },
    }),
  };
}
