/**
 * Policy CRUD: create (V3 and batch), update (V2 and V1), delete, the queries, validation at write time and
 * the per-organization limit.
 */
import { describe, expect, it } from "vitest";
import { addPolicy, refusal } from "../support/consensus.js";
import { engineWithOrganization } from "../support/engine.js";

const base = { policyName: "p", effect: "EFFECT_ALLOW" as const, notes: "" };

describe("create_policy", () => {
  it("stores a V3 policy and shows it in get_policy, list_policies and get_organization", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const parameters = {
      policyName: "Signers need two",
      effect: "EFFECT_ALLOW" as const,
      condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'",
      consensus: "approvers.count() >= 2",
      notes: "why",
      time: "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')",
    };
    const { activity } = await root.createPolicy({ organizationId, parameters });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.intent).toEqual({ createPolicyIntentV3: parameters });
    const { policyId } = activity.result!.createPolicyResult as { policyId: string };

    const { policy } = await root.getPolicy({ organizationId, policyId });
    expect(policy).toEqual({
      policyId,
      policyName: "Signers need two",
      effect: "EFFECT_ALLOW",
      createdAt: activity.createdAt,
      updatedAt: activity.createdAt,
      notes: "why",
      consensus: "approvers.count() >= 2",
      condition: parameters.condition,
      time: parameters.time,
    });
    expect((await root.getPolicies({ organizationId })).policies).toEqual([policy]);
    expect((await root.getOrganization({ organizationId })).organizationData.policies).toEqual([policy]);
  });

  it("prints an absent condition or consensus as an empty string and leaves out an absent time", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const policyId = await addPolicy(root, organizationId, { ...base, consensus: "approvers.count() >= 1" });
    const { policy } = await root.getPolicy({ organizationId, policyId });
    expect(policy.condition).toBe("");
    expect(policy).not.toHaveProperty("time");
  });

  it("refuses a syntax error with the field and position, and stores nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const error = await refusal(
      root.createPolicy({ organizationId, parameters: { ...base, condition: "activity.type == " } }),
      "INVALID_ARGUMENT",
    );
    expect(error.details.field).toBe("parameters.condition");
    expect(error.details.position).toBe(17);
    expect(error.message).toMatch(/^condition:/);
    expect((await root.getPolicies({ organizationId })).policies).toEqual([]);
    const { activity } = await root.getActivity({ organizationId, activityId: error.details.activityId as string });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
  });

  it("refuses keywords outside their field, and a policy with neither condition nor consensus", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const misplaced = await refusal(
      root.createPolicy({ organizationId, parameters: { ...base, condition: "approvers.count() >= 2" } }),
      "INVALID_ARGUMENT",
    );
    expect(misplaced.details).toMatchObject({ field: "parameters.condition", position: 0 });
    const empty = await refusal(
      root.createPolicy({ organizationId, parameters: { ...base, condition: "  ", time: "true" } }),
      "INVALID_ARGUMENT",
    );
    expect(empty.details).toMatchObject({ field: "parameters.condition", reason: "POLICY_EMPTY" });
    await refusal(
      root.createPolicy({
        organizationId,
        parameters: { ...base, effect: "EFFECT_MAYBE" as "EFFECT_DENY", condition: "true" },
      }),
      "INVALID_ARGUMENT",
    );
  });

  it("holds at most 100 policies per organization", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const policies = Array.from({ length: 100 }, (_, i) => ({ ...base, policyName: `p${i}`, condition: "true" }));
    await root.createPolicies({ organizationId, parameters: { policies } });
    const error = await refusal(
      root.createPolicy({ organizationId, parameters: { ...base, condition: "true" } }),
      "RESOURCE_EXHAUSTED",
      "POLICY_LIMIT_EXCEEDED",
    );
    expect(error.details.limit).toBe(100);
    expect((await root.getPolicies({ organizationId })).policies).toHaveLength(100);
  });
});

describe("create_policies", () => {
  it("creates every policy, or none when one is invalid, naming the one at fault", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const good = { ...base, condition: "activity.resource == 'WALLET'" };
    const error = await refusal(
      root.createPolicies({
        organizationId,
        parameters: { policies: [good, { ...base, consensus: "approvers.any(user, user.id == )" }] },
      }),
      "INVALID_ARGUMENT",
    );
    expect(error.details.field).toBe("parameters.policies[1].consensus");
    expect(typeof error.details.position).toBe("number");
    expect((await root.getPolicies({ organizationId })).policies).toEqual([]);

    const { activity } = await root.createPolicies({
      organizationId,
      parameters: { policies: [good, { ...good, policyName: "second", effect: "EFFECT_DENY" }] },
    });
    const { policyIds } = activity.result!.createPoliciesResult as { policyIds: string[] };
    expect(policyIds).toHaveLength(2);
    const listed = (await root.getPolicies({ organizationId })).policies;
    expect(listed.map((p) => [p.policyId, p.effect])).toEqual([
      [policyIds[0], "EFFECT_ALLOW"],
      [policyIds[1], "EFFECT_DENY"],
    ]);
  });
});

describe("update_policy", () => {
  it("replaces the fields given, keeps the others, and removes an expression given as blank", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const policyId = await addPolicy(root, organizationId, {
      ...base,
      condition: "activity.resource == 'WALLET'",
      consensus: "approvers.count() >= 2",
      time: "true",
    });
    const { activity } = await root.updatePolicy({
      organizationId,
      parameters: { policyId, policyEffect: "EFFECT_DENY", policyConsensus: "", policyNotes: "frozen" },
    });
    expect(activity.type).toBe("ACTIVITY_TYPE_UPDATE_POLICY_V2");
    expect(activity.result).toEqual({ updatePolicyResultV2: { policyId } });
    const { policy } = await root.getPolicy({ organizationId, policyId });
    expect(policy).toMatchObject({
      policyName: "p",
      effect: "EFFECT_DENY",
      condition: "activity.resource == 'WALLET'",
      consensus: "",
      notes: "frozen",
      time: "true",
    });
    expect(policy.updatedAt).toEqual(activity.createdAt);

    const older = await root.updatePolicy({
      organizationId,
      type: "ACTIVITY_TYPE_UPDATE_POLICY",
      parameters: { policyId, policyName: "renamed" },
    });
    expect(Object.keys(older.activity.intent)).toEqual(["updatePolicyIntent"]);
    expect(older.activity.result).toEqual({ updatePolicyResult: { policyId } });
    expect((await root.getPolicy({ organizationId, policyId })).policy.policyName).toBe("renamed");
  });

  it("refuses an update that breaks the policy, and an unknown policy", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const policyId = await addPolicy(root, organizationId, { ...base, condition: "true" });
    const syntax = await refusal(
      root.updatePolicy({ organizationId, parameters: { policyId, time: "CronSpan(" } }),
      "INVALID_ARGUMENT",
    );
    expect(syntax.details.field).toBe("parameters.time");
    const emptied = await refusal(
      root.updatePolicy({ organizationId, parameters: { policyId, policyCondition: "" } }),
      "INVALID_ARGUMENT",
      "POLICY_EMPTY",
    );
    expect(emptied.details.field).toBe("parameters.policyCondition");
    expect((await root.getPolicy({ organizationId, policyId })).policy.condition).toBe("true");
    const unknown = await refusal(
      root.updatePolicy({ organizationId, parameters: { policyId: "nope", policyName: "x" } }),
      "NOT_FOUND",
    );
    expect(unknown.details.field).toBe("parameters.policyId");
  });
});

describe("delete_policy and delete_policies", () => {
  it("deletes policies of the organization only, refusing unknown and repeated ids", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const ids = [];
    for (const name of ["a", "b", "c"])
      ids.push(await addPolicy(root, organizationId, { ...base, policyName: name, condition: "true" }));
    const single = await root.deletePolicy({ organizationId, parameters: { policyId: ids[0]! } });
    expect(single.activity.result).toEqual({ deletePolicyResult: { policyId: ids[0] } });
    const missing = await refusal(
      root.deletePolicies({ organizationId, parameters: { policyIds: [ids[1]!, ids[0]!] } }),
      "NOT_FOUND",
    );
    expect(missing.details.field).toBe("parameters.policyIds[1]");
    const repeated = await refusal(
      root.deletePolicies({ organizationId, parameters: { policyIds: [ids[1]!, ids[1]!] } }),
      "INVALID_ARGUMENT",
    );
    expect(repeated.details.field).toBe("parameters.policyIds[1]");
    expect((await root.getPolicies({ organizationId })).policies).toHaveLength(2);
    const both = await root.deletePolicies({ organizationId, parameters: { policyIds: [ids[1]!, ids[2]!] } });
    expect(both.activity.result).toEqual({ deletePoliciesResult: { policyIds: [ids[1], ids[2]] } });
    expect((await root.getPolicies({ organizationId })).policies).toEqual([]);
    await refusal(root.getPolicy({ organizationId, policyId: ids[1]! }), "NOT_FOUND");
  });
});

describe("get_policy_evaluations", () => {
  it("lists one record per decision, and refuses an activity of another organization", async () => {
    const { root, organizationId, engine } = await engineWithOrganization();
    const policyId = await addPolicy(root, organizationId, { ...base, condition: "activity.resource == 'POLICY'" });
    const { activity } = await root.createPolicy({ organizationId, parameters: { ...base, condition: "true" } });
    const { policyEvaluations } = await root.getPolicyEvaluations({ organizationId, activityId: activity.id });
    expect(policyEvaluations).toEqual([
      {
        id: expect.any(String),
        activityId: activity.id,
        organizationId,
        voteId: activity.votes[0]!.id,
        policyEvaluations: [{ policyId, outcome: "OUTCOME_ALLOW" }],
        createdAt: activity.createdAt,
      },
    ]);
    const other = await engine.createOrganization({
      organizationName: "Other",
      rootUsers: [{ userName: "o", apiKeys: [] }],
    });
    const outsider = engine.as({ userId: other.rootUserIds[0]! });
    await refusal(
      outsider.getPolicyEvaluations({ organizationId: other.organizationId, activityId: activity.id }),
      "NOT_FOUND",
    );
  });
});
