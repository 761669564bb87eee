/**
 * MFA policies: the authentication types the API description lists, the bounds on a user's policies, which
 * policy an activity matches, what a stamp proves, and when the steps of a policy are all proven.
 *
 * @module
 */
import { isCustodyError } from "../common/errors.js";
import type { DataReader } from "../model/data.js";
import type { Principal } from "../model/principal.js";
import type { MfaMethodRecord, MfaStatusRecord } from "../model/records.js";
import { inMfaOrder } from "../model/render.js";
import { evaluateExpression } from "../policy/evaluate-policy.js";
import type { PolicyContext } from "../policy/types.js";
import { DEFAULT_SESSION_PROFILE_ID } from "./session-profiles.js";

/** `v1AuthenticationType`, in the description's order. */
export const AUTHENTICATION_TYPES = [
  "AUTHENTICATION_TYPE_EMAIL_OTP",
  "AUTHENTICATION_TYPE_SMS_OTP",
  "AUTHENTICATION_TYPE_PASSKEY",
  "AUTHENTICATION_TYPE_API_KEY",
  "AUTHENTICATION_TYPE_OAUTH",
  "AUTHENTICATION_TYPE_SESSION",
] as const;

export type AuthenticationType = (typeof AUTHENTICATION_TYPES)[number];

/**
 * Bounds on MFA policies (custodian's own; the hosted service publishes none): every activity a user submits
 * evaluates that user's conditions, so their number is bounded, and so is each policy's list of steps.
 */
export const MFA_LIMITS = {
  policiesPerUser: 20,
  stepsPerPolicy: 10,
  methodsPerStep: 10,
} as const;

/** One method proven or required: a type, and optionally the one credential of it. */
export type MfaMethod = MfaMethodRecord;

/**
 * The first of `userId`'s MFA policies, in evaluation order, whose condition holds in `context`, as a fresh
 * status with nothing proven; undefined when none does. A condition that cannot be evaluated for this
 * activity (it reads a keyword the activity does not fill) does not apply, as an errored policy neither
 * allows nor denies.
 */
export async function matchingMfaPolicy(
  data: DataReader,
  userId: string,
  context: PolicyContext,
): Promise<MfaStatusRecord | undefined> {
  for (const policy of inMfaOrder(await data.listAll("mfaPolicies", userId))) {
    let holds: boolean;
    try {
      holds = evaluateExpression(policy.condition, context);
    } catch (error) {
      if (isCustodyError(error)) continue;
      throw error;
    }
    if (holds) {
      return {
        userId,
        mfaPolicyId: policy.id,
        requiredMethods: policy.requiredAuthenticationMethods.map((step) => ({ any: step.any.map((m) => ({ ...m })) })),
        satisfiedMethods: [],
      };
    }
  }
  return undefined;
}

/** Key types a login or recovery activity issues: stamping with one proves a session, not an API key. */
const SESSION_CREDENTIAL_TYPES = new Set([
  "CREDENTIAL_TYPE_LOGIN",
  "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256",
  "CREDENTIAL_TYPE_OAUTH_KEY_P256",
  "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256",
  "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256",
  "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256",
]);

/**
 * The authentication method a request's stamp proves (Turnkey docs, "Satisfying MFA"): an API key, a
 * session key (sessions are not transitive: a session made with a passkey proves a session), a passkey, or
 * an attested stamp's OTP or OIDC identity. A session proves the id of the session profile it was issued
 * under, or {@link DEFAULT_SESSION_PROFILE_ID} for a default read-write session. An in-process call proves none.
 */
export async function provenMethod(data: DataReader, principal: Principal): Promise<MfaMethod | undefined> {
  const { credential } = principal;
  switch (credential.kind) {
    case "apiKey": {
      if (credential.id === null) return undefined;
      const key = await data.get("apiKeys", credential.id);
      if (key === undefined) return undefined;
      return SESSION_CREDENTIAL_TYPES.has(key.credentialType)
        ? { type: "AUTHENTICATION_TYPE_SESSION", id: key.sessionProfileId ?? DEFAULT_SESSION_PROFILE_ID }
        : { type: "AUTHENTICATION_TYPE_API_KEY", id: key.id };
    }
    case "authenticator":
      return credential.id === null ? undefined : { type: "AUTHENTICATION_TYPE_PASSKEY", id: credential.id };
    case "attested": {
      if (credential.verification !== undefined) {
        return credential.verification.verification_type === "OTP_TYPE_SMS"
          ? { type: "AUTHENTICATION_TYPE_SMS_OTP" }
          : { type: "AUTHENTICATION_TYPE_EMAIL_OTP" };
      }
      return { type: "AUTHENTICATION_TYPE_OAUTH" };
    }
    default:
      return undefined;
  }
}

function meets(proven: MfaMethod, required: MfaMethod): boolean {
  return proven.type === required.type && (required.id === undefined || required.id === proven.id);
}

/**
 * Which proven method covers each step (its index, or undefined) when each method counts for one step only (a
 * bipartite matching: at most {@link MFA_LIMITS.stepsPerPolicy} steps, so the search stays small).
 */
function stepHolders(
  status: Pick<MfaStatusRecord, "requiredMethods">,
  proven: readonly MfaMethod[],
): (number | undefined)[] {
  const stepOfMethod: (number | undefined)[] = proven.map(() => undefined);
  const methodOfStep: (number | undefined)[] = status.requiredMethods.map(() => undefined);
  const assign = (step: number, seen: Set<number>): boolean => {
    for (const [m, method] of proven.entries()) {
      if (seen.has(m) || !status.requiredMethods[step]?.any.some((required) => meets(method, required))) continue;
      seen.add(m);
      const holder = stepOfMethod[m];
      if (holder === undefined || assign(holder, seen)) {
        stepOfMethod[m] = step;
        methodOfStep[step] = m;
        return true;
      }
    }
    return false;
  };
  for (const step of status.requiredMethods.keys()) assign(step, new Set());
  return methodOfStep;
}

function coveredSteps(status: Pick<MfaStatusRecord, "requiredMethods">, proven: readonly MfaMethod[]): number {
  return stepHolders(status, proven).filter((method) => method !== undefined).length;
}

/** The indexes of the steps of `status` that its proven methods do not cover yet, in the policy's order. */
export function openMfaSteps(status: Pick<MfaStatusRecord, "requiredMethods" | "satisfiedMethods">): number[] {
  const holders = stepHolders(status, status.satisfiedMethods);
  return [...status.requiredMethods.keys()].filter((step) => holders[step] === undefined);
}

/** Whether every step of `status` is proven. */
export function mfaSatisfied(status: MfaStatusRecord): boolean {
  return coveredSteps(status, status.satisfiedMethods) === status.requiredMethods.length;
}

/**
 * `status` with `method` proven, or undefined when it covers no step still open: a credential already
 * proven (one key stamping twice proves one factor, not two), or a method no remaining step accepts.
 */
export function proveMfaMethod(status: MfaStatusRecord, method: MfaMethod | undefined): MfaStatusRecord | undefined {
  if (method === undefined) return undefined;
  if (status.satisfiedMethods.some((m) => m.type === method.type && m.id === method.id)) return undefined;
  const before = coveredSteps(status, status.satisfiedMethods);
  const satisfiedMethods = [...status.satisfiedMethods, { ...method }];
  if (coveredSteps(status, satisfiedMethods) === before) return undefined;
  return { ...status, satisfiedMethods };
}

/** `v1MfaStatus`. */
export function renderMfaStatus(status: MfaStatusRecord) {
  return {
    mfaPolicyId: status.mfaPolicyId,
    userId: status.userId,
    satisfied: mfaSatisfied(status),
    satisfiedMethods: status.satisfiedMethods.map((method) => ({ ...method })),
    requiredMethods: status.requiredMethods.map((step) => ({ any: step.any.map((method) => ({ ...method })) })),
  };
}
