/**
 * MFA policies: `create_mfa_policy`, `update_mfa_policy`, `delete_mfa_policy`, and the queries
 * `get_mfa_policy`, `get_mfa_policies` and `get_mfa_status`. An MFA policy belongs to one user: when an
 * activity that user submits or approves matches its condition, the listed authentication steps must be
 * proven before the vote counts (enforced by the pipeline: `engine/pipeline/submit.ts` and `voting.ts`).
 *
 * The condition is checked by the policy-language parser when it is written, as a policy's is, so a
 * condition that can only ever fail is refused with its field and position.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, int64String, list, name, withoutNul } from "../contract/schema.js";
import { requireUser } from "../domain/credentials/index.js";
import { AUTHENTICATION_TYPES, MFA_LIMITS, renderMfaStatus } from "../domain/mfa.js";
import type { DataReader } from "../model/data.js";
import type { MfaMethodRecord, MfaPolicyRecord } from "../model/records.js";
import { inMfaOrder, renderMfaPolicy } from "../model/render.js";
import { MAX_EXPRESSION_LENGTH, validatePolicyExpressions } from "../policy/index.js";

const condition = v.pipe(
  v.string(),
  v.maxLength(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`),
);
const notes = v.pipe(v.string(), v.maxLength(16_384, "must be at most 16384 characters"), withoutNul);

/** `v1AuthenticationMethodParams`. */
const method = v.object({ type: v.picklist(AUTHENTICATION_TYPES), id: v.optional(id) });

/** `v1RequiredAuthenticationMethodParams`: one step, satisfied by any one of its methods. */
const step = v.object({
  any: v.pipe(list(method, MFA_LIMITS.methodsPerStep), v.minLength(1, "needs at least one authentication method")),
});

const steps = v.pipe(list(step, MFA_LIMITS.stepsPerPolicy), v.minLength(1, "needs at least one authentication step"));

/**
 * `order`: an integer from 0, as a JSON number (the description's `integer`) or a decimal string; kept as a
 * number, so custodian bounds it by `Number.MAX_SAFE_INTEGER` where the description allows an int64.
 */
const order = v.pipe(int64String, v.transform(Number), v.number(), v.maxValue(Number.MAX_SAFE_INTEGER));

/** Checks the condition with the policy-language parser; `field` is its request path. */
function checkCondition(source: string, field: string): void {
  validatePolicyExpressions({ condition: source }, { fields: { condition: field } });
}

/** Copies the steps into their stored form, leaving out absent ids. */
function storedSteps(given: v.InferOutput<typeof steps>): { any: MfaMethodRecord[] }[] {
  return given.map((s) => ({
    any: s.any.map((m) => (m.id === undefined ? { type: m.type } : { type: m.type, id: m.id })),
  }));
}

/** An MFA policy of `userId` in the organization, or NOT_FOUND naming `field`. */
async function requireMfaPolicy(
  data: DataReader,
  organizationId: string,
  userId: string,
  mfaPolicyId: string,
  field: string,
): Promise<MfaPolicyRecord> {
  const policy = await data.get("mfaPolicies", mfaPolicyId);
  if (policy === undefined || policy.organizationId !== organizationId || policy.userId !== userId) {
    throw new CustodyError("NOT_FOUND", `no MFA policy ${mfaPolicyId} for user ${userId}`, { field });
  }
  return policy;
}

/** Refuses a policy past {@link MFA_LIMITS.policiesPerUser}. */
async function assertRoomFor(context: ActivityContext, userId: string): Promise<void> {
  const existing = (await context.data.listAll("mfaPolicies", userId)).length;
  if (existing >= MFA_LIMITS.policiesPerUser) {
    throw new CustodyError(
      "RESOURCE_EXHAUSTED",
      `a user holds at most ${MFA_LIMITS.policiesPerUser} MFA policies; this one has ${existing}`,
      { field: "parameters.userId", reason: "MFA_POLICY_LIMIT_EXCEEDED", limit: MFA_LIMITS.policiesPerUser },
    );
  }
}

export const createMfaPolicy = defineActivity({
  method: "createMfaPolicy",
  path: "create_mfa_policy",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_MFA_POLICY",
      intent: "createMfaPolicyIntent",
      result: "createMfaPolicyResult",
      parameters: v.object({
        userId: id,
        mfaPolicyName: name,
        condition,
        requiredAuthenticationMethods: steps,
        order,
        notes: v.optional(notes),
      }),
    },
  ],
  policy: { resource: "MFA_POLICY", action: "CREATE" },
  async handler(context, params) {
    const user = await requireUser(context.data, context.organization.id, params.userId, "parameters.userId");
    checkCondition(params.condition, "parameters.condition");
    await assertRoomFor(context, user.id);
    const record: MfaPolicyRecord = {
      id: context.newId(),
      organizationId: context.organization.id,
      userId: user.id,
      mfaPolicyName: params.mfaPolicyName,
      condition: params.condition,
      requiredAuthenticationMethods: storedSteps(params.requiredAuthenticationMethods),
      order: params.order,
      notes: params.notes ?? "",
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await context.data.put("mfaPolicies", record);
    return { mfaPolicyId: record.id };
  },
});

export const updateMfaPolicy = defineActivity({
  method: "updateMfaPolicy",
  path: "update_mfa_policy",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_MFA_POLICY",
      intent: "updateMfaPolicyIntent",
      result: "updateMfaPolicyResult",
      parameters: v.object({
        userId: id,
        mfaPolicyId: id,
        mfaPolicyName: v.optional(name),
        condition: v.optional(condition),
        requiredAuthenticationMethods: v.optional(steps),
        order: v.optional(order),
        notes: v.optional(notes),
      }),
    },
  ],
  policy: { resource: "MFA_POLICY", action: "UPDATE" },
  async handler(context, params) {
    const { data, organization } = context;
    await requireUser(data, organization.id, params.userId, "parameters.userId");
    const current = await requireMfaPolicy(
      data,
      organization.id,
      params.userId,
      params.mfaPolicyId,
      "parameters.mfaPolicyId",
    );
    if (params.condition !== undefined) checkCondition(params.condition, "parameters.condition");
    // A member that is given replaces the stored one; an absent one is kept.
    const updated: MfaPolicyRecord = {
      ...current,
      mfaPolicyName: params.mfaPolicyName ?? current.mfaPolicyName,
      condition: params.condition ?? current.condition,
      requiredAuthenticationMethods:
        params.requiredAuthenticationMethods === undefined
          ? current.requiredAuthenticationMethods
          : storedSteps(params.requiredAuthenticationMethods),
      order: params.order ?? current.order,
      notes: params.notes ?? current.notes,
      updatedAtMs: context.now,
    };
    await data.put("mfaPolicies", updated);
    return { mfaPolicyId: updated.id };
  },
});

export const deleteMfaPolicy = defineActivity({
  method: "deleteMfaPolicy",
  path: "delete_mfa_policy",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_MFA_POLICY",
      intent: "deleteMfaPolicyIntent",
      result: "deleteMfaPolicyResult",
      parameters: v.object({ userId: id, mfaPolicyId: id }),
    },
  ],
  policy: { resource: "MFA_POLICY", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    await requireUser(data, organization.id, params.userId, "parameters.userId");
    await requireMfaPolicy(data, organization.id, params.userId, params.mfaPolicyId, "parameters.mfaPolicyId");
    await data.delete("mfaPolicies", params.mfaPolicyId);
    return { mfaPolicyId: params.mfaPolicyId };
  },
});

export const getMfaPolicy = defineQuery({
  method: "getMfaPolicy",
  path: "get_mfa_policy",
  request: v.object({ organizationId: id, userId: id, mfaPolicyId: id }),
  async handler(context, request) {
    await requireUser(context.data, context.organization.id, request.userId, "userId");
    const policy = await requireMfaPolicy(
      context.data,
      context.organization.id,
      request.userId,
      request.mfaPolicyId,
      "mfaPolicyId",
    );
    return { mfaPolicy: renderMfaPolicy(policy) };
  },
});

export const getMfaPolicies = defineQuery({
  method: "getMfaPolicies",
  path: "get_mfa_policies",
  request: v.object({ organizationId: id, userId: id }),
  async handler(context, request) {
    const user = await requireUser(context.data, context.organization.id, request.userId, "userId");
    const policies = await context.data.listAll("mfaPolicies", user.id);
    return { mfaPolicies: inMfaOrder(policies).map(renderMfaPolicy) };
  },
});

export const getMfaStatus = defineQuery({
  method: "getMfaStatus",
  path: "get_mfa_status",
  request: v.object({ organizationId: id, activityId: id, userId: v.optional(id) }),
  async handler(context, request) {
    const activity = await context.data.requireInOrganization(
      "activities",
      request.activityId,
      context.organization.id,
      "activity",
      "activityId",
    );
    const statuses = [...(activity.mfa === undefined ? [] : [activity.mfa]), ...(activity.approverMfa ?? [])];
    return {
      mfaStatuses: statuses
        .filter((status) => request.userId === undefined || status.userId === request.userId)
        .map(renderMfaStatus),
    };
  },
});
