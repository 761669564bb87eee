/**
 * The submit pipeline: parse → liveness → fingerprint and idempotency → organization scope → decision →
 * execute → record. The handler's writes and the activity record commit in one transaction; a handler
 * that throws leaves storage as it was, and the FAILED activity is then recorded on its own.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import * as v from "valibot";
import { CustodyError, type ErrorCode } from "../errors.js";
import type { ActivityContext, ActivityOperation, ActivityVersion } from "../operations/define.js";
import { id } from "../operations/schema.js";
import type { Store } from "../storage/store.js";
import type { ActivityResponse } from "../wire/types.js";
import { assertMaySubmit } from "./access.js";
import { DataWriter } from "./data.js";
import { decide } from "./decision.js";
import type { IdGenerator } from "./ids.js";
import type { Principal } from "./principal.js";
import type { Clock, RandomSource } from "./random.js";
import type { ActivityRecord } from "./records.js";
import { renderActivity } from "./render.js";
import type { EngineServices } from "./services.js";
import { parseWith } from "./validate.js";

/** What the pipeline needs from the engine. */
export interface PipelineCore {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  readonly services: EngineServices;
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

/** The user the parameters act on, for the self-credential rule. */
function targetUserOf(parameters: unknown): string | undefined {
  const userId = (parameters as { userId?: unknown }).userId;
  return typeof userId === "string" ? userId : undefined;
}

function asCustodyError(error: unknown): CustodyError {
  if (error instanceof CustodyError) return error;
  // Unknown errors may carry anything in their message, so the record and the caller get a generic one.
  return new CustodyError("INTERNAL", "internal error while executing the activity", {}, { cause: error });
}

/** Runs one submission through the pipeline and returns the wire response. */
export async function submitActivity(core: PipelineCore, submission: Submission): Promise<ActivityResponse> {
  const { operation, bodyText, principal } = submission;
  const request = parseWith(envelope, submission.body, "");
  const version = versionOf(operation, request.type);
  const parameters = parseWith(version.parameters, request.parameters, "parameters");
  const now = core.clock();
  assertLive(request.timestampMs, now, core.services);
  const fingerprint = fingerprintOf(bodyText);

  // Set once the activity exists in principle: from then on a failure is recorded, not just thrown.
  let draft: ActivityRecord | undefined;
  try {
    return await core.store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      const existingId = await data.lookup("activityByFingerprint", fingerprint);
      if (existingId !== undefined) {
        const existing = await data.require("activities", existingId, "activity");
        if (existing.status === "ACTIVITY_STATUS_FAILED") throw replayFailure(existing);
        return { activity: await renderActivity(data, existing, principal.userId) };
      }
      const organization = await data.require(
        "organizations",
        request.organizationId,
        "organization",
        "organizationId",
      );
      assertMaySubmit(principal, organization, operation.access);
      await data.require("users", principal.userId, "user");

      const activityId = core.ids.next();
      draft = {
        id: activityId,
        organizationId: organization.id,
        status: "ACTIVITY_STATUS_CREATED",
        type: version.type,
        operation: operation.path,
        intent: { [version.intent]: parameters },
        result: null,
        votes: [
          {
            id: core.ids.next(),
            userId: principal.userId,
            selection: "VOTE_SELECTION_APPROVED",
            message: bodyText,
            publicKey: principal.credential.publicKey,
            signature: principal.credential.signature,
            scheme: principal.credential.scheme,
            createdAtMs: now,
          },
        ],
        fingerprint,
        failure: null,
        createdAtMs: now,
        updatedAtMs: now,
      };

      const decision = decide({
        organization,
        policy: operation.policy,
        approverIds: [principal.userId],
        targetUserId: targetUserOf(parameters),
      });
      if (decision.outcome === "DENY") {
        throw new CustodyError("PERMISSION_DENIED", `activity ${activityId} was denied: ${decision.reason}`, {
          reason: "POLICY_DENIED",
        });
      }
      const activity: ActivityRecord = { ...draft };
      if (decision.outcome === "ALLOW") {
        const context: ActivityContext = {
          data,
          principal,
          organization,
          activityId,
          now,
          newId: () => core.ids.next(),
          random: core.random,
          services: core.services,
        };
        const result = await operation.handler(context, parameters, version);
        activity.status = "ACTIVITY_STATUS_COMPLETED";
        activity.result = version.result === null ? null : { [version.result]: result };
      } else {
        activity.status = "ACTIVITY_STATUS_CONSENSUS_NEEDED";
      }
      await data.put("activities", activity);
      return { activity: await renderActivity(data, activity, principal.userId) };
    });
  } catch (thrown) {
    if (!draft) throw thrown;
    const error = asCustodyError(thrown);
    const failed = { ...draft, status: "ACTIVITY_STATUS_FAILED" as const, failure: error.toRpcStatus() };
    await core.store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      // A concurrent identical submission may have recorded the activity meanwhile: it stands.
      if ((await data.lookup("activityByFingerprint", fingerprint)) === undefined) await data.put("activities", failed);
    });
    throw new CustodyError(
      error.code,
      error.message,
      { ...error.details, activityId: failed.id, fingerprint },
      { cause: error.cause },
    );
  }
}
