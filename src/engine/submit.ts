/**
 * The submit pipeline: parse → liveness → fingerprint and idempotency → organization scope → decision →
 * execute → record. The handler's writes, the activity record and its decision record commit in one
 * transaction; a handler that throws, or a decision that denies, leaves storage as it was, and the FAILED
 * activity is then recorded on its own with its decision. Votes (`approve_activity`, `reject_activity`)
 * take their own path (`voting.ts`).
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import * as v from "valibot";
import { assertCredentialCurrent } from "../auth/credential-state.js";
import { CustodyError, type ErrorCode } from "../errors.js";
import type { ActivityOperation, ActivityVersion } from "../operations/define.js";
import { id } from "../operations/schema.js";
import type { Store } from "../storage/store.js";
import type { ActivityResponse } from "../wire/types.js";
import { actingOrganization } from "./access.js";
import { DataWriter } from "./data.js";
import { decideActivity, denialError, evaluationRecord } from "./decision.js";
import { asCustodyError, assertMayReplay, execute, voteOf } from "./execution.js";
import { failedActivity } from "./failed-activity.js";
import type { IdGenerator } from "./ids.js";
import type { KeyedLock } from "./keyed-lock.js";
import type { Principal } from "./principal.js";
import type { Clock, RandomSource } from "./random.js";
import type { ActivityRecord, PolicyEvaluationRecord } from "./records.js";
import { renderActivity } from "./render.js";
import type { EngineServices } from "./services.js";
import { parseWith } from "./validate.js";
import { castVote } from "./voting.js";

/** What the pipeline needs from the engine. */
export interface PipelineCore {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  readonly services: EngineServices;
  /** Serializes submissions of one body (see `keyed-lock.ts`). */
  readonly fingerprints: KeyedLock;
}

/** One submission: the exact body text (what the fingerprint covers) and its parsed JSON. */
export interface Submission {
  operation: ActivityOperation;
  bodyText: string;
  body: unknown;
  principal: Principal;
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
  const version = operation.versions.find((candidate) => candidate.type === type);
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

function assertLive(timestampMs: string, now: number, services: EngineServices): void {
  const at = Number(timestampMs);
  if (at < now - services.maxRequestAgeMs) {
    throw new CustodyError("INVALID_ARGUMENT", "timestampMs is too old: a signed request is valid for one hour", {
      field: "timestampMs",
      reason: "STALE_TIMESTAMP",
      timestampMs,
      now,
    });
  }
  if (at > now + services.maxClockSkewMs) {
    throw new CustodyError("INVALID_ARGUMENT", "timestampMs is too far in the future (more than 5 minutes ahead)", {
      field: "timestampMs",
      reason: "FUTURE_TIMESTAMP",
      timestampMs,
      now,
    });
  }
}

/** `sha256:<hex>` of the exact body bytes: the activity's identity for idempotency. */
export function fingerprintOf(bodyText: string): string {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(bodyText)))}`;
}

/** A submission that passed parsing and liveness: what the activity and vote paths work from. */
export interface AcceptedSubmission {
  readonly operation: ActivityOperation;
  readonly version: ActivityVersion;
  readonly parameters: unknown;
  readonly organizationId: string;
  readonly bodyText: string;
  readonly fingerprint: string;
  readonly principal: Principal;
  readonly now: number;
}

/** Rebuilds the error a FAILED activity answered with, for an idempotent resubmission. */
function replayFailure(activity: ActivityRecord): CustodyError {
  const failure = activity.failure;
  const detail = failure?.details.find((d) => d["@type"].endsWith("custodian.v1.ErrorDetail"));
  const { "@type": _type, code, ...rest } = (detail ?? {}) as Record<string, unknown>;
  return new CustodyError((code as ErrorCode | undefined) ?? "INTERNAL", failure?.message ?? "the activity failed", {
    ...rest,
    activityId: activity.id,
    fingerprint: activity.fingerprint,
  });
}

/** Runs one submission through the pipeline and returns the wire response. */
export async function submitActivity(core: PipelineCore, submission: Submission): Promise<ActivityResponse> {
  const { operation, bodyText, principal } = submission;
  const request = parseWith(envelope, submission.body, "");
  const version = versionOf(operation, request.type);
  const parameters = parseWith(version.parameters, request.parameters, "parameters");
  const now = core.clock();
  assertLive(request.timestampMs, now, core.services);
  const accepted: AcceptedSubmission = {
    operation,
    version,
    parameters,
    organizationId: request.organizationId,
    bodyText,
    fingerprint: fingerprintOf(bodyText),
    principal,
    now,
  };
  return core.fingerprints.run(accepted.fingerprint, () =>
    operation.vote === undefined ? runActivity(core, accepted) : castVote(core, accepted, operation.vote),
  );
}

/** The answer to a body seen before: the same activity, or the same failure. */
async function replay(data: DataWriter, existingId: string, principal: Principal): Promise<ActivityResponse> {
  const existing = await data.require("activities", existingId, "activity");
  await assertMayReplay(data, principal, existing);
  if (existing.status === "ACTIVITY_STATUS_FAILED") throw replayFailure(existing);
  return { activity: await renderActivity(data, existing, principal.userId) };
}

async function runActivity(core: PipelineCore, submission: AcceptedSubmission): Promise<ActivityResponse> {
  const { operation, version, parameters, principal, fingerprint, now } = submission;
  // Set once the activity exists in principle: from then on a failure is recorded, not just thrown.
  let failed: { draft: ActivityRecord; evaluation?: PolicyEvaluationRecord } | undefined;
  try {
    return await core.store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      const existingId = await data.lookup("activityByFingerprint", fingerprint);
      if (existingId !== undefined) return replay(data, existingId, principal);
      const named = await data.require("organizations", submission.organizationId, "organization", "organizationId");
      const principalOrganization =
        principal.organizationId === named.id
          ? named
          : await data.require("organizations", principal.organizationId, "organization");
      const organization = actingOrganization(principal, named, principalOrganization, operation.access);
      await data.require("users", principal.userId, "user");
      await assertCredentialCurrent(data, principal, now);

      const vote = voteOf(principal, "VOTE_SELECTION_APPROVED", submission.bodyText, core.ids.next(), now);
      const draft: ActivityRecord = {
        id: core.ids.next(),
        organizationId: organization.id,
        status: "ACTIVITY_STATUS_CREATED",
        type: version.type,
        operation: operation.path,
        intent: { [version.intent]: parameters },
        result: null,
        votes: [vote],
        fingerprint,
        failure: null,
        createdAtMs: now,
        updatedAtMs: now,
      };
      failed = { draft };

      const governing = principalOrganization;
      const decision = await decideActivity({
        data,
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

      let activity: ActivityRecord = { ...draft, status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" };
      if (decision.outcome === "ALLOW") {
        const run = { operation, version, parameters, principal, organization, activityId: draft.id, now };
        activity = { ...draft, status: "ACTIVITY_STATUS_COMPLETED", result: await execute(core, data, run) };
      }
      await data.put("activities", activity);
      await data.put("policyEvaluations", evaluation);
      return { activity: await renderActivity(data, activity, principal.userId) };
    });
  } catch (thrown) {
    if (!failed) throw thrown;
    const { draft, evaluation } = failed;
    const error = asCustodyError(thrown);
    const activity = failedActivity(draft, error.toRpcStatus());
    await core.store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      // A concurrent identical submission may have recorded the activity meanwhile: it stands.
      if ((await data.lookup("activityByFingerprint", fingerprint)) !== undefined) return;
      await data.put("activities", activity);
      if (evaluation) await data.put("policyEvaluations", evaluation);
    });
    throw new CustodyError(
      error.code,
      error.message,
      { ...error.details, activityId: activity.id, fingerprint },
      { cause: error.cause },
    );
  }
}
