/**
 * The submit pipeline: parse → liveness → fingerprint and idempotency → organization scope → decision →
 * execute → record. The handler's writes, the activity record and its decision record commit in one
 * transaction; a handler that throws, or a decision that denies, leaves storage as it was, and the FAILED
 * activity is then recorded on its own with its decision. Votes (`approve_activity`, `reject_activity`)
 * take their own path (`voting.ts`).
 *
 * @module
 */
import { hash } from "node:crypto";
import * as v from "valibot";
import { assertCredentialCurrent } from "../../auth/credential-state.js";
import { CustodyError, type ErrorCode, errorCodeOfGrpc } from "../../common/errors.js";
import type { ActivityOperation, ActivityVersion } from "../../contract/operation.js";
import { id } from "../../contract/schema.js";
import { matchingMfaPolicy, mfaSatisfied, proveMfaMethod, provenMethod } from "../../domain/mfa.js";
import { assertWithinSessionScope } from "../../domain/session-profiles.js";
import { actingOrganization } from "../../model/access.js";
import { DataWriter } from "../../model/data.js";
import type { Principal } from "../../model/principal.js";
import type { ActivityRecord, PolicyEvaluationRecord, VoteSelection } from "../../model/records.js";
import { renderActivity } from "../../model/render.js";
import type { ActivityResponse } from "../../model/wire-types.js";
import { isStoreUnavailable, type TransactionOptions } from "../../storage/store.js";
import { decideActivity, denialError, evaluationRecord } from "../decisions/decision.js";
import { unknownUser } from "./acting-users.js";
import {
  asCustodyError,
  assertMayReplay,
  type DeferredExecution,
  execute,
  executeDeferrable,
  voteOf,
} from "./execution.js";
import { failedActivity } from "./failed-activity.js";
import { assertLive } from "./liveness.js";
import { activityViewer } from "./pending.js";
import { readAhead } from "./read-ahead.js";
import type { AcceptedSubmission, PipelineCore } from "./submission.js";
import { bodyWithoutNulls, parseWith } from "./validate.js";
import { castVote } from "./voting.js";

/** One submission: the exact body text (what the fingerprint covers) and its parsed JSON. */
export interface Submission {
  operation: ActivityOperation;
  bodyText: string;
  body: unknown;
  principal: Principal;
  /**
   * Set when the engine chose `timestampMs` itself (an in-process call that gave none). Such a timestamp runs
   * ahead of the clock under load, being strictly increasing, and checking the engine's own choice for
   * liveness would refuse every call once a burst outran the skew window; so it is not checked.
   */
  engineTimestamp?: boolean;
}

const envelope = v.object({
  type: v.string(),
  timestampMs: v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,16}$/, "must be milliseconds since the epoch, as a decimal string"),
  ),
  organizationId: id,
  parameters: v.record(v.string(), v.unknown()),
  generateAppProofs: v.optional(v.boolean()),
});

function versionOf(operation: ActivityOperation, type: string): ActivityVersion {
  const version = operation.versions.find(
    (candidate) => candidate.type === type || candidate.alsoAccepted?.includes(type),
  );
  if (!version) {
    const accepted = operation.versions.map((candidate) => candidate.type).join(", ");
    throw new CustodyError(
      "INVALID_ARGUMENT",
      `type ${type} is not accepted at ${operation.path}; expected ${accepted}`,
      {
        field: "type",
        reason: "REQUEST_INVALID",
      },
    );
  }
  return version;
}

/**
 * `sha256:<hex>` of the exact body bytes (UTF-8): the activity's identity for idempotency. node:crypto hashes
 * the string natively, without a UTF-8 copy, and the one-shot `hash` costs about half of a `createHash` object
 * for a body this small.
 */
export function fingerprintOf(bodyText: string): string {
  return `sha256:${hash("sha256", bodyText, "hex")}`;
}

/** Rebuilds the error a FAILED activity answered with, for an idempotent resubmission. */
function replayFailure(activity: ActivityRecord): CustodyError {
  const failure = activity.failure;
  const detail = failure?.details.find((d) => d["@type"].endsWith("custodian.v1.ErrorDetail"));
  if (failure && !detail) {
    // An answer in the hosted service's own form (a policy denial): the same body again.
    return new CustodyError(
      errorCodeOfGrpc(failure.code),
      failure.message,
      { activityId: activity.id, fingerprint: activity.fingerprint },
      { wireDetails: failure.details },
    );
  }
  const { "@type": _type, code, ...rest } = (detail ?? {}) as Record<string, unknown>;
  return new CustodyError((code as ErrorCode | undefined) ?? "INTERNAL", failure?.message ?? "the activity failed", {
    ...rest,
    activityId: activity.id,
    fingerprint: activity.fingerprint,
  });
}

/** What stored records hold in place of a secret. */
export const REDACTED = "<redacted>";

/** `members` with the secret ones (`names`) replaced by {@link REDACTED}. */
function redactMembers(members: unknown, names: readonly string[] | undefined): unknown {
  if (!names?.length || members === null || typeof members !== "object") return members;
  const copy: Record<string, unknown> = { ...(members as Record<string, unknown>) };
  for (const name of names) if (copy[name] !== undefined) copy[name] = REDACTED;
  return copy;
}

/** The body a vote records: the exact text, unless secret parameters must be blanked out of it. */
function redactedBody(bodyText: string, names: readonly string[] | undefined): string {
  if (!names?.length) return bodyText;
  const body = JSON.parse(bodyText) as Record<string, unknown>;
  return JSON.stringify({ ...body, parameters: redactMembers(body.parameters, names) });
}

function redactResult(
  result: Record<string, unknown> | null,
  version: ActivityVersion,
): Record<string, unknown> | null {
  if (result === null || version.result === null || !version.secretResults?.length) return result;
  return { [version.result]: redactMembers(result[version.result], version.secretResults) };
}

/**
 * Token-based principals act only where their row allows: an attested stamp (a verification or OIDC token)
 * only logs in, and a read-only session submits nothing.
 */
export function assertStampAccepted(principal: Principal, operation: ActivityOperation): void {
  const { kind } = principal.credential;
  if (kind === "session" || (kind === "attested" && !operation.acceptsAttestedStamp)) {
    throw new CustodyError(
      "PERMISSION_DENIED",
      kind === "session"
        ? "a read-only session cannot submit activities"
        : `an X-Stamp-Attested stamp can only log in (stamp_login), not ${operation.path}`,
      { reason: "STAMP_NOT_ACCEPTED" },
    );
  }
}

/** Runs one submission through the pipeline and returns the wire response. */
export async function submitActivity(core: PipelineCore, submission: Submission): Promise<ActivityResponse> {
  const { operation, bodyText, principal } = submission;
  const body = bodyWithoutNulls(submission.body);
  const request = parseWith(envelope, body, "", true);
  const version = versionOf(operation, request.type);
  const parameters = parseWith(version.parameters, request.parameters, "parameters", true);
  const now = core.clock();
  if (!submission.engineTimestamp) assertLive(request.timestampMs, now, core.services);
  const accepted: AcceptedSubmission = {
    operation,
    version,
    parameters,
    organizationId: request.organizationId,
    bodyText,
    fingerprint: fingerprintOf(bodyText),
    timestampMs: request.timestampMs,
    principal,
    now,
  };
  return core.fingerprints.run(accepted.fingerprint, () =>
    operation.vote === undefined ? runActivity(core, accepted) : castVoteAccepted(core, accepted, operation.vote),
  );
}

function castVoteAccepted(core: PipelineCore, accepted: AcceptedSubmission, selection: VoteSelection) {
  assertStampAccepted(accepted.principal, accepted.operation);
  return castVote(core, accepted, selection);
}

/** The answer to a body seen before: the same activity, or the same failure. */
async function replay(
  data: DataWriter,
  existingId: string,
  principal: Principal,
  now: number,
): Promise<ActivityResponse> {
  const existing = await data.require("activities", existingId, "activity");
  await assertMayReplay(data, principal, existing);
  if (existing.status === "ACTIVITY_STATUS_FAILED") throw replayFailure(existing);
  return { activity: await renderActivity(data, existing, activityViewer(data, principal.userId, now)) };
}

/** An activity whose handler finishes outside its transaction (`ActivityContext.outsideTransaction`). */
interface Deferred {
  readonly deferred: DeferredExecution;
  readonly draft: ActivityRecord;
  readonly evaluation: PolicyEvaluationRecord;
}

async function runActivity(core: PipelineCore, submission: AcceptedSubmission): Promise<ActivityResponse> {
  const { operation, version, parameters, principal, fingerprint, now } = submission;
  // Set once the activity exists in principle: from then on a failure is recorded, not just thrown.
  let failed: { draft: ActivityRecord; evaluation?: PolicyEvaluationRecord } | undefined;
  const failureWrites: ((data: DataWriter) => Promise<void>)[] = [];
  // Asked again before each transaction: the first one may have learned the tree.
  const options = () => core.trees.transactionOptions(submission.organizationId, principal.organizationId);
  try {
    const outcome = await core.store.transaction(async (tx): Promise<{ response: ActivityResponse } | Deferred> => {
      // A store may run this callback again after a serialization conflict (PostgresStore): what an earlier
      // run noted must not leak into this one, or a failure would be recorded with its writes twice.
      failed = undefined;
      failureWrites.length = 0;
      const data = new DataWriter(tx);
      // Asked together, so that a store may answer them in one round trip; the checks below then find them
      // remembered (PostgresStore) or read them again cheaply, in their order.
      const [existingId, , , user] = await Promise.all([
        data.lookup("activityByFingerprint", fingerprint),
        data.get("organizations", submission.organizationId),
        data.get("organizations", principal.organizationId),
        data.get("users", principal.userId),
        core.store.readsAhead ? readAhead(data, submission) : undefined,
      ]);
      // An in-process principal may have been named without a read (`acting-users.ts`): its user is checked here.
      if (user === undefined && principal.credential.kind === "inProcess") throw unknownUser(principal.userId);
      if (existingId !== undefined) return { response: await replay(data, existingId, principal, now) };
      const named = await data.require("organizations", submission.organizationId, "organization", "organizationId");
      const principalOrganization =
        principal.organizationId === named.id
          ? named
          : await data.require("organizations", principal.organizationId, "organization");
      core.trees.learn(named);
      core.trees.learn(principalOrganization);
      const organization = actingOrganization(principal, named, principalOrganization, operation.access);
      await data.require("users", principal.userId, "user");
      await assertCredentialCurrent(data, principal, now);
      assertStampAccepted(principal, operation);

      const message = redactedBody(submission.bodyText, version.secretParameters);
      const vote = voteOf(principal, "VOTE_SELECTION_APPROVED", message, core.ids.next(), now);
      let draft: ActivityRecord = {
        id: core.ids.next(),
        organizationId: organization.id,
        status: "ACTIVITY_STATUS_CREATED",
        type: version.type,
        operation: operation.path,
        intent: { [version.intent]: redactMembers(parameters, version.secretParameters) },
        result: null,
        votes: [vote],
        fingerprint,
        timestampMs: submission.timestampMs,
        failure: null,
        createdAtMs: now,
        updatedAtMs: now,
      };
      failed = { draft };

      const governing = principalOrganization;
      const decision = await decideActivity({
        data,
        services: core.services,
        organization,
        governing,
        operation,
        version,
        parameters,
        votes: draft.votes,
        submitter: principal,
        now,
      });
      const evaluation = evaluationRecord(decision, { id: core.ids.next(), activity: draft, voteId: vote.id, now });
      failed.evaluation = evaluation;
      if (decision.outcome === "DENY") throw denialError(draft, decision);
      // A session issued under a session profile may do only what the profile's scope allows (Turnkey
      // docs, "Session Profiles"), whatever the policies say.
      await assertWithinSessionScope(data, principal, decision.context);

      // The submitter's first MFA policy whose condition holds: the submission's own stamp counts towards it,
      // and the activity waits for `approve_activity` stamps proving the rest (Turnkey docs, "Satisfying MFA").
      const matched = await matchingMfaPolicy(data, principal.userId, decision.context);
      if (matched !== undefined) {
        const mfa = proveMfaMethod(matched, await provenMethod(data, principal)) ?? matched;
        draft = { ...draft, mfa };
        failed.draft = draft;
        if (!mfaSatisfied(mfa)) {
          const waiting: ActivityRecord = { ...draft, status: "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED" };
          await Promise.all([data.put("activities", waiting), data.put("policyEvaluations", evaluation)]);
          return {
            response: { activity: await renderActivity(data, waiting, activityViewer(data, principal.userId, now)) },
          };
        }
      }

      let activity: ActivityRecord = { ...draft, status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" };
      let answered = activity;
      if (decision.outcome === "ALLOW") {
        const run = {
          operation,
          version,
          parameters,
          principal,
          organization,
          activityId: draft.id,
          fingerprint,
          now,
          failureWrites,
        };
        let result: Record<string, unknown> | null;
        if (core.services.signers) {
          // With signer threads, a signature runs after this transaction (which then writes nothing), so
          // concurrent activities overlap theirs instead of queueing behind the store's one writer.
          const executed = await executeDeferrable(core, data, run);
          if ("deferred" in executed) return { deferred: executed.deferred, draft, evaluation };
          result = executed.result;
        } else {
          result = await execute(core, data, run);
        }
        answered = { ...draft, status: "ACTIVITY_STATUS_COMPLETED", result };
        activity = { ...answered, result: redactResult(result, version) };
      }
      // Together, so that a store may send them in one round trip.
      await Promise.all([data.put("activities", activity), data.put("policyEvaluations", evaluation)]);
      // Secret result members (a session JWT) reach the submitter in this response only.
      return {
        response: { activity: await renderActivity(data, answered, activityViewer(data, principal.userId, now)) },
      };
    }, options());
    return "response" in outcome ? outcome.response : await recordDeferred(core, submission, outcome, options());
  } catch (thrown) {
    // A store that could not be reached kept nothing, and the same body may succeed later: there is no
    // failure to record (recording one would answer every retry with it).
    if (!failed || isStoreUnavailable(thrown)) throw thrown;
    const { draft, evaluation } = failed;
    const error = asCustodyError(thrown);
    const activity = failedActivity(draft, error.toRpcStatus());
    await core.store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      // A concurrent identical submission may have recorded the activity meanwhile: it stands.
      if ((await data.lookup("activityByFingerprint", fingerprint)) !== undefined) return;
      await data.put("activities", activity);
      if (evaluation) await data.put("policyEvaluations", evaluation);
      for (const write of failureWrites) await write(data);
    }, options());
    throw new CustodyError(
      error.code,
      error.message,
      { ...error.details, activityId: activity.id, fingerprint },
      { cause: error.cause, ...(error.wireDetails ? { wireDetails: error.wireDetails } : {}) },
    );
  }
}

/**
 * Finishes an activity the decision allowed and whose handler left its transaction: runs the deferred work
 * (no store transaction held), then records the COMPLETED activity and its evaluation, unless an identical
 * submission was recorded meanwhile (another engine on the store), which is then the answer. The
 * organization and what the handler's `confirm` checks must still exist; otherwise the activity fails.
 */
async function recordDeferred(
  core: PipelineCore,
  submission: AcceptedSubmission,
  { deferred, draft, evaluation }: Deferred,
  options: TransactionOptions,
): Promise<ActivityResponse> {
  const { version, principal, fingerprint, now } = submission;
  const result = await deferred.finish();
  return core.store.transaction(async (tx) => {
    const data = new DataWriter(tx);
    const existingId = await data.lookup("activityByFingerprint", fingerprint);
    if (existingId !== undefined) return replay(data, existingId, principal, now);
    await data.require("organizations", draft.organizationId, "organization", "organizationId");
    await deferred.confirm(data);
    const answered: ActivityRecord = { ...draft, status: "ACTIVITY_STATUS_COMPLETED", result };
    await data.put("activities", { ...answered, result: redactResult(result, version) });
    await data.put("policyEvaluations", evaluation);
    return { activity: await renderActivity(data, answered, activityViewer(data, principal.userId, now)) };
  }, options);
}
