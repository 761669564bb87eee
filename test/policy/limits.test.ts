import { describe, expect, it } from "vitest";
import {
  decide,
  evaluateExpression,
  MAX_EVALUATION_STEPS,
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING_DEPTH,
  validatePolicyExpressions,
} from "../../src/policy/index.js";
import { expectFailure, ROOT_USER, signingContext } from "./helpers.js";

const validate = (condition: string) => () => validatePolicyExpressions({ condition });
const tooDeep = { reason: "POLICY_EXPRESSION_TOO_DEEP", code: "INVALID_ARGUMENT", field: "parameters.condition" };

describe("nesting depth", () => {
  it("refuses 10,000 nested parentheses cleanly, at the first parenthesis past the limit", () => {
    const source = `${"(".repeat(10_000)}true${")".repeat(10_000)}`;
    expectFailure(validate(source), { ...tooDeep, position: MAX_NESTING_DEPTH, message: /deeper than 64 levels/ });
  });

  it("accepts nesting up to the limit and refuses one more level", () => {
    const at = (depth: number) => `${"(".repeat(depth)}true${")".repeat(depth)}`;
    expect(evaluateExpression(at(MAX_NESTING_DEPTH), signingContext())).toBe(true);
    expectFailure(validate(at(MAX_NESTING_DEPTH + 1)), { ...tooDeep, position: MAX_NESTING_DEPTH });
  });

  it("counts every kind of nesting: negation, lists, indexes, calls and lambdas", () => {
    expectFailure(validate(`${"!".repeat(10_000)}true`), { ...tooDeep, position: 64 });
    expectFailure(validate(`${"[".repeat(10_000)}${"]".repeat(10_000)} == 1`), { ...tooDeep, position: 64 });
    expectFailure(validate(`wallet${"[wallet".repeat(2_000)}${"]".repeat(2_000)} == 1`), tooDeep);
    expectFailure(validate(`${"eth.tx.calls.any(c, ".repeat(2_000)}true${")".repeat(2_000)}`), tooDeep);
    expectFailure(validate(`${"Timestamp(".repeat(2_000)}'x'${")".repeat(2_000)} == 1`), tooDeep);
  });

  it("records an over-deep stored policy as an error instead of throwing", () => {
    const condition = `${"(".repeat(10_000)}true${")".repeat(10_000)}`;
    const decision = decide({
      policies: [{ effect: "EFFECT_DENY", condition }],
      rootQuorum: { userIds: [ROOT_USER], threshold: 1 },
      context: signingContext(),
    });
    expect(decision.evaluations[0]).toMatchObject({
      outcome: "OUTCOME_ERROR",
      error: { field: "condition", position: 64 },
    });
  });

  it("evaluates long flat chains without depth: 8,000 operands and 30,000 postfix steps", () => {
    const operands = `true${" && true".repeat(7_999)}`;
    expect(evaluateExpression(operands, signingContext())).toBe(true);
    expectFailure(() => evaluateExpression(`wallet${".x".repeat(30_000)} == 1`, signingContext()), {
      reason: "POLICY_MISSING_FIELD",
      position: 7,
    });
  });
});

describe("expression length", () => {
  it("refuses a 1 MB expression before reading it", () => {
    const source = "a".repeat(1024 * 1024);
    const started = performance.now();
    expectFailure(validate(source), {
      reason: "POLICY_EXPRESSION_TOO_LONG",
      code: "INVALID_ARGUMENT",
      field: "parameters.condition",
      position: MAX_EXPRESSION_LENGTH,
      message: /1048576 characters long; the limit is 65536/,
    });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("accepts an expression of exactly the limit", () => {
    const body = `true${" && true".repeat(5_000)}`;
    const source = body + " ".repeat(MAX_EXPRESSION_LENGTH - body.length);
    expect(source).toHaveLength(MAX_EXPRESSION_LENGTH);
    expect(evaluateExpression(source, signingContext())).toBe(true);
    expectFailure(validate(`${source} `), { reason: "POLICY_EXPRESSION_TOO_LONG" });
  });
});

describe("evaluation budget", () => {
  const crowd = signingContext({ approvers: Array.from({ length: 200 }, (_, i) => ({ id: `user-${i}`, tags: [] })) });

  it("stops nested quantifiers over large lists with RESOURCE_EXHAUSTED", () => {
    const started = performance.now();
    expectFailure(
      () => evaluateExpression("approvers.all(a, approvers.all(b, approvers.all(c, a.id != '')))", crowd, "consensus"),
      {
        reason: "POLICY_EVALUATION_BUDGET_EXCEEDED",
        code: "RESOURCE_EXHAUSTED",
        message: new RegExp(`${MAX_EVALUATION_STEPS}`),
      },
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("leaves ordinary quantifiers over the same list alone", () => {
    expect(evaluateExpression("approvers.all(a, approvers.any(b, b.id == a.id))", crowd, "consensus")).toBe(true);
  });

  it("makes an over-budget policy an error, which neither allows nor denies", () => {
    const decision = decide({
      policies: [{ effect: "EFFECT_DENY", consensus: "approvers.any(a, approvers.any(b, approvers.any(c, true)))" }],
      rootQuorum: { userIds: [ROOT_USER], threshold: 1 },
      context: crowd,
    });
    expect(decision.outcome).toBe("DENY");
    expect(decision.reason).toBe("IMPLICIT_DENY");
    expect(decision.evaluations[0]!.outcome).toBe("OUTCOME_ERROR");
  });

  it("slices megabyte strings from the context", () => {
    const data = `0x${"ab".repeat(512 * 1024)}`;
    const context = signingContext({ eth: { tx: { data } } });
    expect(evaluateExpression("eth.tx.data[0..4] == '0xab' && eth.tx.data[1048574..1048576] == 'ab'", context)).toBe(
      true,
    );
  });
});
