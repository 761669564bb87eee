import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import {
  conditionFromSelectors,
  decide,
  evaluateExpression,
  type Policy,
  type PolicyContext,
  type PolicyExpressionField,
  SELECTOR_OPERATORS,
  validatePolicyExpressions,
} from "../../src/policy/index.js";
import { ROOT_USER, signingContext } from "./helpers.js";

/** Runs `run`; a throw must be a `CustodyError`, and a position it carries must lie within the source. */
function onlyCustodyErrors<T>(source: string, run: () => T): T | CustodyError {
  try {
    return run();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    const position = (error as CustodyError).details.position;
    if (position !== undefined) {
      expect(position).toBeGreaterThanOrEqual(0);
      expect(position).toBeLessThanOrEqual(source.length);
    }
    return error as CustodyError;
  }
}

const FIELDS: PolicyExpressionField[] = ["condition", "consensus", "time"];
const field = fc.constantFrom(...FIELDS);

const identifier = fc.constantFrom(
  "activity",
  "eth",
  "wallet",
  "private_key",
  "secret",
  "approvers",
  "credentials",
  "time",
  "user",
  "v",
);
const fieldName = fc.constantFrom(
  "type",
  "id",
  "tx",
  "value",
  "to",
  "data",
  "tags",
  "now",
  "count",
  "params",
  "calls",
  "in",
);
const stringLiteral = fc.string({ maxLength: 12 }).map((text) => `'${text.replaceAll("'", "")}'`);
const intLiteral = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(String);
const literal = fc.oneof(
  intLiteral,
  stringLiteral,
  fc.constantFrom("true", "false", "Timestamp('2026-01-01T00:00:00Z')", "CronSpan('0 9 * * 1-5', '8h', 'UTC')"),
);

/** Well-formed expressions: every operand of a binary operator is parenthesized, so none chains comparisons. */
const { expression } = fc.letrec<{ expression: string; postfix: string; step: string }>((tie) => ({
  expression: fc.oneof(
    { maxDepth: 6, depthSize: "small" },
    literal,
    identifier,
    tie("postfix"),
    fc
      .tuple(tie("expression"), fc.constantFrom("==", "!=", "<", "<=", ">", ">=", "in", "&&", "||"), tie("expression"))
      .map(([left, operator, right]) => `(${left}) ${operator} (${right})`),
    tie("expression").map((operand) => `!(${operand})`),
    fc.array(tie("expression"), { maxLength: 3 }).map((items) => `[${items.join(", ")}]`),
  ),
  postfix: fc
    .tuple(
      fc.oneof(
        identifier,
        tie("expression").map((e) => `(${e})`),
      ),
      fc.array(tie("step"), { minLength: 1, maxLength: 4 }),
    )
    .map(([head, steps]) => head + steps.join("")),
  step: fc.oneof(
    fieldName.map((name) => `.${name}`),
    tie("expression").map((index) => `[${index}]`),
    fc.tuple(tie("expression"), tie("expression")).map(([from, to]) => `[${from}..${to}]`),
    fc.constant(".count()"),
    tie("expression").map((value) => `.contains(${value})`),
    fc
      .tuple(fc.constantFrom("any", "all", "filter"), tie("expression"))
      .map(([method, body]) => `.${method}(v, ${body})`),
  ),
}));

/** Hostile context data: every kind of JavaScript value, including ones the language cannot read. */
const anyData = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
  withBoxedValues: true,
});

const hostileContext: fc.Arbitrary<PolicyContext> = fc
  .record({
    activity: anyData,
    approvers: anyData,
    credentials: anyData,
    wallet: anyData,
    private_key: anyData,
    eth: fc.record({ tx: anyData }),
    secret: anyData,
    time: fc.oneof(fc.record({ now: anyData }), fc.constant({ now: "2026-03-16T14:00:00Z" })),
  })
  .map((roots) => roots as unknown as PolicyContext);

const vocabulary = fc.constantFrom(
  "(",
  ")",
  "[",
  "]",
  ".",
  "..",
  ",",
  "!",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "&&",
  "||",
  "in",
  "true",
  "false",
  "0",
  "340282366920938463463374607431768211456",
  "'x'",
  "'",
  "activity",
  "approvers",
  "eth",
  "tx",
  "any",
  "all",
  "filter",
  "count",
  "contains",
  "user",
  "Timestamp",
  "CronSpan",
  "=",
  "&",
  '"',
  "1.5",
  "@",
);

describe("properties", () => {
  it("any text at all is accepted or refused with a CustodyError", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), field, (source, where) => {
        onlyCustodyErrors(source, () =>
          validatePolicyExpressions({ [where]: source, consensus: "approvers.count() > 0" }),
        );
        onlyCustodyErrors(source, () => evaluateExpression(source, signingContext(), where));
      }),
      { numRuns: 500 },
    );
  });

  it("any sequence of the language's tokens is accepted or refused with a CustodyError", () => {
    fc.assert(
      fc.property(fc.array(vocabulary, { maxLength: 30 }), field, (tokens, where) => {
        const source = tokens.join(" ");
        onlyCustodyErrors(source, () => validatePolicyExpressions({ condition: source, consensus: source }));
        onlyCustodyErrors(source, () => evaluateExpression(source, signingContext(), where));
      }),
      { numRuns: 500 },
    );
  });

  it("well-formed expressions always parse, and evaluate to a bool or fail with a CustodyError", () => {
    fc.assert(
      fc.property(expression, field, (source, where) => {
        const refusal = onlyCustodyErrors(source, () =>
          validatePolicyExpressions({ condition: "true", [where]: source }),
        );
        if (refusal instanceof CustodyError) {
          expect(refusal.details.reason).not.toMatch(/SYNTAX|TOO_DEEP|TOO_LONG/);
        }
        const result = onlyCustodyErrors(source, () => evaluateExpression(source, signingContext(), where));
        if (!(result instanceof CustodyError)) expect(typeof result).toBe("boolean");
      }),
      { numRuns: 400 },
    );
  });

  it("expressions over hostile context data fail only with CustodyErrors", () => {
    fc.assert(
      fc.property(expression, field, hostileContext, (source, where, context) => {
        onlyCustodyErrors(source, () => evaluateExpression(source, context, where));
      }),
      { numRuns: 400 },
    );
  });

  it("a failing operand fails && and || whatever the other operand gives (no short-circuit)", () => {
    fc.assert(
      fc.property(expression, fc.constantFrom("&&", "||"), fc.boolean(), (source, operator, missingFirst) => {
        const missing = "private_key.id == 'k'";
        const combined = missingFirst ? `(${missing}) ${operator} (${source})` : `(${source}) ${operator} (${missing})`;
        const result = onlyCustodyErrors(combined, () => evaluateExpression(combined, signingContext()));
        expect(result).toBeInstanceOf(CustodyError);
      }),
      { numRuns: 300 },
    );
  });

  it("decide never throws over generated policies, and keeps one evaluation per policy", () => {
    const policy: fc.Arbitrary<Policy> = fc.record(
      {
        policyId: fc.uuid(),
        effect: fc.constantFrom("EFFECT_ALLOW" as const, "EFFECT_DENY" as const),
        condition: expression,
        consensus: expression,
        time: expression,
      },
      { requiredKeys: ["effect"] },
    );
    fc.assert(
      fc.property(fc.array(policy, { maxLength: 4 }), fc.integer({ min: 0, max: 3 }), (policies, threshold) => {
        const decision = decide({
          policies,
          rootQuorum: { userIds: [ROOT_USER], threshold },
          context: signingContext(),
        });
        expect(["ALLOW", "DENY", "CONSENSUS_NEEDED"]).toContain(decision.outcome);
        expect(decision.evaluations).toHaveLength(policies.length);
        decision.evaluations.forEach((evaluation, i) => {
          expect(evaluation.policyId).toBe(policies[i]!.policyId);
          expect(evaluation.error !== undefined).toBe(evaluation.outcome === "OUTCOME_ERROR");
        });
      }),
      { numRuns: 200 },
    );
  });

  it("integer comparison agrees with BigInt over the whole u256 range", () => {
    const u256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });
    fc.assert(
      fc.property(u256, u256, (value, literalValue) => {
        const context = signingContext({ eth: { tx: { value } } });
        expect(evaluateExpression(`eth.tx.value < ${literalValue}`, context)).toBe(value < literalValue);
        expect(evaluateExpression(`eth.tx.value == ${literalValue}`, context)).toBe(value === literalValue);
        expect(evaluateExpression(`eth.tx.value >= ${literalValue}`, context)).toBe(value >= literalValue);
      }),
      { numRuns: 300 },
    );
  });

  it("selector translation either refuses with a CustodyError or gives a condition that validates", () => {
    const selector = fc.record({
      subject: fc.oneof(fc.constantFrom("activity.type", "wallet.id", "private_key.tags", "eth.tx['to']"), fc.string()),
      operator: fc.constantFrom(...SELECTOR_OPERATORS),
      targets: fc.array(fc.oneof(fc.string(), fc.bigInt({ min: 0n, max: 1n << 300n }).map(String)), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(selector, { maxLength: 4 }), (selectors) => {
        const condition = onlyCustodyErrors("", () => conditionFromSelectors(selectors));
        if (typeof condition === "string") {
          expect(() => validatePolicyExpressions({ condition })).not.toThrow();
          onlyCustodyErrors(condition, () => evaluateExpression(condition, signingContext()));
        }
      }),
      { numRuns: 300 },
    );
  });
});
