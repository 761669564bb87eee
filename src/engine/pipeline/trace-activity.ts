/**
 * An activity's latest decision replayed clause by clause, for a person (the dev console): each policy's
 * expressions traced in the context the decision was taken in (the same votes, the same moment, the
 * current policies and users), the keywords its target decoded (a transaction's fields, an EIP-712
 * payload), who submitted it, how each vote counted, and, for one still waiting, whose approval could move
 * it. Read-only. The stored decision stays the record: when the policies changed since, the replay says so.
 *
 * @module
 */
import { isCustodyError, notFound } from "../../common/errors.js";
import { consensusWindow } from "../../model/consensus-window.js";
import type { DataReader } from "../../model/data.js";
import type { ActivityRecord, ActivityStatus, PolicyRecord, VoteSelection } from "../../model/records.js";
import { consensusCouldCount } from "../../policy/index.js";
import { type ExpressionTrace, traceExpression } from "../../policy/trace.js";
import type { DecisionOutcome, Outcome, PolicyContext } from "../../policy/types.js";
import { policyUserOf } from "../decisions/policy-context.js";
import { submitterOf } from "./execution.js";
import { decidePending, registeredCredentials } from "./pending.js";

/** Most users whose vote a trace judges for a pending activity; the rest are counted. */
export const MAX_TRACED_VOTERS = 100;

/** One policy of the replayed decision. */
export interface PolicyTrace {
  policyId: string;
  policyName: string;
  effect: PolicyRecord["effect"];
  /** Its outcome in the replay. */
  outcome: Outcome | undefined;
  /** Its outcome in the stored decision; undefined for a policy written since. */
  recorded: Outcome | undefined;
  /** Its expressions that are not blank, in the order they are judged (time, condition, consensus). */
  expressions: TracedExpression[];
}

/** One expression of a policy, traced. */
export interface TracedExpression {
  field: "time" | "condition" | "consensus";
  source: string;
  trace: ExpressionTrace;
}

/** A user, by id and name. */
export interface NamedUser {
  userId: string;
  userName: string;
}

/** A vote, as it weighed. */
export interface VoteStanding extends NamedUser {
  voteId: string;
  selection: VoteSelection;
  /** The first vote is the submission itself, not an approval someone gave. */
  submission: boolean;
  /** Whether it counts now (approvals expire with their consensus window; a deleted user's never counts). */
  counts: boolean;
  createdAtMs: number;
}

/** A consensus a pending activity waits for, and who could still meet it. */
export interface OpenConsensus {
  policyId: string;
  policyName: string;
  consensus: string;
  /** The consensus traced with the approvals that count now. */
  trace: ExpressionTrace;
  /** The users who have not approved and whom it could count. */
  waitingFor: NamedUser[];
}

/** What {@link traceActivity} returns. */
export interface ActivityTrace {
  activityId: string;
  status: ActivityStatus;
  submitter?: NamedUser;
  votes: VoteStanding[];
  /** The latest decision, replayed; absent when the activity has no decision or cannot be replayed. */
  replay?: {
    decidedAtMs: number;
    /** The replay's outcome, and whether it differs from the stored decision (the policies changed since). */
    outcome: DecisionOutcome;
    changedSince: boolean;
    policies: PolicyTrace[];
    /** The keywords the activity's target gave its policies (`eth`, `solana`, `wallet`, ...), as read. */
    decoded: Record<string, unknown>;
    /** The activity's parameters as policies read them (`activity.params`). */
    parameters?: unknown;
  };
  /** Why there is no replay, when there is none but there was a decision. */
  replayError?: string;
  /** For an activity waiting for consensus now: each open consensus and who could meet it. */
  waitingOn: OpenConsensus[];
  /** For one waiting: the root users who have not approved, and how many approvals the root quorum lacks. */
  rootQuorum?: { waitingFor: NamedUser[]; missing: number };
  /** How many users were not judged past {@link MAX_TRACED_VOTERS}. */
  votersNotJudged: number;
}

const STANDARD_ROOTS = new Set(["activity", "approvers", "credentials", "time"]);

async function userName(data: DataReader, userId: string): Promise<string> {
  return (await data.get("users", userId))?.userName ?? `(deleted user ${userId})`;
}

function expressionsOf(policy: PolicyRecord, context: PolicyContext): TracedExpression[] {
  return (["time", "condition", "consensus"] as const).flatMap((field) => {
    const source = policy[field];
    return source == null || source.trim() === ""
      ? []
      : [{ field, source, trace: traceExpression(source, context, field) }];
  });
}

/** The latest decision replayed, or why it cannot be. */
async function replay(
  data: DataReader,
  activity: ActivityRecord,
): Promise<Pick<ActivityTrace, "replay" | "replayError">> {
  const records = await data.listAll("policyEvaluations", activity.id);
  const latest = records.at(-1);
  if (latest === undefined) return {};
  try {
    const submitter = await submitterOf(data, activity);
    const cast = activity.votes.findIndex((vote) => vote.id === latest.voteId);
    const votes = activity.votes.slice(0, cast + 1);
    const at = latest.createdAtMs;
    const decision = await decidePending(data, activity, submitter, consensusWindow(votes, at).counting, at);
    const policies = await data.listAll("policies", submitter.organizationId);
    const traced = policies.map((policy, i): PolicyTrace => {
      const recorded = latest.evaluations.find((e) => e.policyId === policy.id)?.outcome;
      return {
        policyId: policy.id,
        policyName: policy.policyName,
        effect: policy.effect,
        outcome: decision.evaluations[i]?.outcome,
        recorded,
        expressions: expressionsOf(policy, decision.context),
      };
    });
    const decoded = Object.fromEntries(Object.entries(decision.context).filter(([key]) => !STANDARD_ROOTS.has(key)));
    const changedSince =
      decision.outcome !== latest.outcome ||
      traced.length !== latest.evaluations.length ||
      traced.some((policy) => policy.outcome !== policy.recorded);
    const parameters = decision.context.activity.params;
    return {
      replay: {
        decidedAtMs: at,
        outcome: decision.outcome,
        changedSince,
        policies: traced,
        decoded,
        ...(parameters !== undefined && { parameters }),
      },
    };
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    return { replayError: error.message };
  }
}

/** Who could still move a pending activity, judged now. */
async function waiting(
  data: DataReader,
  activity: ActivityRecord,
  now: number,
): Promise<Pick<ActivityTrace, "waitingOn" | "rootQuorum" | "votersNotJudged">> {
  const none = { waitingOn: [], votersNotJudged: 0 };
  if (activity.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") return none;
  const submitter = await submitterOf(data, activity).catch(() => undefined);
  if (submitter === undefined) return none;
  const counting = consensusWindow(activity.votes, now).counting;
  const approved = new Set(
    counting.filter((vote) => vote.selection === "VOTE_SELECTION_APPROVED").map((vote) => vote.userId),
  );
  const decision = await decidePending(data, activity, submitter, counting, now);
  const organization = await data.require("organizations", submitter.organizationId, "organization");
  const users = (await data.listAll("users", submitter.organizationId)).filter((user) => !approved.has(user.id));
  const judged = users.slice(0, MAX_TRACED_VOTERS);
  const policies = await data.listAll("policies", submitter.organizationId);
  const credentials = new Map(
    await Promise.all(judged.map(async (u) => [u.id, await registeredCredentials(data, u)] as const)),
  );
  const waitingOn = decision.openConsensus.map(
    ({ policyId, consensus }): OpenConsensus => ({
      policyId,
      policyName: policies.find((policy) => policy.id === policyId)?.policyName ?? policyId,
      consensus,
      trace: traceExpression(consensus, decision.context, "consensus"),
      waitingFor: judged
        .filter((user) => consensusCouldCount(consensus, policyUserOf(user), credentials.get(user.id)))
        .map((user) => ({ userId: user.id, userName: user.userName })),
    }),
  );
  const { userIds, threshold } = organization.rootQuorum;
  const rootApprovals = userIds.filter((userId) => approved.has(userId)).length;
  const rootWaiting = judged
    .filter((user) => userIds.includes(user.id))
    .map((user) => ({ userId: user.id, userName: user.userName }));
  return {
    waitingOn,
    rootQuorum: { waitingFor: rootWaiting, missing: Math.max(0, threshold - rootApprovals) },
    votersNotJudged: users.length - judged.length,
  };
}

/** See {@link ActivityTrace}. NOT_FOUND when there is no such activity. */
export async function traceActivity(data: DataReader, activityId: string, now: number): Promise<ActivityTrace> {
  const activity = await data.get("activities", activityId);
  if (!activity) throw notFound("activity", activityId, "activityId");
  const counting = new Set(consensusWindow(activity.votes, now).counting.map((vote) => vote.id));
  const finished = activity.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED";
  const votes = await Promise.all(
    activity.votes.map(
      async (vote, i): Promise<VoteStanding> => ({
        voteId: vote.id,
        userId: vote.userId,
        userName: await userName(data, vote.userId),
        selection: vote.selection,
        submission: i === 0,
        counts: finished || counting.has(vote.id),
        createdAtMs: vote.createdAtMs,
      }),
    ),
  );
  const first = votes[0];
  return {
    activityId: activity.id,
    status: activity.status,
    ...(first && { submitter: { userId: first.userId, userName: first.userName } }),
    votes,
    ...(await replay(data, activity)),
    ...(await waiting(data, activity, now)),
  };
}
