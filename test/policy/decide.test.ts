import { describe, expect, it } from "vitest";
import { decide, evaluatePolicy, type Policy, type PolicyContext } from "../../src/policy/index.js";
import { OTHER_USER, ROOT_USER, SUBMITTER, signingContext, TAG } from "./helpers.js";

const rootQuorum = { userIds: [ROOT_USER], threshold: 1 };
const allowSigning: Policy = { policyId: "allow", effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN'" };
const denySigning: Policy = { policyId: "deny", effect: "EFFECT_DENY", condition: "activity.action == 'SIGN'" };
const failing: Policy = { policyId: "broken", effect: "EFFECT_DENY", condition: "private_key.id == 'k'" };

function withApprovers(ids: string[], base: PolicyContext = signingContext()): PolicyContext {
  return { ...base, approvers: ids.map((id) => ({ id, tags: id === SUBMITTER ? [TAG] : [] })) };
}

describe("root quorum", () => {
  it("allows when enough root users approved, whatever the policies say", () => {
    const decision = decide({ policies: [denySigning], rootQuorum, context: withApprovers([ROOT_USER]) });
    expect(decision).toMatchObject({ outcome: "ALLOW", reason: "ROOT_QUORUM" });
    expect(decision.evaluations).toEqual([
      { policyId: "deny", effect: "EFFECT_DENY", outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);
  });

  it("waits for the rest of a partial root quorum when no policy settles it", () => {
    const quorum = { userIds: [ROOT_USER, OTHER_USER], threshold: 2 };
    expect(decide({ policies: [], rootQuorum: quorum, context: withApprovers([ROOT_USER]) })).toMatchObject({
      outcome: "CONSENSUS_NEEDED",
      reason: "ROOT_QUORUM_PENDING",
    });
    expect(decide({ policies: [], rootQuorum: quorum, context: withApprovers([ROOT_USER, OTHER_USER]) }).outcome).toBe(
      "ALLOW",
    );
  });

  it("lets a policy admit one root user of a larger quorum", () => {
    const quorum = { userIds: [ROOT_USER, OTHER_USER], threshold: 2 };
    expect(decide({ policies: [allowSigning], rootQuorum: quorum, context: withApprovers([ROOT_USER]) }).outcome).toBe(
      "ALLOW",
    );
  });

  it("counts each root user once", () => {
    const quorum = { userIds: [ROOT_USER, OTHER_USER, ROOT_USER], threshold: 2 };
    const context = withApprovers([ROOT_USER, ROOT_USER]);
    expect(decide({ policies: [], rootQuorum: quorum, context }).outcome).toBe("CONSENSUS_NEEDED");
  });

  it("never treats a threshold below 1 as met by nobody", () => {
    expect(
      decide({ policies: [], rootQuorum: { userIds: [ROOT_USER], threshold: 0 }, context: withApprovers([SUBMITTER]) }),
    ).toMatchObject({
      outcome: "DENY",
      reason: "IMPLICIT_DENY",
    });
  });

  it("alone can approve root-quorum-only activities", () => {
    const base = signingContext({ activity: { type: "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM", resource: "ORGANIZATION" } });
    const allowAll: Policy = { effect: "EFFECT_ALLOW", condition: "true" };
    expect(decide({ policies: [allowAll], rootQuorum, context: withApprovers([SUBMITTER], base) })).toMatchObject({
      outcome: "DENY",
      reason: "ROOT_QUORUM_REQUIRED",
    });
    const quorum = { userIds: [ROOT_USER, OTHER_USER], threshold: 2 };
    expect(
      decide({ policies: [allowAll], rootQuorum: quorum, context: withApprovers([ROOT_USER], base) }),
    ).toMatchObject({
      outcome: "CONSENSUS_NEEDED",
      reason: "ROOT_QUORUM_PENDING",
    });
    expect(decide({ policies: [], rootQuorum, context: withApprovers([ROOT_USER], base) }).outcome).toBe("ALLOW");
  });
});

describe("deny, allow, consensus, implicit deny", () => {
  const context = withApprovers([SUBMITTER]);

  it("lets an explicit deny win over an allow", () => {
    expect(decide({ policies: [allowSigning, denySigning], rootQuorum, context })).toMatchObject({
      outcome: "DENY",
      reason: "EXPLICIT_DENY",
    });
  });

  it("denies implicitly when nothing applies", () => {
    const other: Policy = { effect: "EFFECT_ALLOW", condition: "activity.action == 'CREATE'" };
    expect(decide({ policies: [other], rootQuorum, context })).toMatchObject({
      outcome: "DENY",
      reason: "IMPLICIT_DENY",
    });
  });

  it("lets a complete allow win over one still waiting for approvals", () => {
    const pending: Policy = {
      effect: "EFFECT_ALLOW",
      condition: "true",
      consensus: `approvers.any(u, u.id == '${SUBMITTER}') && approvers.any(u, u.id == '${OTHER_USER}')`,
    };
    const decision = decide({ policies: [pending, allowSigning], rootQuorum, context });
    expect(decision.outcome).toBe("ALLOW");
    expect(decision.evaluations.map((e) => e.outcome)).toEqual(["OUTCOME_REQUIRES_CONSENSUS", "OUTCOME_ALLOW"]);
  });

  it("waits when a current approver satisfies one clause of a matching allow", () => {
    const pending: Policy = {
      effect: "EFFECT_ALLOW",
      condition: "true",
      consensus: `approvers.any(u, u.id == '${SUBMITTER}') && approvers.any(u, u.id == '${OTHER_USER}')`,
    };
    expect(decide({ policies: [pending], rootQuorum, context })).toMatchObject({
      outcome: "CONSENSUS_NEEDED",
      reason: "CONSENSUS_PENDING",
    });
    expect(decide({ policies: [pending], rootQuorum, context: withApprovers([SUBMITTER, OTHER_USER]) }).outcome).toBe(
      "ALLOW",
    );
  });

  it("denies at once when no current approver could count for the consensus", () => {
    const othersOnly: Policy = {
      effect: "EFFECT_ALLOW",
      condition: "true",
      consensus: `approvers.any(u, u.id == '${OTHER_USER}')`,
    };
    const decision = decide({ policies: [othersOnly], rootQuorum, context });
    expect(decision).toMatchObject({ outcome: "DENY", reason: "IMPLICIT_DENY" });
    expect(decision.evaluations[0]!.outcome).toBe("OUTCOME_DENY_IMPLICIT");
  });

  it("counts credentials quantifiers like approver quantifiers", () => {
    const passkey: Policy = {
      effect: "EFFECT_ALLOW",
      condition: "true",
      consensus: "credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256') && approvers.count() >= 2",
    };
    expect(decide({ policies: [passkey], rootQuorum, context }).outcome).toBe("CONSENSUS_NEEDED");
    const webauthnOnly = {
      ...passkey,
      consensus: "credentials.any(c, c.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')",
    };
    expect(decide({ policies: [webauthnOnly], rootQuorum, context }).outcome).toBe("DENY");
  });

  it("waits on a consensus without per-user clauses, the submitter counting as the first approval", () => {
    const two: Policy = { effect: "EFFECT_ALLOW", condition: "true", consensus: "approvers.count() >= 2" };
    expect(decide({ policies: [two], rootQuorum, context }).outcome).toBe("CONSENSUS_NEEDED");
    expect(decide({ policies: [two], rootQuorum, context: withApprovers([SUBMITTER, OTHER_USER]) }).outcome).toBe(
      "ALLOW",
    );
  });

  it("does not let a deny policy with an unmet consensus deny", () => {
    const deny: Policy = {
      effect: "EFFECT_DENY",
      condition: "true",
      consensus: `approvers.any(u, u.id == '${OTHER_USER}')`,
    };
    const decision = decide({ policies: [deny, allowSigning], rootQuorum, context });
    expect(decision.outcome).toBe("ALLOW");
    expect(decision.evaluations[0]!.outcome).toBe("OUTCOME_DENY_IMPLICIT");
  });

  it("applies a policy without a condition to every activity, and one without consensus to any approver", () => {
    const consensusOnly: Policy = { effect: "EFFECT_ALLOW", consensus: `approvers.any(u, u.id == '${SUBMITTER}')` };
    expect(decide({ policies: [consensusOnly], rootQuorum, context }).outcome).toBe("ALLOW");
    const blank: Policy = { effect: "EFFECT_ALLOW", condition: "  ", consensus: null, time: "" };
    expect(decide({ policies: [blank], rootQuorum, context }).outcome).toBe("ALLOW");
  });
});

describe("errors", () => {
  const context = withApprovers([SUBMITTER]);

  it("record the failing field, message and position, and neither allow nor deny", () => {
    const decision = decide({ policies: [failing, allowSigning], rootQuorum, context });
    expect(decision.outcome).toBe("ALLOW");
    expect(decision.evaluations[0]).toEqual({
      policyId: "broken",
      effect: "EFFECT_DENY",
      outcome: "OUTCOME_ERROR",
      error: {
        field: "condition",
        message: "keyword 'private_key' is not present for this activity (at position 0)",
        position: 0,
      },
    });
    const alone = decide({ policies: [{ ...failing, effect: "EFFECT_ALLOW" }], rootQuorum, context });
    expect(alone).toMatchObject({ outcome: "DENY", reason: "IMPLICIT_DENY" });
  });

  it("fail the policy when the consensus fails even though the condition is false", () => {
    const policy: Policy = { effect: "EFFECT_ALLOW", condition: "false", consensus: "approvers.any(u, u.email == 1)" };
    expect(evaluatePolicy(policy, context)).toMatchObject({ outcome: "OUTCOME_ERROR", error: { field: "consensus" } });
  });

  it("record a stored expression that no longer parses instead of throwing", () => {
    const evaluation = evaluatePolicy(
      { policyName: "old", effect: "EFFECT_ALLOW", condition: "activity.type = 'x'" },
      context,
    );
    expect(evaluation).toMatchObject({
      policyName: "old",
      outcome: "OUTCOME_ERROR",
      error: { field: "condition", position: 14 },
    });
  });
});

describe("time-gated policies", () => {
  const weekdays = "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')";
  const monday = withApprovers([SUBMITTER], signingContext({ time: { now: "2026-03-16T14:00:00Z" } }));
  const saturday = withApprovers([SUBMITTER], signingContext({ time: { now: "2026-03-14T14:00:00Z" } }));

  it("are skipped outside their window, so a time-gated deny has no effect there", () => {
    const deny: Policy = { ...denySigning, time: weekdays };
    expect(decide({ policies: [deny, allowSigning], rootQuorum, context: monday }).outcome).toBe("DENY");
    const decision = decide({ policies: [deny, allowSigning], rootQuorum, context: saturday });
    expect(decision.outcome).toBe("ALLOW");
    expect(decision.evaluations[0]!.outcome).toBe("OUTCOME_TIME_INACTIVE");
  });

  it("skip the other fields when inactive, and fail when the time expression fails", () => {
    const allow: Policy = { effect: "EFFECT_ALLOW", condition: "private_key.id == 'k'", time: weekdays };
    expect(evaluatePolicy(allow, saturday).outcome).toBe("OUTCOME_TIME_INACTIVE");
    expect(evaluatePolicy({ ...allow, time: "time.now" }, monday)).toMatchObject({
      outcome: "OUTCOME_ERROR",
      error: { field: "time" },
    });
  });
});

describe("own credentials", () => {
  const ownKey = signingContext({
    activity: {
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
      kind: "CREATE_API_KEYS",
      resource: "CREDENTIAL",
      action: "CREATE",
      params: { user_id: SUBMITTER },
    },
  });

  it("may be changed without a policy, but not another user's", () => {
    expect(decide({ policies: [], rootQuorum, context: ownKey })).toMatchObject({
      outcome: "ALLOW",
      reason: "SELF_CREDENTIAL",
    });
    const othersKey = { ...ownKey, activity: { ...ownKey.activity, params: { user_id: OTHER_USER } } };
    expect(decide({ policies: [], rootQuorum, context: othersKey }).outcome).toBe("DENY");
  });

  it("follow an explicit deny, and a pending allow", () => {
    const deny: Policy = { effect: "EFFECT_DENY", condition: "activity.resource == 'CREDENTIAL'" };
    expect(decide({ policies: [deny], rootQuorum, context: ownKey }).outcome).toBe("DENY");
    const pending: Policy = { effect: "EFFECT_ALLOW", condition: "true", consensus: "approvers.count() >= 2" };
    expect(decide({ policies: [pending], rootQuorum, context: ownKey }).outcome).toBe("CONSENSUS_NEEDED");
  });

  it("keep the default when policies are inactive or do not apply, and lose it when one errors (spec outline)", () => {
    const inactive: Policy = { ...denySigning, time: "CronSpan('0 0 1 1 *', '1h', 'UTC')" };
    const unrelated: Policy = { effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN'" };
    expect(decide({ policies: [inactive, unrelated], rootQuorum, context: ownKey }).outcome).toBe("ALLOW");
    expect(decide({ policies: [failing], rootQuorum, context: ownKey })).toMatchObject({
      outcome: "DENY",
      reason: "IMPLICIT_DENY",
    });
  });
});
