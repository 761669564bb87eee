/**
 * The older selector policies (`ACTIVITY_TYPE_CREATE_POLICY` and `_V2`): recorded under their own intent
 * members, stored as their equivalent condition, and deciding activities end to end, one case per
 * `OPERATOR_*`. Every case lets an ordinary member delete users only when the selector matches
 * (`delete_users` exposes `activity.params.user_ids`).
 */
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { organizationWithMembers, refusal } from "../support/consensus.js";

/** The typed engine methods take the current version's parameters; older versions go through as-is. */
function createOlderPolicy(
  engine: CustodyEngine,
  input: {
    organizationId: string;
    type: "ACTIVITY_TYPE_CREATE_POLICY" | "ACTIVITY_TYPE_CREATE_POLICY_V2";
    parameters: unknown;
  },
) {
  return engine.createPolicy(input as Parameters<CustodyEngine["createPolicy"]>[0]);
}

type Victims = Record<"v1" | "v2" | "v3", string>;

interface OperatorCase {
  operator: string;
  selector: (victims: Victims) => { subject: string; target: string } | { subject: string; targets: string[] };
  allowed: (keyof Victims)[];
  denied: (keyof Victims)[];
}

const FIRST = "activity.params.user_ids[0]";
const COUNT = "activity.params.user_ids.count";
const ALL = "activity.params.user_ids";

const CASES: OperatorCase[] = [
  { operator: "OPERATOR_EQUAL", selector: (v) => ({ subject: FIRST, target: v.v1 }), allowed: ["v1"], denied: ["v2"] },
  {
    operator: "OPERATOR_NOT_EQUAL",
    selector: (v) => ({ subject: FIRST, target: v.v1 }),
    allowed: ["v2"],
    denied: ["v1"],
  },
  {
    operator: "OPERATOR_MORE_THAN",
    selector: () => ({ subject: COUNT, target: "1" }),
    allowed: ["v1", "v2"],
    denied: ["v1"],
  },
  {
    operator: "OPERATOR_MORE_THAN_OR_EQUAL",
    selector: () => ({ subject: COUNT, target: "2" }),
    allowed: ["v1", "v2"],
    denied: ["v1"],
  },
  {
    operator: "OPERATOR_LESS_THAN",
    selector: () => ({ subject: COUNT, targets: ["2"] }),
    allowed: ["v1"],
    denied: ["v1", "v2"],
  },
  {
    operator: "OPERATOR_LESS_THAN_OR_EQUAL",
    selector: () => ({ subject: COUNT, targets: ["1"] }),
    allowed: ["v1"],
    denied: ["v1", "v2"],
  },
  {
    operator: "OPERATOR_CONTAINS",
    selector: (v) => ({ subject: ALL, target: v.v1 }),
    allowed: ["v2", "v1"],
    denied: ["v2"],
  },
  {
    operator: "OPERATOR_IN",
    selector: (v) => ({ subject: FIRST, targets: [v.v1, v.v2] }),
    allowed: ["v2"],
    denied: ["v3"],
  },
  {
    operator: "OPERATOR_NOT_IN",
    selector: (v) => ({ subject: FIRST, targets: [v.v1] }),
    allowed: ["v2"],
    denied: ["v1"],
  },
  {
    operator: "OPERATOR_CONTAINS_ONE",
    selector: (v) => ({ subject: ALL, targets: [v.v1, v.v3] }),
    allowed: ["v2", "v3"],
    denied: ["v2"],
  },
  {
    operator: "OPERATOR_CONTAINS_ALL",
    selector: (v) => ({ subject: ALL, targets: [v.v1, v.v2] }),
    allowed: ["v2", "v1"],
    denied: ["v1", "v3"],
  },
];

describe("selector policies", () => {
  it("records V1 and V2 under their own intent members and stores the equivalent condition", async () => {
    const { root, organizationId } = await organizationWithMembers([]);
    const v1 = {
      policyName: "v1",
      effect: "EFFECT_ALLOW" as const,
      selectors: [
        { subject: "activity.type", operator: "OPERATOR_EQUAL" as const, target: "ACTIVITY_TYPE_CREATE_WALLET" },
      ],
    };
    const first = await createOlderPolicy(root, {
      organizationId,
      type: "ACTIVITY_TYPE_CREATE_POLICY",
      parameters: v1,
    });
    expect(first.activity.type).toBe("ACTIVITY_TYPE_CREATE_POLICY");
    expect(first.activity.intent).toEqual({ createPolicyIntent: v1 });
    const v2 = {
      policyName: "v2",
      effect: "EFFECT_DENY" as const,
      notes: "n",
      selectors: [
        { subject: "activity.resource", operator: "OPERATOR_IN" as const, targets: ["WALLET", "PRIVATE_KEY"] },
        { subject: "activity.action", operator: "OPERATOR_NOT_EQUAL" as const, targets: ["SIGN"] },
      ],
    };
    const second = await createOlderPolicy(root, {
      organizationId,
      type: "ACTIVITY_TYPE_CREATE_POLICY_V2",
      parameters: v2,
    });
    expect(second.activity.intent).toEqual({ createPolicyIntentV2: v2 });
    const [p1, p2] = (await root.getPolicies({ organizationId })).policies;
    expect(p1).toMatchObject({ condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", consensus: "", notes: "" });
    expect(p2).toMatchObject({
      effect: "EFFECT_DENY",
      condition: "activity.resource in ['WALLET', 'PRIVATE_KEY'] && activity.action != 'SIGN'",
      notes: "n",
    });
  });

  it("refuses a selector that cannot be a condition, naming it", async () => {
    const { root, organizationId } = await organizationWithMembers([]);
    const error = await refusal(
      createOlderPolicy(root, {
        organizationId,
        type: "ACTIVITY_TYPE_CREATE_POLICY_V2",
        parameters: {
          policyName: "bad",
          effect: "EFFECT_ALLOW",
          selectors: [
            { subject: "activity.type", operator: "OPERATOR_EQUAL", targets: ["A"] },
            { subject: "approvers", operator: "OPERATOR_EQUAL", targets: ["x"] },
          ],
        },
      }),
      "INVALID_ARGUMENT",
      "POLICY_INVALID_SELECTOR",
    );
    expect(error.details.field).toBe("parameters.selectors[1].subject");
    await refusal(
      createOlderPolicy(root, {
        organizationId,
        type: "ACTIVITY_TYPE_CREATE_POLICY",
        parameters: { policyName: "empty", effect: "EFFECT_ALLOW", selectors: [] },
      }),
      "INVALID_ARGUMENT",
      "POLICY_INVALID_SELECTOR",
    );
    expect((await root.getPolicies({ organizationId })).policies).toEqual([]);
  });

  for (const testCase of CASES) {
    it(`decides with ${testCase.operator}`, async () => {
      const { root, organizationId, members } = await organizationWithMembers(["alice", "v1", "v2", "v3"]);
      const victims: Victims = { v1: members.v1.userId, v2: members.v2.userId, v3: members.v3.userId };
      const selector = { ...testCase.selector(victims), operator: testCase.operator };
      const v2 = "targets" in selector;
      const byType = v2 ? { targets: ["ACTIVITY_TYPE_DELETE_USERS"] } : { target: "ACTIVITY_TYPE_DELETE_USERS" };
      await createOlderPolicy(root, {
        organizationId,
        type: v2 ? "ACTIVITY_TYPE_CREATE_POLICY_V2" : "ACTIVITY_TYPE_CREATE_POLICY",
        parameters: {
          policyName: testCase.operator,
          effect: "EFFECT_ALLOW",
          selectors: [{ subject: "activity.type", operator: "OPERATOR_EQUAL", ...byType }, selector],
        },
      });
      const userIds = (names: (keyof Victims)[]) => names.map((name) => victims[name]);
      const denied = await refusal(
        members.alice.as.deleteUsers({ organizationId, parameters: { userIds: userIds(testCase.denied) } }),
        "PERMISSION_DENIED",
      );
      expect(denied.details.decision).toBe("IMPLICIT_DENY");
      const { activity } = await members.alice.as.deleteUsers({
        organizationId,
        parameters: { userIds: userIds(testCase.allowed) },
      });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(activity.result!.deleteUsersResult).toEqual({ userIds: userIds(testCase.allowed) });
    });
  }
});
