/**
 * Votes on a pending activity: `approve_activity` and `reject_activity` name their target by fingerprint
 * (docs/spec/policy-language.md §3 "Votes", decisions 13–15;
 * docs/spec/wire-protocol.md §4 "approve/reject").
 *
 * A vote is refused, changing nothing, when the target is not pending, when a vote of the voter still
 * counts, or when neither the root quorum nor a consensus the current policies leave open could count the
 * voter (`pending.ts`). An accepted approval re-runs the decision with the votes of the open consensus
 * window, against the current users and policies: ALLOW runs the target's handler in the same transaction
 * and records its result, DENY fails it, otherwise it keeps waiting. An accepted rejection is final. Each vote is
 * recorded as an activity of its own, and the answer is the target activity as it now stands.
 *
 * MFA: an activity in `ACTIVITY_STATUS_AUTHENTICATORS_NEEDED` takes only its submitter's votes, each approval
 * proving a step of the submitter's MFA policy; an approver whose own MFA policy matches the activity proves
 * its steps the same way, and the approval counts once the last is proven (`domain/mfa.ts`).
 *
 * @module
 */
import * as v from "valibot";
import { assertCredentialCurrent } from "../../auth/credential-state.js";
import { CustodyError, isCustodyError } from "../../common/errors.js";
import { matchingMfaPolicy, mfaSatisfied, proveMfaMethod, provenMethod } from "../../domain/mfa.js";
import { actingOrganization } from "../../model/access.js";
import { consensusWindow } from "../../model/consensus-window.js";
import type { DataReader } from "../../model/data.js";
import { DataWriter } from "../../model/data.js";
import type { Principal } from "../../model/principal.js";
import type {
  ActivityRecord,
  MfaStatusRecord,
  OrganizationRecord,
  VoteRecord,
  VoteSelection,
} from "../../model/records.js";
import { renderActivity } from "../../model/render.js";
import type { ActivityResponse } from "../../model/wire-types.js";
import { type ActivityDecision, denialError, evaluationRecord } from "../decisions/decision.js";
import { policyCredentialOf } from "../decisions/policy-context.js";
import { asCustodyError, assertMayReplay, execute, submitterOf, voteOf } from "./execution.js";
import { failedActivity } from "./failed-activity.js";
import { activityViewer, decidePending, type TargetRequest, targetRequest, voterCanCount } from "./pending.js";
import type { AcceptedSubmission, PipelineCore } from "./submission.js";

/** The target's handler failed: its writes are rolled back with the transaction, then the failure is recorded. */
class TargetHandlerFailed extends Error {
  constructor(readonly error: CustodyError) {
    super(error.message);
  }
}

/** Casts one vote. See the module comment. */
export async function castVote(
  core: PipelineCore,
  submission: AcceptedSubmission,
  selection: VoteSelection,
): Promise<ActivityResponse> {
  const options = core.trees.transactionOptions(submission.organizationId, submission.principal.organizationId);
  try {
    return await core.store.transaction((tx) => applyVote(core, new DataWriter(tx), submission, selection), options);
  } catch (thrown) {
    if (!(thrown instanceof TargetHandlerFailed)) throw thrown;
    return core.store.transaction(
      (tx) => applyVote(core, new DataWriter(tx), submission, selection, thrown.error),
      options,
    );
  }
}

/** The answer to a vote body seen before: its target as it now stands. */
async function replayVote(
  data: DataReader,
  vote: ActivityRecord,
  principal: Principal,
  now: number,
): Promise<ActivityResponse> {
  await assertMayReplay(data, principal, vote);
  const target = await findTarget(data, vote.organizationId, fingerprintOf(vote));
  return { activity: await renderActivity(data, target, activityViewer(data, principal.userId, now)) };
}

const voteIntent = v.object({ fingerprint: v.string() });

function fingerprintOf(vote: ActivityRecord): string {
  return v.parse(voteIntent, Object.values(vote.intent)[0]).fingerprint;
}

async function findTarget(data: DataReader, organizationId: string, fingerprint: string): Promise<ActivityRecord> {
  const targetId = await data.lookup("activityByFingerprint", fingerprint);
  const target = targetId === undefined ? undefined : await data.get("activities", targetId);
  // An activity of another organization is reported the same way as none at all.
  if (!target || target.organizationId !== organizationId) {
    throw new CustodyError("NOT_FOUND", `no activity found with fingerprint ${fingerprint}`, {
      field: "parameters.fingerprint",
      reason: "ACTIVITY_NOT_FOUND",
    });
  }
  return target;
}

function refuse(message: string, reason: string, target: ActivityRecord): CustodyError {
  return new CustodyError("PERMISSION_DENIED", message, {
    field: "parameters.fingerprint",
    reason,
    activityId: target.id,
  });
}

async function applyVote(
  core: PipelineCore,
  data: DataWriter,
  submission: AcceptedSubmission,
  selection: VoteSelection,
  handlerFailure?: CustodyError,
): Promise<ActivityResponse> {
  const { principal, now } = submission;
  const existingId = await data.lookup("activityByFingerprint", submission.fingerprint);
  if (existingId !== undefined) {
    return replayVote(data, await data.require("activities", existingId, "activity"), principal, now);
  }
  const named = await data.require("organizations", submission.organizationId, "organization", "organizationId");
  const principalOrganization =
    principal.organizationId === named.id
      ? named
      : await data.require("organizations", principal.organizationId, "organization");
  const organization = actingOrganization(principal, named, principalOrganization, submission.operation.access);
  await data.require("users", principal.userId, "user");
  await assertCredentialCurrent(data, principal, now);
  const { fingerprint } = v.parse(voteIntent, submission.parameters);
  const target = await findTarget(data, organization.id, fingerprint);

  if (target.status === "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED") {
    return proveAuthenticator(core, data, submission, selection, organization, target, handlerFailure);
  }
  if (target.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
    throw refuse(`activity ${target.id} is ${target.status} and takes no more votes`, "ACTIVITY_NOT_PENDING", target);
  }
  // A vote that expired with its consensus window may be cast again.
  if (consensusWindow(target.votes, now).counting.some((vote) => vote.userId === principal.userId)) {
    throw refuse(`user ${principal.userId} has already voted on activity ${target.id}`, "ALREADY_VOTED", target);
  }
  const vote = voteOf(principal, selection, submission.bodyText, core.ids.next(), now);
  if (!(await voterCanCount(data, target, principal.userId, now, [policyCredentialOf(vote)]))) {
    throw refuse(
      `no root quorum or pending consensus of activity ${target.id} can count a vote from user ${principal.userId}`,
      "VOTER_NOT_COUNTED",
      target,
    );
  }

  let proving = target;
  if (selection === "VOTE_SELECTION_APPROVED") {
    const approverMfa = await approverMfaOf(core, data, submission, target);
    if (approverMfa !== undefined) {
      const others = (target.approverMfa ?? []).filter((status) => status.userId !== principal.userId);
      proving = { ...target, approverMfa: [...others, approverMfa.status], updatedAtMs: now };
      if (!mfaSatisfied(approverMfa.status)) {
        // The approval proves a step; it counts towards consensus once the approver's last step is proven.
        return settle(core, data, submission, organization, target, proving, approverMfa.decision, vote);
      }
    }
  }
  const votes = [...proving.votes, vote];
  const voted: ActivityRecord = { ...proving, votes, updatedAtMs: now };
  // The submitter must still be able to act: a deleted user, or a key deleted or expired since it
  // submitted, cannot have its queued work run by a later approval.
  const submitter = await submitterOf(data, target)
    .then(async (principal) => {
      await assertCredentialCurrent(data, principal, now);
      return principal;
    })
    .catch((error: unknown) => {
      if (
        isCustodyError(error) &&
        (error.details.reason === "SUBMITTER_NOT_FOUND" || error.code === "UNAUTHENTICATED")
      ) {
        return error;
      }
      throw error;
    });
  let updated: ActivityRecord;
  let record: Parameters<typeof evaluationRecord>[0];
  if (isCustodyError(submitter)) {
    // Nothing can run as a submitter who can no longer act: a rejection still ends the activity as REJECTED,
    // and an approval ends it as FAILED, rather than leaving it pending for ever.
    const rejected = selection === "VOTE_SELECTION_REJECTED";
    updated = rejected
      ? { ...voted, status: "ACTIVITY_STATUS_REJECTED" }
      : failedActivity(voted, submitter.toRpcStatus());
    record = {
      outcome: rejected ? "REJECTED" : "DENY",
      reason: rejected ? "REJECTED_BY_VOTE" : "SUBMITTER_CANNOT_ACT",
      evaluations: [],
      openConsensus: [],
    };
    return settle(core, data, submission, organization, target, updated, record, vote);
  }
  // Judged now, against the current users and policies, with the votes of the open consensus window.
  const decision = await decidePending(
    data,
    target,
    submitter,
    consensusWindow(votes, now).counting,
    now,
    core.services,
  );
  record = decision;
  if (selection === "VOTE_SELECTION_REJECTED") {
    updated = { ...voted, status: "ACTIVITY_STATUS_REJECTED" };
    record = rejection(decision);
  } else if (decision.outcome === "ALLOW") {
    const run = { ...(await targetRequest(target)), organization, submitter, now };
    updated = await complete(core, data, voted, run, handlerFailure);
  } else if (decision.outcome === "DENY") {
    updated = failedActivity(voted, denialError(target, decision).toRpcStatus());
  } else {
    updated = voted;
  }

  return settle(core, data, submission, organization, target, updated, record, vote);
}

/**
 * A vote on an activity waiting for its submitter's authenticators: only that user may cast it. A rejection
 * ends the activity; an approval counts the method its stamp proves towards the MFA policy (refused, changing
 * nothing, when it proves no step still open). Once every step is proven, the activity is decided again as
 * it would have been at submission: ALLOW runs it, DENY fails it, otherwise it waits for consensus.
 */
async function proveAuthenticator(
  core: PipelineCore,
  data: DataWriter,
  submission: AcceptedSubmission,
  selection: VoteSelection,
  organization: OrganizationRecord,
  target: ActivityRecord,
  handlerFailure: CustodyError | undefined,
): Promise<ActivityResponse> {
  const { principal, now } = submission;
  const mfa = target.mfa;
  if (mfa === undefined || mfa.userId !== principal.userId) {
    throw refuse(
      `activity ${target.id} waits for the authenticators of the user who submitted it`,
      "AUTHENTICATORS_NEEDED",
      target,
    );
  }
  const vote = voteOf(principal, selection, submission.bodyText, core.ids.next(), now);
  if (selection === "VOTE_SELECTION_REJECTED") {
    const updated: ActivityRecord = { ...target, status: "ACTIVITY_STATUS_REJECTED", updatedAtMs: now };
    const record: Parameters<typeof evaluationRecord>[0] = {
      outcome: "REJECTED",
      reason: "REJECTED_BY_VOTE",
      evaluations: [],
      openConsensus: [],
    };
    return settle(core, data, submission, organization, target, updated, record, vote);
  }
  const proven = proveMfaMethod(mfa, await provenMethod(data, principal));
  if (proven === undefined) {
    throw refuse(
      `the stamp proves no authentication method the MFA policy ${mfa.mfaPolicyId} still needs on activity ${target.id}`,
      "MFA_METHOD_NOT_ACCEPTED",
      target,
    );
  }
  const voted: ActivityRecord = { ...target, mfa: proven, updatedAtMs: now };
  const submitter = await submitterOf(data, target);
  await assertCredentialCurrent(data, submitter, now);
  const decision = await decidePending(
    data,
    target,
    submitter,
    consensusWindow(target.votes, now).counting,
    now,
    core.services,
  );
  // Until every step is proven the activity keeps waiting, whatever the decision.
  let updated: ActivityRecord = voted;
  if (mfaSatisfied(proven)) {
    if (decision.outcome === "ALLOW") {
      const run = { ...(await targetRequest(target)), organization, submitter, now };
      updated = await complete(core, data, voted, run, handlerFailure);
    } else if (decision.outcome === "DENY") {
      updated = failedActivity(voted, denialError(target, decision).toRpcStatus());
    } else {
      updated = { ...voted, status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" };
    }
  }
  return settle(core, data, submission, organization, target, updated, decision, vote);
}

/**
 * The approver's MFA on `target` with this approval's stamp proven, and the decision whose context matched
 * it; undefined when none of the approver's MFA policies matches the activity. Refused, changing nothing,
 * when the stamp proves no step still open.
 */
async function approverMfaOf(
  core: PipelineCore,
  data: DataWriter,
  submission: AcceptedSubmission,
  target: ActivityRecord,
): Promise<{ status: MfaStatusRecord; decision: ActivityDecision } | undefined> {
  const { principal, now } = submission;
  const submitter = await submitterOf(data, target).catch(() => undefined);
  if (submitter === undefined) return undefined;
  const counting = consensusWindow(target.votes, now).counting;
  const decision = await decidePending(data, target, submitter, counting, now, core.services);
  const matched = await matchingMfaPolicy(data, principal.userId, decision.context);
  if (matched === undefined) return undefined;
  const earlier = target.approverMfa?.find(
    (status) => status.userId === principal.userId && status.mfaPolicyId === matched.mfaPolicyId,
  );
  const status = proveMfaMethod(earlier ?? matched, await provenMethod(data, principal));
  if (status === undefined) {
    throw refuse(
      `the stamp proves no authentication method the MFA policy ${matched.mfaPolicyId} of user ${principal.userId} still needs on activity ${target.id}`,
      "MFA_METHOD_NOT_ACCEPTED",
      target,
    );
  }
  return { status, decision };
}

/** Records a vote's outcome: the updated target, the decision record, and the vote's own activity. */
async function settle(
  core: PipelineCore,
  data: DataWriter,
  submission: AcceptedSubmission,
  organization: OrganizationRecord,
  target: ActivityRecord,
  updated: ActivityRecord,
  record: Parameters<typeof evaluationRecord>[0],
  vote: VoteRecord,
): Promise<ActivityResponse> {
  const { principal, now } = submission;
  await data.put("activities", updated);
  await data.put(
    "policyEvaluations",
    evaluationRecord(record, { id: core.ids.next(), activity: target, voteId: vote.id, now }),
  );
  await data.put("activities", ownRecord(core, submission, organization, vote));
  return { activity: await renderActivity(data, updated, activityViewer(data, principal.userId, now)) };
}

/** The decision record of a rejection: every policy that was still waiting for votes shows OUTCOME_REJECTED. */
function rejection(decision: ActivityDecision): Parameters<typeof evaluationRecord>[0] {
  const rejectedBy = new Set(decision.openConsensus.map((open) => open.policyId));
  return {
    outcome: "REJECTED",
    reason: "REJECTED_BY_VOTE",
    evaluations: decision.evaluations.map((evaluation) =>
      evaluation.policyId !== undefined && rejectedBy.has(evaluation.policyId)
        ? { ...evaluation, outcome: "OUTCOME_REJECTED" as const }
        : evaluation,
    ),
    // Nothing is open any more: the rejection is final.
    openConsensus: [],
  };
}

/** Runs the target's handler for its submitter; a failure is thrown out so the transaction rolls back. */
async function complete(
  core: PipelineCore,
  data: DataWriter,
  voted: ActivityRecord,
  run: TargetRequest & { organization: OrganizationRecord; submitter: Principal; now: number },
  handlerFailure: CustodyError | undefined,
): Promise<ActivityRecord> {
  if (handlerFailure) return failedActivity(voted, handlerFailure.toRpcStatus());
  let result: Record<string, unknown> | null;
  try {
    result = await execute(core, data, {
      ...run,
      principal: run.submitter,
      activityId: voted.id,
      fingerprint: voted.fingerprint,
    });
  } catch (error) {
    throw new TargetHandlerFailed(asCustodyError(error));
  }
  return { ...voted, status: "ACTIVITY_STATUS_COMPLETED", result };
}

/** The vote's own activity: completed, with the voter's vote; its fingerprint makes the vote idempotent. */
function ownRecord(
  core: PipelineCore,
  submission: AcceptedSubmission,
  organization: OrganizationRecord,
  vote: VoteRecord,
): ActivityRecord {
  const { version, now } = submission;
  return {
    id: core.ids.next(),
    organizationId: organization.id,
    status: "ACTIVITY_STATUS_COMPLETED",
    type: version.type,
    operation: submission.operation.path,
    intent: { [version.intent]: submission.parameters },
    result: null,
    votes: [{ ...vote, id: core.ids.next() }],
    fingerprint: submission.fingerprint,
    timestampMs: submission.timestampMs,
    failure: null,
    createdAtMs: now,
    updatedAtMs: now,
  };
}
