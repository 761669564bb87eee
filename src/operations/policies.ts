/**
 * Policies: `create_policy` (V3, and the older selector forms `ACTIVITY_TYPE_CREATE_POLICY` and `_V2`),
 * `create_policies`, `update_policy` (V2, and V1 without `time`), `delete_policy`, `delete_policies`, and
 * the queries `get_policy`, `list_policies`, `get_policy_evaluations`.
 *
 * Expressions are checked when a policy is written, so a syntax error is refused with its field and
 * position instead of making the policy fail at every evaluation. Selector policies are stored as their
 * equivalent condition (`conditionFromSelectors`) and evaluated like any other.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import type { DataReader } from "../model/data.js";
import type { PolicyEvaluationRecord, PolicyRecord } from "../model/records.js";
import { timestamp } from "../model/render.js";
import {
  conditionFromSelectors,
  MAX_EXPRESSION_LENGTH,
  SELECTOR_OPERATORS,
  validatePolicyExpressions,
} from "../policy/index.js";
import type { PolicyExpressions } from "../policy/validate.js";

/** Policies per organization (docs/spec/wire-protocol.md §7, resource limits). */
export const MAX_POLICIES_PER_ORGANIZATION = 100;

const EFFECTS = ["EFFECT_ALLOW", "EFFECT_DENY"] as const;

const expression = v.pipe(
  v.string(),
  v.maxLength(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`),
);
const notes = v.pipe(v.string(), v.maxLength(16_384, "must be at most 16384 characters"));
const selectorText = v.pipe(v.string(), v.maxLength(1024, "must be at most 1024 characters"));

/** `v1CreatePolicyIntentV3`, also each item of `create_policies`. */
const policyParamsV3 = v.object({
  policyName: name,
  effect: v.picklist(EFFECTS),
  condition: v.optional(expression),
  consensus: v.optional(expression),
  // Optional, as the hosted service's reference states; absent means empty.
  notes: v.optional(notes),
  time: v.optional(expression),
});

/** `v1CreatePolicyIntentV2`: selectors `{subject, operator, targets}`. */
const policyParamsV2 = v.object({
  policyName: name,
  selectors: list(
    v.object({ subject: selectorText, operator: v.picklist(SELECTOR_OPERATORS), targets: list(selectorText, 100) }),
    100,
  ),
  effect: v.picklist(EFFECTS),
  notes: v.optional(notes),
});

/** `v1CreatePolicyIntent`: selectors `{subject, operator, target}`. */
const policyParamsV1 = v.object({
  policyName: name,
  selectors: list(
    v.object({ subject: selectorText, operator: v.picklist(SELECTOR_OPERATORS), target: selectorText }),
    100,
  ),
  effect: v.picklist(EFFECTS),
  notes: v.optional(notes),
});

type PolicyFields = Pick<PolicyRecord, "policyName" | "effect" | "condition" | "consensus" | "time" | "notes">;

/** A blank expression means "none", stored as null. */
function expressionOrNull(source: string | null | undefined): string | null {
  return source == null || source.trim() === "" ? null : source;
}

/** Validates a V3 policy; `prefix` is the request path of its parameters (`parameters.policies[0].`). */
function fromV3(params: v.InferOutput<typeof policyParamsV3>, prefix: string): PolicyFields {
  const expressions: PolicyExpressions = {
    condition: params.condition,
    consensus: params.consensus,
    time: params.time,
  };
  validatePolicyExpressions(expressions, {
    fields: { condition: `${prefix}condition`, consensus: `${prefix}consensus`, time: `${prefix}time` },
  });
  return {
    policyName: params.policyName,
    effect: params.effect,
    condition: expressionOrNull(params.condition),
    consensus: expressionOrNull(params.consensus),
    time: expressionOrNull(params.time),
    notes: params.notes ?? "",
  };
}

/** Translates a selector policy into its condition (which `conditionFromSelectors` checks, naming the selector at fault). */
function fromSelectors(
  params: v.InferOutput<typeof policyParamsV1> | v.InferOutput<typeof policyParamsV2>,
): PolicyFields {
  const condition = conditionFromSelectors(params.selectors, "parameters.selectors");
  return {
    policyName: params.policyName,
    effect: params.effect,
    condition,
    consensus: null,
    time: null,
    notes: params.notes ?? "",
  };
}

/** Refuses writes that would take the organization past {@link MAX_POLICIES_PER_ORGANIZATION}. */
async function assertRoomFor(context: ActivityContext, count: number, field: string): Promise<void> {
  const existing = (await context.data.listAll("policies", context.organization.id)).length;
  if (existing + count > MAX_POLICIES_PER_ORGANIZATION) {
    throw new CustodyError(
      "RESOURCE_EXHAUSTED",
      `an organization holds at most ${MAX_POLICIES_PER_ORGANIZATION} policies; it has ${existing}`,
      { field, reason: "POLICY_LIMIT_EXCEEDED", limit: MAX_POLICIES_PER_ORGANIZATION },
    );
  }
}

async function storePolicy(context: ActivityContext, fields: PolicyFields): Promise<string> {
  const record: PolicyRecord = {
    id: context.newId(),
    organizationId: context.organization.id,
    ...fields,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("policies", record);
  return record.id;
}

/** A policy of the organization, or NOT_FOUND naming `field`. */
async function requirePolicy(data: DataReader, organizationId: string, policyId: string, field: string) {
  return data.requireInOrganization("policies", policyId, organizationId, "policy", field);
}

/** `v1Policy`. An absent condition or consensus prints as `""`; `time` only when the policy has one. */
export function renderPolicy(policy: PolicyRecord) {
  return {
    policyId: policy.id,
    policyName: policy.policyName,
    effect: policy.effect,
    createdAt: timestamp(policy.createdAtMs),
    updatedAt: timestamp(policy.updatedAtMs),
    notes: policy.notes,
    consensus: policy.consensus ?? "",
    condition: policy.condition ?? "",
    ...(policy.time === null ? {} : { time: policy.time }),
  };
}

export const createPolicy = defineActivity({
  method: "createPolicy",
  path: "create_policy",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_POLICY_V3",
      intent: "createPolicyIntentV3",
      result: "createPolicyResult",
      parameters: policyParamsV3,
    },
    {
      type: "ACTIVITY_TYPE_CREATE_POLICY_V2",
      intent: "createPolicyIntentV2",
      result: "createPolicyResult",
      parameters: policyParamsV2,
    },
    {
      type: "ACTIVITY_TYPE_CREATE_POLICY",
      intent: "createPolicyIntent",
      result: "createPolicyResult",
      parameters: policyParamsV1,
    },
  ],
  policy: { resource: "POLICY", action: "CREATE" },
  async handler(context, params) {
    const fields = "selectors" in params ? fromSelectors(params) : fromV3(params, "parameters.");
    await assertRoomFor(context, 1, "parameters");
    return { policyId: await storePolicy(context, fields) };
  },
});

export const createPolicies = defineActivity({
  method: "createPolicies",
  path: "create_policies",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_POLICIES",
      intent: "createPoliciesIntent",
      result: "createPoliciesResult",
      parameters: v.object({
        policies: v.pipe(
          list(policyParamsV3, MAX_POLICIES_PER_ORGANIZATION),
          v.minLength(1, "needs at least one policy"),
        ),
      }),
    },
  ],
  policy: { resource: "POLICY", action: "CREATE" },
  async handler(context, params) {
    const all = params.policies.map((policy, i) => fromV3(policy, `parameters.policies[${i}].`));
    await assertRoomFor(context, all.length, "parameters.policies");
    const policyIds: string[] = [];
    for (const fields of all) policyIds.push(await storePolicy(context, fields));
    return { policyIds };
  },
});

const updateFields = {
  policyId: id,
  policyName: v.optional(name),
  policyEffect: v.optional(v.picklist(EFFECTS)),
  policyCondition: v.optional(expression),
  policyConsensus: v.optional(expression),
  policyNotes: v.optional(notes),
};

export const updatePolicy = defineActivity({
  method: "updatePolicy",
  path: "update_policy",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_POLICY_V2",
      intent: "updatePolicyIntentV2",
      result: "updatePolicyResultV2",
      parameters: v.object({ ...updateFields, time: v.optional(expression) }),
    },
    {
      type: "ACTIVITY_TYPE_UPDATE_POLICY",
      intent: "updatePolicyIntent",
      result: "updatePolicyResult",
      parameters: v.object(updateFields),
    },
  ],
  policy: { resource: "POLICY", action: "UPDATE" },
  async handler(context, params) {
    const { data, organization } = context;
    const current = await requirePolicy(data, organization.id, params.policyId, "parameters.policyId");
    // A field that is given replaces the stored one (a blank expression removes it); an absent one is kept.
    const pick = (given: string | undefined, stored: string | null) =>
      given === undefined ? stored : expressionOrNull(given);
    const time = "time" in params ? params.time : undefined;
    const updated: PolicyRecord = {
      ...current,
      policyName: params.policyName ?? current.policyName,
      effect: params.policyEffect ?? current.effect,
      condition: pick(params.policyCondition, current.condition),
      consensus: pick(params.policyConsensus, current.consensus),
      time: pick(time, current.time),
      notes: params.policyNotes ?? current.notes,
      updatedAtMs: context.now,
    };
    validatePolicyExpressions(updated, {
      fields: {
        condition: "parameters.policyCondition",
        consensus: "parameters.policyConsensus",
        time: "parameters.time",
      },
    });
    await data.put("policies", updated);
    return { policyId: updated.id };
  },
});

export const deletePolicy = defineActivity({
  method: "deletePolicy",
  path: "delete_policy",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_POLICY",
      intent: "deletePolicyIntent",
      result: "deletePolicyResult",
      parameters: v.object({ policyId: id }),
    },
  ],
  policy: { resource: "POLICY", action: "DELETE" },
  async handler(context, params) {
    await requirePolicy(context.data, context.organization.id, params.policyId, "parameters.policyId");
    await context.data.delete("policies", params.policyId);
    return { policyId: params.policyId };
  },
});

export const deletePolicies = defineActivity({
  method: "deletePolicies",
  path: "delete_policies",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_POLICIES",
      intent: "deletePoliciesIntent",
      result: "deletePoliciesResult",
      parameters: v.object({
        policyIds: v.pipe(list(id, MAX_POLICIES_PER_ORGANIZATION), v.minLength(1, "needs at least one policy id")),
      }),
    },
  ],
  policy: { resource: "POLICY", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    for (const [i, policyId] of params.policyIds.entries()) {
      if (params.policyIds.indexOf(policyId) !== i) {
        throw invalidArgument(`policy ${policyId} is listed twice`, `parameters.policyIds[${i}]`);
      }
      await requirePolicy(data, organization.id, policyId, `parameters.policyIds[${i}]`);
    }
    for (const policyId of params.policyIds) await data.delete("policies", policyId);
    return { policyIds: [...params.policyIds] };
  },
});

export const getPolicy = defineQuery({
  method: "getPolicy",
  path: "get_policy",
  request: v.object({ organizationId: id, policyId: id }),
  async handler(context, request) {
    return {
      policy: renderPolicy(await requirePolicy(context.data, context.organization.id, request.policyId, "policyId")),
    };
  },
});

export const getPolicies = defineQuery({
  method: "getPolicies",
  path: "list_policies",
  request: v.object({ organizationId: id }),
  async handler(context) {
    return { policies: (await context.data.listAll("policies", context.organization.id)).map(renderPolicy) };
  },
});

/** `externalactivityv1PolicyEvaluation`: one per decision, with each policy's outcome. */
function renderEvaluation(record: PolicyEvaluationRecord) {
  return {
    id: record.id,
    activityId: record.activityId,
    organizationId: record.organizationId,
    voteId: record.voteId,
    policyEvaluations: record.evaluations.map((evaluation) => ({
      policyId: evaluation.policyId ?? "",
      outcome: evaluation.outcome,
    })),
    createdAt: timestamp(record.createdAtMs),
  };
}

export const getPolicyEvaluations = defineQuery({
  method: "getPolicyEvaluations",
  path: "get_policy_evaluations",
  request: v.object({ organizationId: id, activityId: id }),
  async handler(context, request) {
    const activity = await context.data.requireInOrganization(
      "activities",
      request.activityId,
      context.organization.id,
      "activity",
      "activityId",
    );
    const records = await context.data.listAll("policyEvaluations", activity.id);
    return { policyEvaluations: records.map(renderEvaluation) };
  },
});
