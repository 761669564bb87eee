import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { validatePolicyExpressions } from "../../src/policy/index.js";
import { expectFailure } from "./helpers.js";
import { loadSampleCases } from "./sample-cases.js";

describe("validatePolicyExpressions", () => {
  it("accepts every policy of the worked cases", () => {
    for (const sample of loadSampleCases()) {
      for (const policy of sample.policies) expect(() => validatePolicyExpressions(policy)).not.toThrow();
    }
  });

  it("throws INVALID_ARGUMENT naming the field and the position", () => {
    const error = expectFailure(
      () => validatePolicyExpressions({ condition: "activity.type == 'x'", consensus: "approvers.any(u, u.id = 'x')" }),
      { reason: "POLICY_SYNTAX_ERROR", code: "INVALID_ARGUMENT", field: "parameters.consensus", position: 22 },
    );
    expect(error.message).toMatch(/^consensus: /);
    expect(error.httpStatus).toBe(400);
    expect(error.cause).toBeInstanceOf(CustodyError);
  });

  it("reports the request path the caller names", () => {
    expectFailure(
      () =>
        validatePolicyExpressions(
          { condition: "activity.type == " },
          { fields: { condition: "parameters.policies[2].condition" } },
        ),
      { reason: "POLICY_SYNTAX_ERROR", field: "parameters.policies[2].condition", position: 17 },
    );
    expectFailure(
      () =>
        validatePolicyExpressions(
          { consensus: "approvers.count(" },
          { fields: { consensus: "parameters.policyConsensus" } },
        ),
      { reason: "POLICY_SYNTAX_ERROR", field: "parameters.policyConsensus" },
    );
  });

  it("refuses a policy with neither condition nor consensus", () => {
    expectFailure(() => validatePolicyExpressions({ condition: " ", consensus: null, time: "true" }), {
      reason: "POLICY_EMPTY",
      code: "INVALID_ARGUMENT",
      field: "parameters.condition",
    });
  });

  it("refuses names the field can never resolve, at their position", () => {
    expectFailure(() => validatePolicyExpressions({ condition: "activity.type == 'x' && user.id == 'y'" }), {
      reason: "POLICY_UNKNOWN_IDENTIFIER",
      field: "parameters.condition",
      position: 24,
    });
    expectFailure(() => validatePolicyExpressions({ consensus: "approvers.any(u, wallet.id == 'w')" }), {
      reason: "POLICY_UNKNOWN_IDENTIFIER",
      field: "parameters.consensus",
      position: 17,
      message: /condition keyword/,
    });
    expectFailure(() => validatePolicyExpressions({ condition: "true", time: "activity.type == 'x'" }), {
      reason: "POLICY_UNKNOWN_IDENTIFIER",
      field: "parameters.time",
    });
  });

  it("accepts lambda variables only inside their lambda", () => {
    expect(() =>
      validatePolicyExpressions({ consensus: "approvers.any(u, credentials.any(c, c.user_id == u.id))" }),
    ).not.toThrow();
    expectFailure(() => validatePolicyExpressions({ consensus: "approvers.any(u, true) && u.id == 'x'" }), {
      reason: "POLICY_UNKNOWN_IDENTIFIER",
      position: 26,
    });
  });

  it("checks the time field", () => {
    expect(() =>
      validatePolicyExpressions({
        condition: "true",
        time: "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris') && time.now < Timestamp('2027-01-01T00:00:00Z')",
      }),
    ).not.toThrow();
    expectFailure(() => validatePolicyExpressions({ condition: "true", time: "time.now < Timestamp('2027')" }), {
      reason: "POLICY_INVALID_TIME",
      field: "parameters.time",
      position: 21,
    });
  });
});
