/**
 * Renders stored records into their wire shapes. Reads only: related records (a vote's user, a user's
 * credentials) are looked up through the same reader so a response is one consistent view.
 *
 * @module
 */

import { consensusWindow } from "./consensus-window.js";
import type { DataReader } from "./data.js";
import type {
  ActivityRecord,
  ApiKeyRecord,
  AuthenticatorRecord,
  MfaPolicyRecord,
  OauthProviderRecord,
  SessionProfileRecord,
  TagRecord,
  UserRecord,
  VoteRecord,
} from "./records.js";
import type {
  Activity,
  ApiKey,
  Authenticator,
  MfaPolicy,
  OauthProvider,
  SessionProfile,
  Timestamp,
  User,
  Vote,
} from "./wire-types.js";

/** Milliseconds → `{seconds, nanos}` with int64 fields as decimal strings. */
export function timestamp(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: String((ms - seconds * 1000) * 1_000_000) };
}

export function renderApiKey(key: ApiKeyRecord): ApiKey {
  return {
    credential: {
      publicKey: key.publicKey,
      type: key.credentialType,
      ...(key.sessionProfileId === undefined ? {} : { sessionProfileId: key.sessionProfileId }),
    },
    apiKeyId: key.id,
    apiKeyName: key.apiKeyName,
    createdAt: timestamp(key.createdAtMs),
    updatedAt: timestamp(key.updatedAtMs),
    ...(key.expirationSeconds === null ? {} : { expirationSeconds: key.expirationSeconds }),
  };
}

export function renderOauthProvider(provider: OauthProviderRecord): OauthProvider {
  return {
    providerId: provider.id,
    providerName: provider.providerName,
    issuer: provider.issuer,
    audience: provider.audience,
    subject: provider.subject,
    createdAt: timestamp(provider.createdAtMs),
    updatedAt: timestamp(provider.updatedAtMs),
  };
}

/** A passkey as `v1Authenticator`: the credential's public key is its COSE_Key, base64url. */
export function renderAuthenticator(authenticator: AuthenticatorRecord): Authenticator {
  return {
    transports: [...authenticator.transports],
    attestationType: authenticator.attestationType,
    aaguid: authenticator.aaguid,
    credentialId: authenticator.credentialId,
    model: authenticator.model,
    credential: { publicKey: authenticator.publicKeyCose, type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" },
    authenticatorId: authenticator.id,
    authenticatorName: authenticator.authenticatorName,
    createdAt: timestamp(authenticator.createdAtMs),
    updatedAt: timestamp(authenticator.updatedAtMs),
  };
}

/** A user's MFA policies in evaluation order: `order` ascending, then the older first. */
export function inMfaOrder(policies: readonly MfaPolicyRecord[]): MfaPolicyRecord[] {
  return [...policies].sort((a, b) => {
    return a.order - b.order || a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : 1);
  });
}

/** `v1MfaPolicy`. */
export function renderMfaPolicy(policy: MfaPolicyRecord): MfaPolicy {
  return {
    mfaPolicyId: policy.id,
    mfaPolicyName: policy.mfaPolicyName,
    condition: policy.condition,
    requiredAuthenticationMethods: policy.requiredAuthenticationMethods.map((step) => ({
      any: step.any.map((method) => ({ ...method })),
    })),
    order: policy.order,
    notes: policy.notes,
    createdAt: timestamp(policy.createdAtMs),
    updatedAt: timestamp(policy.updatedAtMs),
  };
}

export function renderSessionProfile(profile: SessionProfileRecord): SessionProfile {
  return {
    sessionProfileId: profile.id,
    sessionProfileName: profile.sessionProfileName,
    scope: profile.scope,
    ...(profile.expirationSeconds === null ? {} : { expirationSeconds: profile.expirationSeconds }),
    notes: profile.notes,
    createdAt: timestamp(profile.createdAtMs),
    updatedAt: timestamp(profile.updatedAtMs),
  };
}

export async function renderUser(data: DataReader, user: UserRecord): Promise<User> {
  const [apiKeys, authenticators, oauthProviders, mfaPolicies] = await Promise.all([
    data.listAll("apiKeys", user.id),
    data.listAll("authenticators", user.id),
    data.listAll("oauthProviders", user.id),
    data.listAll("mfaPolicies", user.id),
  ]);
  return {
    userId: user.id,
    userName: user.userName,
    ...(user.userEmail === null ? {} : { userEmail: user.userEmail }),
    ...(user.userPhoneNumber === null ? {} : { userPhoneNumber: user.userPhoneNumber }),
    authenticators: authenticators.map(renderAuthenticator),
    apiKeys: apiKeys.map(renderApiKey),
    userTags: [...user.tagIds],
    oauthProviders: oauthProviders.map(renderOauthProvider),
    createdAt: timestamp(user.createdAtMs),
    updatedAt: timestamp(user.updatedAtMs),
    mfaPolicies: inMfaOrder(mfaPolicies).map(renderMfaPolicy),
  };
}

/** A vote's user as it is now; a user deleted since is shown by id and name only. */
/**
 * A vote as its activity's organization may see it. The voter's profile and credentials are shown only
 * when the voter belongs to that organization: a parent's user acting in a sub-organization (the
 * authentication flows) is named by id alone, so the sub-organization cannot read the parent's users. A
 * voter deleted since is shown the same way.
 */
async function renderVote(data: DataReader, activity: ActivityRecord, vote: VoteRecord): Promise<Vote> {
  const user = await data.get("users", vote.userId);
  const visible = user !== undefined && user.organizationId === activity.organizationId;
  const activityId = activity.id;
  return {
    id: vote.id,
    userId: vote.userId,
    user: visible
      ? await renderUser(data, user)
      : {
          userId: vote.userId,
          userName: "",
          authenticators: [],
          apiKeys: [],
          userTags: [],
          oauthProviders: [],
          createdAt: timestamp(vote.createdAtMs),
          updatedAt: timestamp(vote.createdAtMs),
          mfaPolicies: [],
        },
    activityId,
    selection: vote.selection,
    message: vote.message,
    publicKey: vote.publicKey,
    signature: vote.signature,
    scheme: vote.scheme,
    createdAt: timestamp(vote.createdAtMs),
  };
}

/** Who an activity is rendered for, and when: what `canApprove`/`canReject` are judged by. */
export interface ActivityViewer {
  readonly userId: string;
  /** The engine clock's reading (ms): votes older than the consensus window no longer count. */
  readonly now: number;
  /**
   * Whether this viewer's vote could count on the pending `activity`: the root quorum or a pending consensus
   * could count them (the engine's consensus rules decide it).
   */
  readonly voteCouldCount: (activity: ActivityRecord) => Promise<boolean>;
}

/**
 * Renders an activity for `viewer`. `canApprove`/`canReject` say whether that viewer may still vote: only
 * while consensus is pending, only while no vote of theirs counts, and only if the root quorum or a
 * pending consensus could count them (`viewer.voteCouldCount`). Without a viewer (webhooks) both are false.
 */
export async function renderActivity(
  data: DataReader,
  activity: ActivityRecord,
  viewer?: ActivityViewer,
): Promise<Activity> {
  let mayVote = false;
  if (viewer !== undefined && activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
    const { counting } = consensusWindow(activity.votes, viewer.now);
    mayVote = !counting.some((vote) => vote.userId === viewer.userId) && (await viewer.voteCouldCount(activity));
  }
  // Waiting for authenticators, only the submitter's own approvals (each proving a method) or rejection count.
  if (viewer !== undefined && activity.status === "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED") {
    mayVote = activity.mfa?.userId === viewer.userId;
  }
  return {
    id: activity.id,
    organizationId: activity.organizationId,
    status: activity.status,
    type: activity.type,
    intent: activity.intent,
    result: activity.result,
    votes: await Promise.all(activity.votes.map((vote) => renderVote(data, activity, vote))),
    fingerprint: activity.fingerprint,
    timestampMs: activity.timestampMs,
    canApprove: mayVote,
    canReject: mayVote,
    createdAt: timestamp(activity.createdAtMs),
    updatedAt: timestamp(activity.updatedAtMs),
    failure: activity.failure,
  };
}

/** `datav1Tag`, for user and private-key tags alike. */
export function renderTag(tag: TagRecord) {
  return {
    tagId: tag.id,
    tagName: tag.tagName,
    tagType: tag.tagType,
    createdAt: timestamp(tag.createdAtMs),
    updatedAt: timestamp(tag.updatedAtMs),
  };
}
