/**
 * Explaining an activity: every decision taken about it (at submission and at each vote), with each
 * policy's outcome and, when an expression failed, why — so a person can see why something was denied or
 * is still waiting.
 *
 * @module
 */
import { notFound } from "../../common/errors.js";
import { policyWriteWarnings, warningLine } from "../../domain/policy-warnings.js";
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
  /** The decision in a sentence, with every policy that failed to evaluate. */
  summary: string;
  /**
   * The policy that settled it, when one did: the deny or allow that applied, the first allow still waiting
   * for approvals, or, for a denial no policy settled, the first policy that failed (it might have allowed).
   */
  decidingPolicy?: { policyId: string; policyName?: string };
  /** Why, in one short phrase (`a deny policy applies`, `needs approvals: ...`, `no policy allows it`). */
  reasonPhrase: string;
  /** Each policy that failed to evaluate, as `policy "name" (id) failed in its condition: ...`. */
  failures: string[];
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
   * For an activity that wrote policies: what in them works, but not as meant (a mixed-case address compared
   * with an `eth` value never matches; a keyword custodian never fills errors). The policies were stored, as
   * the hosted service stores them.
   */
  notes: string[];
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

/** Each policy of `record` that failed to evaluate, in a line. */
function failuresOf(record: PolicyEvaluationRecord): string[] {
  return record.evaluations
    .filter((e) => e.outcome === "OUTCOME_ERROR")
    .map((e) => `${named(e)} failed in its ${e.error?.field}: ${e.error?.message}`);
}

function summarize(record: PolicyEvaluationRecord, failures: readonly string[]): string {
  const by = (outcome: Evaluation["outcome"]) =>
    record.evaluations
      .filter((e) => e.outcome === outcome)
      .map(named)
      .join(", ");
  const failed = failures.length > 0 ? ` (${failures.join("; ")})` : "";
  switch (record.reason) {
    case "ROOT_QUORUM":
      return `allowed: the root quorum approved it${failed}`;
    case "ROOT_QUORUM_PENDING":
      return `waiting: more root users must approve${failed}`;
    case "ROOT_QUORUM_REQUIRED":
      return "denied: only the root quorum can approve this activity type";
    case "EXPLICIT_DENY":
      return `denied by ${by("OUTCOME_DENY_EXPLICIT")}${failed}`;
    case "POLICY_ALLOW":
      return `allowed by ${by("OUTCOME_ALLOW")}${failed}`;
    case "SELF_CREDENTIAL":
      return `allowed: users may manage their own credentials unless a policy says otherwise${failed}`;
    case "CONSENSUS_PENDING":
      return `waiting for approvals under ${record.openConsensus.map((o) => `policy ${o.policyId}`).join(", ")}${failed}`;
    case "REJECTED_BY_VOTE":
      return "rejected by a vote";
    case "SUBMITTER_CANNOT_ACT":
      return "failed: its submitter can no longer act";
    default:
      return `denied: no policy allows it${failed}`;
  }
}

/** The evaluation of the policy that settled `record`, if one did (see {@link DecisionExplanation.decidingPolicy}). */
function decidingEvaluation(record: PolicyEvaluationRecord): Evaluation | undefined {
  const first = (outcome: Evaluation["outcome"]) => record.evaluations.find((e) => e.outcome === outcome);
  switch (record.reason) {
    case "EXPLICIT_DENY":
      return first("OUTCOME_DENY_EXPLICIT");
    case "POLICY_ALLOW":
      return first("OUTCOME_ALLOW");
    case "CONSENSUS_PENDING": {
      const waiting = record.openConsensus[0]?.policyId;
      return record.evaluations.find((e) => e.policyId === waiting);
    }
    case "IMPLICIT_DENY":
      return first("OUTCOME_ERROR");
    default:
      return undefined;
  }
}

const PHRASE_LIMIT = 80;

/** `text` cut to {@link PHRASE_LIMIT} characters. */
function short(text: string): string {
  return text.length > PHRASE_LIMIT ? `${text.slice(0, PHRASE_LIMIT - 1)}…` : text;
}

function reasonPhrase(record: PolicyEvaluationRecord, deciding: Evaluation | undefined): string {
  switch (record.reason) {
    case "ROOT_QUORUM":
      return "the root quorum approved";
    case "ROOT_QUORUM_PENDING":
      return "more root users must approve";
    case "ROOT_QUORUM_REQUIRED":
      return "only the root quorum can approve this type";
    case "EXPLICIT_DENY":
      return "a deny policy applies";
    case "POLICY_ALLOW":
      return "an allow policy applies";
    case "SELF_CREDENTIAL":
      return "users may manage their own credentials";
    case "CONSENSUS_PENDING": {
      const consensus = record.openConsensus[0]?.consensus;
      return consensus === undefined ? "needs more approvals" : `needs approvals: ${short(consensus)}`;
    }
    case "REJECTED_BY_VOTE":
      return "rejected by a vote";
    case "SUBMITTER_CANNOT_ACT":
      return "its submitter can no longer act";
    default:
      return deciding?.error === undefined
        ? "no policy allows it"
        : `no policy allows it; its ${deciding.error.field} failed: ${short(deciding.error.message)}`;
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
      const failures = failuresOf(record);
      const deciding = decidingEvaluation(record);
      return {
        voteId: record.voteId,
        userId: vote?.userId ?? "",
        selection: vote?.selection ?? "VOTE_SELECTION_APPROVED",
        outcome: record.outcome,
        reason: record.reason,
        summary: summarize(record, failures),
        ...(deciding?.policyId !== undefined && {
          decidingPolicy: {
            policyId: deciding.policyId,
            ...(deciding.policyName !== undefined && { policyName: deciding.policyName }),
          },
        }),
        reasonPhrase: reasonPhrase(record, deciding),
        failures,
        evaluations: record.evaluations,
        waitingOn: record.openConsensus,
        decidedAtMs: record.createdAtMs,
      };
    }),
    notes: activity.status === "ACTIVITY_STATUS_COMPLETED" ? policyWriteWarnings(activity).map(warningLine) : [],
    ...(window && {
      consensusWindow: {
        countingVoteIds: window.counting.map((vote) => vote.id),
        expiredVoteIds: window.expired.map((vote) => vote.id),
        ...(window.closesAtMs !== undefined && { closesAtMs: window.closesAtMs }),
      },
    }),
  };
}
