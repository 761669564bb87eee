/**
 * Session profiles (Turnkey docs, "Session Profiles"): which profiles an organization may issue sessions
 * under, how long such a session lasts, and whether a request made with one stays within its scope.
 *
 * @module
 */
import { CustodyError, isCustodyError } from "../common/errors.js";
import type { DataReader } from "../model/data.js";
import type { Principal } from "../model/principal.js";
import type { OrganizationRecord, SessionProfileRecord } from "../model/records.js";
import { evaluateExpression } from "../policy/evaluate-policy.js";
import type { PolicyContext } from "../policy/types.js";

/**
 * The id a default read-write session proves for MFA (an `AUTHENTICATION_TYPE_SESSION` method with this id
 * asks for a session issued under no profile, as the hosted docs' examples write it).
 */
export const DEFAULT_SESSION_PROFILE_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Profiles per organization (custodian's own bound; the hosted service publishes none): profiles cannot be
 * deleted, and `get_session_profiles` lists them all.
 */
export const SESSION_PROFILES_PER_ORGANIZATION = 100;

/** The organizations whose profiles `organization` sees: its own, then its parent's. */
function profileOwners(organization: OrganizationRecord): string[] {
  return organization.parentOrganizationId === null
    ? [organization.id]
    : [organization.id, organization.parentOrganizationId];
}

/** Every profile `organization` sees, its own first, each oldest first. */
export async function visibleSessionProfiles(
  data: DataReader,
  organization: OrganizationRecord,
): Promise<SessionProfileRecord[]> {
  const lists = await Promise.all(profileOwners(organization).map((owner) => data.listAll("sessionProfiles", owner)));
  return lists.flatMap((list) => [...list].sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : 1)));
}

/** A profile `organization` sees (its own or its parent's), or NOT_FOUND naming `field`. */
export async function requireSessionProfile(
  data: DataReader,
  organization: OrganizationRecord,
  sessionProfileId: string,
  field: string,
): Promise<SessionProfileRecord> {
  const profile = await data.get("sessionProfiles", sessionProfileId);
  if (profile === undefined || !profileOwners(organization).includes(profile.organizationId)) {
    throw new CustodyError("NOT_FOUND", `no session profile ${sessionProfileId} in this organization or its parent`, {
      field,
      reason: "SESSION_PROFILE_NOT_FOUND",
    });
  }
  return profile;
}

/** How long a session lasts: the shorter of the log-in's and the profile's lifetimes, else either, else `fallback`. */
export function sessionLifetime(
  requested: number | undefined,
  profile: SessionProfileRecord | undefined,
  fallback: number,
): number {
  const ceiling = profile?.expirationSeconds == null ? undefined : Number(profile.expirationSeconds);
  if (requested === undefined) return ceiling ?? fallback;
  return ceiling === undefined ? requested : Math.min(requested, ceiling);
}

/**
 * Refuses a request made with a profiled session when the profile's scope does not hold in `context`. A
 * scope that cannot be evaluated for this activity (a keyword it does not fill) refuses too: a session's
 * scope is what it may do, so what it cannot show it may do, it may not.
 */
export async function assertWithinSessionScope(
  data: DataReader,
  principal: Principal,
  context: PolicyContext,
): Promise<void> {
  const key = principal.credential.kind === "apiKey" ? principal.credential.id : null;
  if (key === null) return;
  const record = await data.get("apiKeys", key);
  if (record?.sessionProfileId === undefined) return;
  const profile = await data.get("sessionProfiles", record.sessionProfileId);
  let holds = false;
  if (profile !== undefined) {
    try {
      holds = evaluateExpression(profile.scope, context);
    } catch (error) {
      if (!isCustodyError(error)) throw error;
    }
  }
  if (!holds) {
    throw new CustodyError(
      "PERMISSION_DENIED",
      `the session's profile ${record.sessionProfileId} does not allow this activity`,
      { reason: "SESSION_SCOPE_DENIED", sessionProfileId: record.sessionProfileId },
    );
  }
}
