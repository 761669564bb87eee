/**
 * Wire shapes of the Activity API (proto3 JSON as grpc-gateway prints it): enums as strings, int64 as
 * decimal strings, timestamps as `{seconds, nanos}`, absent messages as `null`, absent optional scalars left
 * out (as a response the hosted service sent shows: docs/differences.md "Responses"). Names follow the public
 * OpenAPI description (`v1Activity`, `v1User`, ...).
 *
 * @module
 */

import type { RpcStatus } from "../common/errors.js";
import type { ActivityStatus, VoteSelection } from "./records.js";

export type { ActivityStatus, VoteSelection };

/** `externaldatav1Timestamp`. */
export interface Timestamp {
  seconds: string;
  nanos: string;
}

/** `externaldatav1Credential`. */
export interface Credential {
  publicKey: string;
  type: string;
  /** For a log-in key issued under a session profile. */
  sessionProfileId?: string;
}

/** `v1ApiKey`. */
export interface ApiKey {
  credential: Credential;
  apiKeyId: string;
  apiKeyName: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Absent for a key that does not expire. */
  expirationSeconds?: string;
}

/** `v1Authenticator`. */
export interface Authenticator {
  transports: string[];
  attestationType: string;
  aaguid: string;
  credentialId: string;
  model: string;
  credential: Credential;
  authenticatorId: string;
  authenticatorName: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** `v1OauthProvider`. */
export interface OauthProvider {
  providerId: string;
  providerName: string;
  issuer: string;
  audience: string;
  subject: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** `v1AuthenticationMethod`. */
export interface MfaMethod {
  type: string;
  /** Absent when any credential of `type` counts. */
  id?: string;
}

/** `v1MfaPolicy`. */
export interface MfaPolicy {
  mfaPolicyId: string;
  mfaPolicyName: string;
  condition: string;
  requiredAuthenticationMethods: { any: MfaMethod[] }[];
  order: number;
  notes: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** `v1SessionProfile`. */
export interface SessionProfile {
  sessionProfileId: string;
  sessionProfileName: string;
  scope: string;
  /** Absent when the log-in decides how long a session lasts. */
  expirationSeconds?: string;
  notes: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** `v1User`. */
export interface User {
  userId: string;
  userName: string;
  /** Absent when the user has none. */
  userEmail?: string;
  /** Absent when the user has none. */
  userPhoneNumber?: string;
  authenticators: Authenticator[];
  apiKeys: ApiKey[];
  userTags: string[];
  oauthProviders: OauthProvider[];
  createdAt: Timestamp;
  updatedAt: Timestamp;
  mfaPolicies: MfaPolicy[];
}

/** `v1Vote`. */
export interface Vote {
  id: string;
  userId: string;
  user: User;
  activityId: string;
  selection: VoteSelection;
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  createdAt: Timestamp;
}

/** `v1Activity`. */
export interface Activity {
  id: string;
  organizationId: string;
  status: ActivityStatus;
  type: string;
  intent: Record<string, unknown>;
  result: Record<string, unknown> | null;
  votes: Vote[];
  fingerprint: string;
  /** The request's `timestampMs`, as the submission envelope carried it. Not in the swagger's `v1Activity`. */
  timestampMs: string;
  canApprove: boolean;
  canReject: boolean;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  failure: RpcStatus | null;
}

/** `v1ActivityResponse`. */
export interface ActivityResponse {
  activity: Activity;
}

/** `externaldatav1Quorum`. */
export interface Quorum {
  threshold: number;
  userIds: string[];
}

/** `v1Feature`. */
export interface Feature {
  name: string;
  value: string;
}
