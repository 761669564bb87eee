import { describe, expect, it } from "vitest";
import { evaluateExpression, validatePolicyExpressions } from "../../src/policy/index.js";
import { expectFailure, signingContext } from "./helpers.js";

const condition = (source: string) => () => validatePolicyExpressions({ condition: source });
const syntax = (source: string, position: number, message?: RegExp) =>
  expectFailure(condition(source), {
    reason: "POLICY_SYNTAX_ERROR",
    code: "INVALID_ARGUMENT",
    field: "parameters.condition",
    position,
    ...(message ? { message } : {}),
  });

describe("tokens", () => {
  it("accepts every documented operator and literal form", () => {
    expect(() =>
      validatePolicyExpressions({
        condition:
          "activity.type == 'x' && activity.type != 'y' && eth.tx.value < 1 || eth.tx.value <= 2 || eth.tx.value > 3 || eth.tx.value >= 4 || activity.resource in ['A','B'] || !wallet.imported || wallet.exported == false || eth.tx.data[0..10] == '0x'",
      }),
    ).not.toThrow();
  });

  it("points at an unterminated string's opening quote", () => {
    syntax("activity.type == 'abc", 17, /unterminated string/);
  });

  it("refuses double-quoted strings where they start", () => {
    syntax('activity.type == "abc"', 17, /single quotes/);
  });

  it("refuses '=', '&' and '|' with the operator that was meant", () => {
    syntax("activity.type = 'x'", 14, /'=='/);
    syntax("true & false", 5, /'&&'/);
    syntax("true | false", 5, /'\|\|'/);
  });

  it("refuses decimal numbers and malformed integers", () => {
    syntax("eth.tx.value < 1.5", 15, /decimal numbers/);
    syntax("eth.tx.value < 12abc", 15, /invalid number/);
  });

  it("accepts integer literals up to 2^256 - 1 and refuses larger ones", () => {
    const max = ((1n << 256n) - 1n).toString();
    expect(() => validatePolicyExpressions({ condition: `eth.tx.value < ${max}` })).not.toThrow();
    syntax(`eth.tx.value < ${(1n << 256n).toString()}`, 15, /2\^256/);
  });

  it("refuses characters outside the language", () => {
    syntax("activity.type == 'x' ; true", 21, /unexpected character/);
    syntax("activity.type + 1", 14);
  });

  it("keeps backslashes inside strings literally (no escapes)", () => {
    const context = signingContext({ secret: { static_properties: { path: "a\\b" } } });
    expect(evaluateExpression("secret.static_properties['path'] == 'a\\b'", context)).toBe(true);
  });
});

describe("grammar", () => {
  it("reports an incomplete expression at its end", () => {
    syntax("activity.type == 'x' &&", 23, /end of expression/);
    syntax("(activity.type == 'x'", 21, /expected '\)'/);
  });

  it("reports an empty expression", () => {
    expectFailure(() => evaluateExpression("   ", signingContext()), {
      reason: "POLICY_SYNTAX_ERROR",
      position: 0,
    });
  });

  it("reports tokens left over after a complete expression", () => {
    syntax("activity.type == 'x' 'y'", 21, /unexpected string literal/);
    syntax("true)", 4, /unexpected '\)'/);
  });

  it("refuses chained comparisons", () => {
    syntax("1 < eth.tx.value < 3", 17, /cannot be chained/);
  });

  it("refuses unknown methods and functions at their names", () => {
    syntax("approvers.map(u, u.id)", 10, /unknown method 'map'/);
    syntax("size(approvers) > 1", 0, /unknown function 'size'/);
    syntax("has(activity.params)", 0, /unknown function 'has'/);
  });

  it("checks method and function arity", () => {
    syntax("eth.tx.calls.count(1) == 1", 19, /count\(\) takes no arguments/);
    syntax("wallet.tags.contains('a', 'b')", 24, /exactly one argument/);
    syntax("eth.tx.calls.all(c)", 18, /takes a variable and a predicate/);
    syntax("eth.tx.calls.any('c', true)", 17, /takes a variable and a predicate/);
    syntax("eth.tx.calls.filter(true, true)", 20, /takes a variable and a predicate/);
    syntax("Timestamp('2026-01-01T00:00:00Z', 'x') < time.now", 0, /takes 1 argument, got 2/);
    syntax("CronSpan('* * * * *', '1h')", 0, /takes 3 arguments, got 2/);
  });

  it("refuses a trailing comma in a list", () => {
    syntax("activity.type in ['a',]", 22, /unexpected '\]'/);
  });

  it("requires a name after '.'", () => {
    syntax("eth.tx.", 7, /field or method name/);
    syntax("eth.tx.5", 7, /field or method name/);
  });

  it("binds && tighter than ||", () => {
    const context = signingContext();
    // (true || true) && false would be false.
    expect(evaluateExpression("true || true && false", context)).toBe(true);
    expect(evaluateExpression("(true || true) && false", context)).toBe(false);
    expect(evaluateExpression("false && true || true", context)).toBe(true);
  });

  it("binds ! tighter than a comparison and postfix steps tighter than !", () => {
    const context = signingContext();
    expect(evaluateExpression("!wallet.imported == true", context)).toBe(true);
    expect(evaluateExpression("!(wallet.label == 'Treasury')", context)).toBe(false);
  });

  it("parses slices, indexes and lambdas inside one another", () => {
    expect(() =>
      validatePolicyExpressions({
        condition:
          "eth.tx.contract_call_args['calls'].filter(c, c[0][0..2] == '0x' && [c[1]].all(v, v == 0)).count() == 1",
      }),
    ).not.toThrow();
  });
});

describe("literal time arguments are checked when the policy is written", () => {
  const time = (source: string) => () => validatePolicyExpressions({ condition: "true", time: source });

  it("refuses a Timestamp with a non-zero offset, at the argument", () => {
    expectFailure(time("time.now > Timestamp('2026-01-01T00:00:00+02:00')"), {
      reason: "POLICY_INVALID_TIME",
      field: "parameters.time",
      position: 21,
      message: /zero UTC offset/,
    });
  });

  it("refuses a CronSpan with a step, a bad duration or an unknown zone, at the faulty argument", () => {
    expectFailure(time("CronSpan('*/15 * * * *', '1h', 'UTC')"), { reason: "POLICY_INVALID_TIME", position: 9 });
    expectFailure(time("CronSpan('0 9 * * *', '8x', 'UTC')"), { reason: "POLICY_INVALID_TIME", position: 22 });
    expectFailure(time("CronSpan('0 9 * * *', '8h', 'Mars/Olympus')"), {
      reason: "POLICY_INVALID_TIME",
      position: 28,
    });
  });
});
