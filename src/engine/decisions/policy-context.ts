/**
 * The policy context of an activity (docs/spec/policy-language.md §2): the keyword roots its policies are judged
 * with, built from the operation row, the validated parameters, the votes so far and the store.
 *
 * - `activity`: `type`, `kind` (the version-free name; none for root-quorum-only types), `resource` and
 *   `action` from the row, and `params`: only the parameters that file exposes for the kind, snake_cased.
 * - `approvers`: the users who approved so far and still exist, the submitter first, with their current tag
 *   ids (the caller passes the votes that still count: see `pending.ts`).
 * - `credentials`: the credentials those approvals were stamped with.
 * - the target keywords (`wallet`, `wallet_account`, `private_key`, `eth`, ...) from the row's
 *   `policyTarget`, when it has one. A row whose activity acts with several keys gives one target per key,
 *   and then one context per target, sharing everything else.
 * - `time.now`: the engine clock's reading for this decision.
 *
 * @module
 */
import {
  type ActivityOperation,
  type ActivityVersion,
  isSeveralTargets,
  type PolicyTargetData,
} from "../../contract/operation.js";
import type { EngineServices } from "../../contract/services.js";
import type { DataReader } from "../../model/data.js";
import type { Principal } from "../../model/principal.js";
import type { OrganizationRecord, UserRecord, VoteRecord } from "../../model/records.js";
import { markImmutable } from "../../policy/immutable-inputs.js";
import { ROOT_QUORUM_ONLY_ACTIVITY_TYPES } from "../../policy/index.js";
import type { PolicyActivity, PolicyContext, PolicyCredential, PolicyData, PolicyUser } from "../../policy/types.js";

/**
 * The parameters `activity.params` exposes, per activity kind (docs/spec/policy-language.md §2 "activity.params").
 * Every other parameter is a missing field to a policy. The credential kinds past the API keys are custodian's
 * addition: they expose `user_id` too, so the implicit permission to manage one's own credentials covers
 * passkeys and OAuth providers as well as API keys.
 */
const EXPOSED_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  SIGN_RAW_PAYLOAD: ["hash_function", "encoding"],
  SIGN_RAW_PAYLOADS: ["hash_function", "encoding"],
  SIGN_TRANSACTION: ["type"],
  DELETE_USERS: ["user_ids"],
  CREATE_API_KEYS: ["user_id"],
  DELETE_API_KEYS: ["user_id", "api_key_ids"],
  CREATE_AUTHENTICATORS: ["user_id"],
  RECOVER_USER: ["user_id"],
  DELETE_AUTHENTICATORS: ["user_id"],
  CREATE_OAUTH_PROVIDERS: ["user_id"],
  DELETE_OAUTH_PROVIDERS: ["user_id"],
  // Custodian's addition: whom a session is minted for, so a policy can allow one for another user.
  CREATE_READ_WRITE_SESSION: ["user_id"],
  EXPORT_WALLET: ["target_public_key"],
  EXPORT_WALLET_ACCOUNT: ["target_public_key"],
  EXPORT_PRIVATE_KEY: ["target_public_key"],
  UPDATE_WALLET: ["wallet_id"],
  INIT_OTP_AUTH: ["otp_length"],
  OTP_LOGIN: ["session_profile_id"],
  STAMP_LOGIN: ["session_profile_id"],
  OAUTH_LOGIN: ["session_profile_id"],
  UPDATE_WEBHOOK_ENDPOINT: ["endpoint_id"],
  DELETE_WEBHOOK_ENDPOINT: ["endpoint_id"],
};

// Both names below are asked for on every activity, of a few dozen distinct inputs: each is computed once.
const activityKinds = new Map<string, string>();
const wireNames = new Map<string, string>();
const MAX_NAMES = 1024;

function remembered(cache: Map<string, string>, key: string, compute: (key: string) => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    value = compute(key);
    if (cache.size < MAX_NAMES) cache.set(key, value);
  }
  return value;
}

/** The version-free name of an activity type: `ACTIVITY_TYPE_SIGN_TRANSACTION_V2` → `SIGN_TRANSACTION`. */
export function activityKind(type: string): string {
  return remembered(activityKinds, type, (given) => given.replace(/^ACTIVITY_TYPE_/, "").replace(/_V[0-9]+$/, ""));
}

/** `hash_function` → `hashFunction`: the wire name of an exposed parameter. */
function wireName(policyName: string): string {
  return remembered(wireNames, policyName, (given) =>
    given.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
  );
}

/** The `activity.params` of an activity: its exposed parameters that were given, under their policy names. */
export function exposedParameters(kind: string, parameters: unknown): Record<string, PolicyData> {
  const given = (parameters ?? {}) as Record<string, unknown>;
  const exposed: Record<string, PolicyData> = {};
  for (const name of EXPOSED_PARAMETERS[kind] ?? []) {
    const value = given[wireName(name)];
    // Validated parameters are JSON data, which is what the policy language reads.
    if (value !== undefined) exposed[name] = value as PolicyData;
  }
  return exposed;
}

/** The `activity` keyword. Root-quorum-only activities have no kind, and rows without a policy target no resource. */
export function policyActivity(
  operation: ActivityOperation,
  version: ActivityVersion,
  parameters: unknown,
): PolicyActivity {
  const kind = activityKind(version.type);
  return {
    type: version.type,
    ...(ROOT_QUORUM_ONLY_ACTIVITY_TYPES.includes(version.type) ? {} : { kind }),
    ...(operation.policy === null ? {} : { resource: operation.policy.resource, action: operation.policy.action }),
    params: exposedParameters(kind, parameters),
  };
}

// The approvers and credentials of a context are immutable, one object per stored user (a changed user is a
// new record, so a new object) and per credential, so a consensus can reuse its result for the same members
// (see `markImmutable`).
const policyUsers = new WeakMap<UserRecord, PolicyUser>();
const policyCredentials = new Map<string, PolicyCredential>();
const MAX_POLICY_CREDENTIALS = 4096;

/** A user as the `approvers` keyword shows it: immutable, the same object for the same stored record. */
export function policyUserOf(user: UserRecord): PolicyUser {
  let known = policyUsers.get(user);
  if (known === undefined) {
    known = markImmutable({ id: user.id, email: user.userEmail ?? "", alias: user.userName, tags: [...user.tagIds] });
    // Only a record that cannot change may keep its view: a store that hands out mutable objects gets a new one.
    if (Object.isFrozen(user) && Object.isFrozen(user.tagIds)) policyUsers.set(user, known);
  }
  return known;
}

/**
 * The credential a vote was stamped with, as the `credentials` keyword shows it: immutable, the same object
 * for the same credential (a bounded table; when full it starts over).
 */
export function policyCredentialOf(vote: Pick<VoteRecord, "userId" | "publicKey" | "credential">): PolicyCredential {
  const { credential } = vote;
  const passkey = credential.kind === "authenticator";
  const id = credential.id ?? "";
  // Ids, types and keys hold no NUL, so joining them with one is an unambiguous key.
  const key = `${id}\u0000${vote.userId}\u0000${credential.type}\u0000${passkey}\u0000${vote.publicKey}`;
  let known = policyCredentials.get(key);
  if (known === undefined) {
    known = markImmutable({
      id,
      user_id: vote.userId,
      type: credential.type,
      // A passkey stamp names its credential id where an API key stamp names its public key.
      ...(passkey ? { credential_id: vote.publicKey, public_key: "" } : { public_key: vote.publicKey }),
    });
    if (policyCredentials.size >= MAX_POLICY_CREDENTIALS) policyCredentials.clear();
    policyCredentials.set(key, known);
  }
  return known;
}

/** What {@link buildPolicyContexts} reads. */
export interface PolicyContextInput {
  readonly data: DataReader;
  /**
   * The engine's services, for a `policyTarget` that must read a chain (the sends fill nonce and fees).
   * Absent when a read (rendering whether a voter could still count) re-judges a pending activity.
   */
  readonly services?: EngineServices;
  readonly organization: OrganizationRecord;
  readonly operation: ActivityOperation;
  readonly version: ActivityVersion;
  /** The validated parameters. */
  readonly parameters: unknown;
  /** The votes that count, the submitter's first; only approvals of existing users make approvers. */
  readonly votes: readonly VoteRecord[];
  /** The submitter, for the row's `policyTarget`. */
  readonly submitter: Principal;
  /** The engine clock's reading for this decision (ms). */
  readonly now: number;
}

/** The contexts of an activity that acts with several keys: one per key, never empty. */
export type SeveralPolicyContexts = readonly [PolicyContext, ...PolicyContext[]];

/** Whether {@link buildPolicyContexts} built one context per key. */
export function isSeveralContexts(contexts: PolicyContext | SeveralPolicyContexts): contexts is SeveralPolicyContexts {
  return Array.isArray(contexts);
}

/**
 * Builds the keyword roots an activity's policies are judged with: one context, or one per target when the
 * row's `policyTarget` gives several (each with the same `activity`, `approvers`, `credentials` and `time`).
 */
export async function buildPolicyContexts(input: PolicyContextInput): Promise<PolicyContext | SeveralPolicyContexts> {
  const { data, organization, operation, version, parameters } = input;
  const approvers: PolicyUser[] = [];
  const credentials: PolicyCredential[] = [];
  for (const vote of input.votes) {
    if (vote.selection !== "VOTE_SELECTION_APPROVED") continue;
    const user = await data.get("users", vote.userId);
    // The approval of a user deleted since counts no more: neither as an approver nor by its credential.
    if (!user) continue;
    approvers.push(policyUserOf(user));
    credentials.push(policyCredentialOf(vote));
  }
  const target = operation.policyTarget
    ? await operation.policyTarget(
        {
          data,
          organization,
          principal: input.submitter,
          ...(input.services ? { services: input.services } : {}),
        },
        parameters,
        version,
      )
    : {};
  const roots: SharedRoots = {
    activity: policyActivity(operation, version, parameters),
    approvers,
    credentials,
    time: { now: new Date(input.now) },
  };
  if (isSeveralTargets(target)) {
    const [first, ...others] = target;
    return [contextWith(first, roots), ...others.map((each) => contextWith(each, roots))];
  }
  return contextWith(target, roots);
}

/** The keyword roots every context of an activity shares. */
type SharedRoots = Pick<PolicyContext, "activity" | "approvers" | "credentials" | "time">;

/**
 * A target's keywords and the shared roots, as one context. Copied with `Object.assign` rather than spread:
 * this one line meets every row's target shape, which makes a spread's inline cache megamorphic, and its
 * generic path would cost more than the rest of the context. Targets are
 * the rows' own objects, with keyword names only (never `__proto__`), so assigning equals defining.
 */
function contextWith(target: PolicyTargetData, roots: SharedRoots): PolicyContext {
  const context = Object.assign({}, target) as PolicyContext;
  context.activity = roots.activity;
  context.approvers = roots.approvers;
  context.credentials = roots.credentials;
  context.time = roots.time;
  return context;
}
