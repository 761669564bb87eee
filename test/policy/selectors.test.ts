import { describe, expect, it } from "vitest";
import { conditionFromSelectors, decide, type SelectorOperator } from "../../src/policy/index.js";
import { expectFailure, ROOT_USER, signingContext, TAG } from "./helpers.js";

describe("conditionFromSelectors", () => {
  it("writes one clause per v1 selector, joined with &&", () => {
    expect(
      conditionFromSelectors([
        { subject: "activity.type", operator: "OPERATOR_EQUAL", target: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" },
        { subject: "wallet.id", operator: "OPERATOR_NOT_EQUAL", target: "w-2" },
        { subject: "eth.tx.value", operator: "OPERATOR_LESS_THAN", target: "1000" },
      ]),
    ).toBe("activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && wallet.id != 'w-2' && eth.tx.value < 1000");
  });

  it("maps every ordering operator", () => {
    const cases: Array<[SelectorOperator, string]> = [
      ["OPERATOR_MORE_THAN", ">"],
      ["OPERATOR_MORE_THAN_OR_EQUAL", ">="],
      ["OPERATOR_LESS_THAN", "<"],
      ["OPERATOR_LESS_THAN_OR_EQUAL", "<="],
    ];
    for (const [operator, symbol] of cases) {
      expect(conditionFromSelectors([{ subject: "eth.tx.chain_id", operator, target: "1" }])).toBe(
        `eth.tx.chain_id ${symbol} 1`,
      );
    }
  });

  it("writes membership and containment for v2 selectors", () => {
    const subject = "private_key.tags";
    expect(conditionFromSelectors([{ subject: "activity.type", operator: "OPERATOR_IN", targets: ["A", "B"] }])).toBe(
      "activity.type in ['A', 'B']",
    );
    expect(conditionFromSelectors([{ subject: "wallet.id", operator: "OPERATOR_NOT_IN", targets: ["w"] }])).toBe(
      "!(wallet.id in ['w'])",
    );
    expect(conditionFromSelectors([{ subject, operator: "OPERATOR_CONTAINS", targets: ["t1"] }])).toBe(
      "private_key.tags.contains('t1')",
    );
    expect(conditionFromSelectors([{ subject, operator: "OPERATOR_CONTAINS_ONE", targets: ["t1", "t2"] }])).toBe(
      "(private_key.tags.contains('t1') || private_key.tags.contains('t2'))",
    );
    expect(conditionFromSelectors([{ subject, operator: "OPERATOR_CONTAINS_ALL", targets: ["t1", "t2"] }])).toBe(
      "(private_key.tags.contains('t1') && private_key.tags.contains('t2'))",
    );
    expect(conditionFromSelectors([{ subject, operator: "OPERATOR_CONTAINS_ALL", target: "t1" }])).toBe(
      "private_key.tags.contains('t1')",
    );
    expect(conditionFromSelectors([{ subject: "activity.type", operator: "OPERATOR_IN", target: "A" }])).toBe(
      "activity.type in ['A']",
    );
  });

  it("gives conditions the engine evaluates", () => {
    const context = {
      ...signingContext(),
      private_key: { id: "k-1", tags: [TAG, "t-2"] },
    };
    const decideWith = (condition: string) =>
      decide({
        policies: [{ effect: "EFFECT_ALLOW", condition }],
        rootQuorum: { userIds: [ROOT_USER], threshold: 1 },
        context,
      }).outcome;
    expect(
      decideWith(
        conditionFromSelectors([
          { subject: "activity.action", operator: "OPERATOR_EQUAL", targets: ["SIGN"] },
          { subject: "private_key.tags", operator: "OPERATOR_CONTAINS_ALL", targets: [TAG, "t-2"] },
          { subject: "eth.tx.chain_id", operator: "OPERATOR_IN", targets: ["1", "137"] },
        ]),
      ),
    ).toBe("ALLOW");
    expect(
      decideWith(
        conditionFromSelectors([
          { subject: "private_key.tags", operator: "OPERATOR_CONTAINS_ONE", targets: ["x", "y"] },
        ]),
      ),
    ).toBe("DENY");
  });

  it("names the selector field at fault", () => {
    expectFailure(() => conditionFromSelectors([]), {
      reason: "POLICY_INVALID_SELECTOR",
      field: "parameters.selectors",
    });
    expectFailure(
      () =>
        conditionFromSelectors([
          { subject: "activity.type", operator: "OPERATOR_EQUAL", target: "x" },
          { subject: "activity.type == 'x'", operator: "OPERATOR_EQUAL", target: "x" },
        ]),
      { reason: "POLICY_INVALID_SELECTOR", code: "INVALID_ARGUMENT", field: "parameters.selectors[1].subject" },
    );
    expectFailure(() => conditionFromSelectors([{ subject: "user.id", operator: "OPERATOR_EQUAL", target: "u" }]), {
      reason: "POLICY_INVALID_SELECTOR",
      field: "parameters.selectors[0].subject",
      message: /condition keyword/,
    });
    expectFailure(
      () => conditionFromSelectors([{ subject: "wallet.id", operator: "OPERATOR_EQUAL", target: "it's" }]),
      {
        reason: "POLICY_INVALID_SELECTOR",
        field: "parameters.selectors[0].target",
        message: /single quote/,
      },
    );
    expectFailure(
      () => conditionFromSelectors([{ subject: "wallet.id", operator: "OPERATOR_EQUAL", targets: ["a", "b"] }]),
      { reason: "POLICY_INVALID_SELECTOR", field: "parameters.selectors[0].targets", message: /exactly one target/ },
    );
    expectFailure(() => conditionFromSelectors([{ subject: "wallet.id", operator: "OPERATOR_IN", targets: [] }]), {
      reason: "POLICY_INVALID_SELECTOR",
      field: "parameters.selectors[0].targets",
    });
    expectFailure(
      () => conditionFromSelectors([{ subject: "wallet.id", operator: "OPERATOR_LIKE" as never, target: "a" }]),
      { reason: "POLICY_INVALID_SELECTOR", field: "parameters.selectors[0].operator" },
    );
    expectFailure(
      () =>
        conditionFromSelectors([{ subject: "eth.tx.value", operator: "OPERATOR_LESS_THAN", target: "9".repeat(100) }]),
      { reason: "POLICY_INVALID_SELECTOR", field: "parameters.selectors[0].target" },
    );
    expectFailure(
      () =>
        conditionFromSelectors([{ subject: "wallet.", operator: "OPERATOR_EQUAL", target: "a" }], "parameters.rules"),
      { reason: "POLICY_INVALID_SELECTOR", field: "parameters.rules[0].subject" },
    );
  });

  it("refuses selectors whose condition would exceed the expression limit", () => {
    const many = Array.from({ length: 3000 }, () => ({
      subject: "wallet.id",
      operator: "OPERATOR_EQUAL" as const,
      target: "x".repeat(20),
    }));
    expectFailure(() => conditionFromSelectors(many, "parameters.rules"), {
      reason: "POLICY_INVALID_SELECTOR",
      field: "parameters.rules",
      message: /limit is 65536/,
    });
  });

  it("accepts subjects with index steps", () => {
    expect(
      conditionFromSelectors([
        { subject: "eth.tx.contract_call_args['to']", operator: "OPERATOR_EQUAL", target: "0xab" },
      ]),
    ).toBe("eth.tx.contract_call_args['to'] == '0xab'");
  });
});
