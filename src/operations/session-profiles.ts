/**
 * Session profiles: `create_session_profile`, and the queries `get_session_profile` and
 * `get_session_profiles`. A log-in that names a profile (`stamp_login`, `otp_login`, `oauth_login`) issues a
 * session whose every activity must satisfy the profile's scope (`engine/pipeline/submit.ts`), that lasts
 * no longer than the profile allows, and that proves `AUTHENTICATION_TYPE_SESSION` with the profile's id to
 * MFA policies. Profiles are immutable: the hosted service has no activity to change or delete one.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, int64String, name, withoutNul } from "../contract/schema.js";
import {
  requireSessionProfile,
  SESSION_PROFILES_PER_ORGANIZATION,
  visibleSessionProfiles,
} from "../domain/session-profiles.js";
import type { SessionProfileRecord } from "../model/records.js";
import { renderSessionProfile } from "../model/render.js";
import { MAX_EXPRESSION_LENGTH, validatePolicyExpressions } from "../policy/index.js";
import { MAX_SESSION_SECONDS } from "./session-logins.js";

const scope = v.pipe(
  v.string(),
  v.maxLength(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`),
);
const notes = v.pipe(v.string(), v.maxLength(16_384, "must be at most 16384 characters"), withoutNul);
/** A lifetime a session may have: 1 second to the longest session this engine issues. */
const expirationSeconds = v.pipe(
  int64String,
  v.check((value) => {
    const seconds = Number(value);
    return seconds >= 1 && seconds <= MAX_SESSION_SECONDS;
  }, `must be between 1 and ${MAX_SESSION_SECONDS}`),
);

export const createSessionProfile = defineActivity({
  method: "createSessionProfile",
  path: "create_session_profile",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
      intent: "createSessionProfileIntent",
      result: "createSessionProfileResult",
      parameters: v.object({
        sessionProfileName: name,
        scope,
        expirationSeconds: v.optional(expirationSeconds),
        notes: v.optional(notes),
      }),
    },
  ],
  policy: { resource: "SESSION_PROFILE", action: "CREATE" },
  async handler(context, params) {
    const { data, organization } = context;
    validatePolicyExpressions({ condition: params.scope }, { fields: { condition: "parameters.scope" } });
    const existing = (await data.listAll("sessionProfiles", organization.id)).length;
    if (existing >= SESSION_PROFILES_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${SESSION_PROFILES_PER_ORGANIZATION} session profiles; this one has ${existing}`,
        {
          field: "parameters.sessionProfileName",
          reason: "SESSION_PROFILE_LIMIT_EXCEEDED",
          limit: SESSION_PROFILES_PER_ORGANIZATION,
        },
      );
    }
    const record: SessionProfileRecord = {
      id: context.newId(),
      organizationId: organization.id,
      sessionProfileName: params.sessionProfileName,
      scope: params.scope,
      expirationSeconds: params.expirationSeconds ?? null,
      notes: params.notes ?? "",
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await data.put("sessionProfiles", record);
    return { sessionProfileId: record.id };
  },
});

export const getSessionProfile = defineQuery({
  method: "getSessionProfile",
  path: "get_session_profile",
  request: v.object({ organizationId: id, sessionProfileId: id }),
  async handler(context, request) {
    const profile = await requireSessionProfile(
      context.data,
      context.organization,
      request.sessionProfileId,
      "sessionProfileId",
    );
    return { sessionProfile: renderSessionProfile(profile) };
  },
});

export const getSessionProfiles = defineQuery({
  method: "getSessionProfiles",
  path: "get_session_profiles",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const profiles = await visibleSessionProfiles(context.data, context.organization);
    return { sessionProfiles: profiles.map(renderSessionProfile) };
  },
});
