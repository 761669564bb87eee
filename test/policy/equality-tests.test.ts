import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { compileExpression, PolicyRun } from "../../src/policy/compiled.js";
import { compileNode, type FieldCache, MAX_EVALUATION_STEPS } from "../../src/policy/evaluator.js";
import { parseExpression } from "../../src/policy/parser.js";
import { PolicyTimestamp } from "../../src/policy/timestamp.js";
import type { PolicyContext, PolicyExpressionField } from "../../src/policy/types.js";

// The equality fast path (src/policy/equality-tests.ts) must be invisible: for every context, the same bool
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
  const code = compileNode(parseExpression(source), source, field);
  const viaClosures = outcomeOf(() => {
    const value = code(slow);
    if (typeof value !== "boolean") throw new CustodyError("INVALID_ARGUMENT", "not a bool");
    return value;
  });
  return { viaCompiled, viaClosures, fastRemaining: fast.remaining, slowRemaining: slow.remaining };
}

const literal = fc.oneof(
  fc.constantFrom("'PRIVATE_KEY'", "'SIGN'", "'w1'", "'w2'", "''", "true", "false", "1"),
  fc.string({ maxLength: 4 }).map((text) => `'${text.replace(/['\\]/g, "")}'`),
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
  "approvers.count",
  "time.now",
  "nothing.here",
);
const test = fc
  .tuple(path, fc.constantFrom("==", "!="), literal, fc.boolean())
  .map(([p, op, lit, flip]) => (flip ? `${lit} ${op} ${p}` : `${p} ${op} ${lit}`));
const source = fc.oneof(
  test,
  fc
    .tuple(fc.array(test, { minLength: 2, maxLength: 5 }), fc.constantFrom(" && ", " || "))
    .map(([tests, join]) => tests.join(join)),
);

const stringValue = fc.oneof(fc.constantFrom("PRIVATE_KEY", "SIGN", "w1", "w2", ""), fc.string({ maxLength: 4 }));
const wallet = fc.record(
  {
    id: fc.oneof(stringValue, fc.constant(null), fc.integer(), fc.boolean()),
    name: fc.oneof(stringValue, fc.string({ minLength: 1024, maxLength: 3000 })),
    exported: fc.boolean(),
    nested: fc.oneof(fc.record({ deep: stringValue }), fc.constant([]), fc.constant(null)),
    list: fc.array(stringValue, { maxLength: 2 }),
    when: fc.constant(new Date(0)),
    number: fc.integer(),
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
    approvers: fc.constant([]),
    credentials: fc.constant([]),
  },
  { requiredKeys: ["activity", "approvers", "credentials"] },
) as fc.Arbitrary<PolicyContext>;
const budget = fc.oneof(fc.constant(MAX_EVALUATION_STEPS), fc.integer({ min: 0, max: 40 }));

describe("the equality fast path", () => {
  it("gives the closures' bool or error, and takes the same steps, for any context", () => {
    fc.assert(
      fc.property(source, context, budget, fc.constantFrom("condition", "consensus"), (text, ctx, steps, field) => {
        const { viaCompiled, viaClosures, fastRemaining, slowRemaining } = bothWays(field, text, ctx, steps);
        expect(viaCompiled).toEqual(viaClosures);
        if ("value" in viaClosures) expect(fastRemaining).toBe(slowRemaining);
      }),
      { numRuns: 20_000 },
    );
  });

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
});
