/**
 * The evaluation trace the dev console shows: the same result as the plain evaluator, for every expression
 * and context (a trace that disagreed would explain a decision that was not taken), with the values each
 * comparison read and the clauses that settled it, bounded in size.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCustodyError } from "../../src/common/errors.js";
import { evaluateExpression, type PolicyContext, type PolicyExpressionField } from "../../src/policy/index.js";
import { MAX_TRACE_CLAUSES, MAX_VALUE_TEXT, traceExpression } from "../../src/policy/trace.js";
import { SUBMITTER, signingContext } from "./helpers.js";
import { loadSampleCases } from "./sample-cases.js";

/** The plain evaluator's answer: its bool, or "error". */
function plain(source: string, context: PolicyContext, field: PolicyExpressionField): boolean | "error" {
  try {
    return evaluateExpression(source, context, field);
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    return "error";
  }
}

function expectAgrees(source: string, context: PolicyContext, field: PolicyExpressionField): void {
  const trace = traceExpression(source, context, field);
  const expected = plain(source, context, field);
  expect(trace.result === undefined ? "error" : trace.result).toBe(expected);
  expect(trace.error === undefined).toBe(expected !== "error");
  const root = trace.clauses[0];
  // The walk ran the same closures: the whole expression's clause gives the same answer.
  if (root !== undefined) expect(root.result === undefined ? "error" : root.result).toBe(expected);
  expect(trace.clauses.length).toBeLessThanOrEqual(MAX_TRACE_CLAUSES);
  for (const clause of trace.clauses) {
    for (const operand of [clause.left, clause.right]) {
      if (operand?.value !== undefined) expect(operand.value.length).toBeLessThanOrEqual(MAX_VALUE_TEXT);
    }
  }
}

const clause = fc.constantFrom(
  "eth.tx.value < 1000000000000000000",
  "eth.tx.value >= 1",
  "eth.tx.to == '0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432'",
  "eth.tx.chain_id in [1, 10]",
  "activity.resource == 'PRIVATE_KEY'",
  "activity.action != 'SIGN'",
  "approvers.count() >= 2",
  `approvers.any(u, u.id == '${SUBMITTER}')`,
  "wallet.label == 'Treasury'",
  "eth.tx.missing == 1",
  "eth.tx.value == 'text'",
  "true",
  "false",
  "wallet.id",
  "time.now < Timestamp('2030-01-01T00:00:00Z')",
);
const { expression } = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { maxDepth: 5, depthSize: "small" },
    clause,
    fc
      .tuple(tie("expression"), fc.constantFrom("&&", "||"), tie("expression"))
      .map(([left, operator, right]) => `(${left}) ${operator} (${right})`),
    tie("expression").map((operand) => `!(${operand})`),
  ),
}));
const field = fc.constantFrom<PolicyExpressionField>("condition", "consensus");

describe("traceExpression", () => {
  it("gives the plain evaluator's result for every expression of clauses over a signing context", () => {
    fc.assert(
      fc.property(expression, field, (source, which) => expectAgrees(source, signingContext(), which)),
      { numRuns: 400 },
    );
  });

  it("gives the plain evaluator's result for every worked case of the policy specification", () => {
    for (const sample of loadSampleCases()) {
      for (const policy of sample.policies) {
        for (const which of ["condition", "consensus", "time"] as const) {
          const source = policy[which];
          if (typeof source === "string" && source.trim() !== "") expectAgrees(source, sample.context, which);
        }
      }
    }
  });

  it("shows the values a comparison read and the clause that denied a large send", () => {
    const context = signingContext({
      eth: { tx: { value: 5n * 10n ** 18n, to: "0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432" } },
    });
    const trace = traceExpression("activity.resource == 'PRIVATE_KEY' && eth.tx.value < 1000000000000000000", context);
    expect(trace.result).toBe(false);
    const [whole, resource, value] = trace.clauses;
    expect(whole).toMatchObject({ kind: "and", result: false, deciding: true, depth: 0 });
    expect(resource).toMatchObject({ kind: "compare", result: true, deciding: false, depth: 1 });
    expect(resource?.left).toMatchObject({ text: "activity.resource", value: '"PRIVATE_KEY"', literal: false });
    expect(value).toMatchObject({ kind: "compare", operator: "<", result: false, deciding: true });
    expect(value?.left).toMatchObject({ text: "eth.tx.value", value: "5·10^18 (5000000000000000000)" });
    expect(value?.right).toMatchObject({ literal: true, value: "1·10^18 (1000000000000000000)" });
  });

  it("marks the first true operand of an `||` as deciding, and every clause of a true `&&` only as a whole", () => {
    const either = traceExpression("wallet.label == 'Cold' || wallet.label == 'Treasury' || true", signingContext());
    expect(either.clauses.map((c) => c.deciding)).toEqual([true, false, true, false]);
    const both = traceExpression("wallet.label == 'Treasury' && true", signingContext());
    expect(both.clauses.map((c) => c.deciding)).toEqual([true, false, false]);
    const not = traceExpression("!(wallet.label == 'Treasury')", signingContext());
    expect(not.clauses.map((c) => c.deciding)).toEqual([true, true]);
  });

  it("reports a failing operand with the evaluator's message, and the failure as the whole result", () => {
    const trace = traceExpression("eth.tx.nope == 1 && true", signingContext());
    expect(trace.result).toBeUndefined();
    expect(trace.error?.message).toContain("nope");
    expect(trace.clauses[1]?.left?.error).toContain("nope");
  });

  it("stays bounded for a long expression and a long value", () => {
    const long = Array.from({ length: 200 }, (_, i) => `wallet.label != 'w${i}'`).join(" && ");
    const trace = traceExpression(long, signingContext({ wallet: { label: "x".repeat(10_000) } }));
    expect(trace.result).toBe(true);
    expect(trace.clauses).toHaveLength(MAX_TRACE_CLAUSES);
    expect(trace.omitted).toBe(201 - MAX_TRACE_CLAUSES);
    expect(trace.clauses[1]?.left?.value?.length).toBe(MAX_VALUE_TEXT);
  });

  it("never throws for an expression that does not parse", () => {
    const trace = traceExpression("eth.tx.value <", signingContext());
    expect(trace.error?.field).toBe("condition");
    expect(trace.clauses).toEqual([]);
  });
});
