import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { compileExpression, PolicyRun } from "../../src/policy/compiled.js";
import { compileNode, type FieldCache, MAX_EVALUATION_STEPS } from "../../src/policy/evaluator.js";
import { expressionError } from "../../src/policy/expression-errors.js";
import { fieldFastPath } from "../../src/policy/field-tests.js";
import { parseExpression } from "../../src/policy/parser.js";
import { PolicyTimestamp } from "../../src/policy/timestamp.js";
import type { PolicyContext, PolicyExpressionField } from "../../src/policy/types.js";

// The field-test fast path (src/policy/field-tests.ts) must be invisible: for every context, the same bool
// or the same error as the closures alone, and the same steps taken from the budget a policy's expressions share.

type Outcome = { value: unknown } | { error: { code: string; message: string; details: unknown } };

function outcomeOf(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    if (!(error instanceof CustodyError)) throw error;
    return { error: { code: error.code, message: error.message, details: error.details } };
  }
}

/** The expression through `CompiledExpression` (fast path first) and through its closures alone. */
function bothWays(field: PolicyExpressionField, source: string, context: PolicyContext, budget: number) {
  const fast = new PolicyRun(context);
  fast.remaining = budget;
  const viaCompiled = outcomeOf(() => compileExpression(field, source).evaluate(fast));
  const slow = new PolicyRun(context);
  slow.remaining = budget;
  const expr = parseExpression(source);
  const code = compileNode(expr, source, field);
  const viaClosures = outcomeOf(() => {
    const value = code(slow);
    // What `CompiledExpression` says of an expression that gives something else.
    if (typeof value !== "boolean") {
      throw expressionError("POLICY_TYPE_MISMATCH", `a ${field} expression must give a bool`, expr.start);
    }
    return value;
  });
  return { viaCompiled, viaClosures, fastRemaining: fast.remaining, slowRemaining: slow.remaining };
}

const literal = fc.oneof(
  fc.constantFrom("'PRIVATE_KEY'", "'SIGN'", "'w1'", "'w2'", "''", "true", "false", "1", "0", "21000", "5"),
  fc.string({ maxLength: 4 }).map((text) => `'${text.replace(/['\\]/g, "")}'`),
  fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map((n) => `${n}`),
);
const path = fc.constantFrom(
  "activity.resource",
  "activity.action",
  "activity.type",
  "activity.params.encoding",
  "wallet.id",
  "wallet.name",
  "wallet.exported",
  "wallet.nested.deep",
  "wallet.list",
  "wallet.when",
  "wallet.number",
  "wallet.missing",
  "private_key.id",
  "eth.tx.value",
  "eth.tx.gas",
  "eth.tx.to",
  "approvers.count",
  "time.now",
  "nothing.here",
);
const equality = fc
  .tuple(path, fc.constantFrom("==", "!="), literal, fc.boolean())
  .map(([p, op, lit, flip]) => (flip ? `${lit} ${op} ${p}` : `${p} ${op} ${lit}`));
const ordering = fc
  .tuple(path, fc.constantFrom("<", "<=", ">", ">="), literal, fc.boolean())
  .map(([p, op, lit, flip]) => (flip ? `${lit} ${op} ${p}` : `${p} ${op} ${lit}`));
const membership = fc
  .tuple(fc.oneof(path, literal), fc.array(literal, { maxLength: 4 }), fc.boolean())
  .map(
    ([needle, items, typed]) => `${needle} in [${(typed ? items.filter((i) => i.startsWith("'")) : items).join(", ")}]`,
  );
const test = fc.oneof(equality, equality, ordering, membership, path, fc.constantFrom("true", "false"));
const { expression: source } = fc.letrec((tie) => ({
  expression: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    test,
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a}) && (${b})`),
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a}) || (${b})`),
    fc
      .tuple(fc.array(test, { minLength: 2, maxLength: 5 }), fc.constantFrom(" && ", " || "))
      .map(([tests, join]) => tests.join(join)),
    tie("expression").map((e) => `!(${e})`),
  ),
})) as { expression: fc.Arbitrary<string> };

const stringValue = fc.oneof(fc.constantFrom("PRIVATE_KEY", "SIGN", "w1", "w2", ""), fc.string({ maxLength: 4 }));
const wallet = fc.record(
  {
    id: fc.oneof(stringValue, fc.constant(null), fc.integer(), fc.boolean()),
    name: fc.oneof(stringValue, fc.string({ minLength: 1024, maxLength: 3000 })),
    exported: fc.boolean(),
    nested: fc.oneof(fc.record({ deep: stringValue }), fc.constant([]), fc.constant(null)),
    list: fc.array(stringValue, { maxLength: 2 }),
    when: fc.constant(new Date(0)),
    number: fc.oneof(fc.integer(), fc.constant(1.5), fc.constant(2 ** 60)),
  },
  { requiredKeys: [] },
);
const context = fc.record(
  {
    activity: fc.record({
      type: fc.constantFrom("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_TYPE_CREATE_USERS_V3"),
      resource: fc.constantFrom("PRIVATE_KEY", "USER"),
      action: fc.constantFrom("SIGN", "CREATE"),
      params: fc.oneof(fc.record({ encoding: stringValue }), fc.constant(Object.create(null))),
    }),
    wallet: fc.oneof(wallet, fc.constant(PolicyTimestamp.fromDate(new Date(0)))),
    private_key: fc.oneof(fc.record({ id: stringValue }), fc.constant("not an object")),
    eth: fc.oneof(
      fc.record(
        {
          tx: fc.record(
            {
              value: fc.oneof(
                fc.bigInt({ min: 0n, max: 1n << 70n }),
                fc.constantFrom(0n, 5n, 21000n, 1n << 256n, -(1n << 128n)),
                fc.integer(),
                fc.string({ maxLength: 3 }),
              ),
              gas: fc.oneof(fc.constantFrom(21000, 5, 0), fc.integer(), fc.constant(null)),
              to: fc.oneof(stringValue, fc.constant(undefined)),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constant(null),
    ),
    approvers: fc.constant([]),
    credentials: fc.constant([]),
  },
  { requiredKeys: ["activity", "approvers", "credentials"] },
) as fc.Arbitrary<PolicyContext>;
const budget = fc.oneof(fc.constant(MAX_EVALUATION_STEPS), fc.integer({ min: 0, max: 40 }));

describe("the field-test fast path", () => {
  it("gives the closures' bool or error, and takes the same steps, for any context", () => {
    fc.assert(
      fc.property(source, context, budget, fc.constantFrom("condition", "consensus"), (text, ctx, steps, field) => {
        const { viaCompiled, viaClosures, fastRemaining, slowRemaining } = bothWays(field, text, ctx, steps);
        expect(viaCompiled).toEqual(viaClosures);
        if ("value" in viaClosures) expect(fastRemaining).toBe(slowRemaining);
      }),
      { numRuns: 20_000 },
    );
    // 20,000 cases are CPU work, not a wait: on two shared cores under load they take about as long as the
    // default limit, which is meant for hung I/O.
  }, 120_000);

  it("reads each field once per decision, and still answers every policy as the closures do", () => {
    fc.assert(
      fc.property(fc.array(source, { minLength: 2, maxLength: 6 }), context, (texts, ctx) => {
        const cache: FieldCache = [];
        for (const text of texts) {
          const run = new PolicyRun(ctx, cache);
          const viaCompiled = outcomeOf(() => compileExpression("condition", text).evaluate(run));
          const { viaClosures, slowRemaining } = bothWays("condition", text, ctx, MAX_EVALUATION_STEPS);
          expect(viaCompiled).toEqual(viaClosures);
          if ("value" in viaClosures) expect(run.remaining).toBe(slowRemaining);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("answers the common conditions itself, with the steps the closures take", () => {
    const ctx = {
      activity: { type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", resource: "PRIVATE_KEY", action: "SIGN", params: {} },
      wallet: { id: "w1" },
      approvers: [],
      credentials: [],
    } as PolicyContext;
    const text = "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && wallet.id == 'w2'";
    const result = bothWays("condition", text, ctx, MAX_EVALUATION_STEPS);
    expect(result.viaCompiled).toEqual({ value: false });
    expect(result.fastRemaining).toBe(result.slowRemaining);
    // A budget one step short fails exactly where the closures fail.
    const used = MAX_EVALUATION_STEPS - result.slowRemaining;
    const short = bothWays("condition", text, ctx, used - 1);
    expect(short.viaCompiled).toEqual(short.viaClosures);
    expect("error" in short.viaCompiled && short.viaCompiled.error.details).toMatchObject({
      reason: "POLICY_EVALUATION_BUDGET_EXCEEDED",
    });
  });

  it("answers `in`, orderings of ints, `!` and nested `&&`/`||` itself, as the closures do", () => {
    const ctx = {
      activity: { type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", resource: "PRIVATE_KEY", action: "SIGN", params: {} },
      wallet: { id: "w1", exported: false },
      eth: { tx: { value: 10n ** 18n, gas: 21000, to: "0xabc" } },
      approvers: [],
      credentials: [],
    } as PolicyContext;
    const cases: [string, boolean][] = [
      ["activity.type in ['ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2']", true],
      ["eth.tx.value < 1000000000000000000 || eth.tx.gas >= 21000", true],
      ["!(wallet.exported) && (wallet.id == 'w2' || (eth.tx.to in ['0xabc'] && 5 > eth.tx.gas))", false],
      ["activity.resource in [] || wallet.exported", false],
    ];
    for (const [text, expected] of cases) {
      const tests = fieldFastPath(parseExpression(text), "condition");
      const run = new PolicyRun(ctx);
      expect(tests?.judge(run)).toBe(expected);
      const result = bothWays("condition", text, ctx, MAX_EVALUATION_STEPS);
      expect(result.viaClosures).toEqual({ value: expected });
      expect(run.remaining).toBe(result.slowRemaining);
    }
    // Not this path's to answer: a field the activity lacks, a type mismatch, a list on the right of `in`.
    for (const text of ["solana.tx.fee < 5", "eth.tx.to < 5", "'x' in wallet.list", "eth.tx.value in ['1']"]) {
      const tests = fieldFastPath(parseExpression(text), "condition");
      expect(tests === undefined || tests.judge(new PolicyRun(ctx)) === undefined).toBe(true);
    }
  });
});
