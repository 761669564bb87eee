import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideCompiled } from "../../src/policy/decide.js";
import { CompiledPolicy } from "../../src/policy/evaluate-policy.js";
import { markImmutable } from "../../src/policy/immutable-inputs.js";
import type { Policy, PolicyContext, PolicyUser } from "../../src/policy/types.js";

// The engine's decisions (`shared`) index policies on what their conditions test and judge only those that can
// apply (src/policy/policy-index.ts, shared-evaluations.ts). Whatever the policies and the sequence of
// activities, each decision must equal the plain evaluator's: every policy judged, nothing reused.

const users = ["alice", "bob", "carol"].map((id) => markImmutable({ id, tags: [] as string[] })) as PolicyUser[];
const credentialOf = (user: PolicyUser) =>
  markImmutable({ id: `c-${user.id}`, user_id: user.id, type: "CREDENTIAL_TYPE_API_KEY_P256", public_key: "02ab" });
const credentials = users.map(credentialOf);

const LONG = "w".repeat(1100);
const walletIds = ["w1", "w2", "w3", "w4"];

const stringPath = fc.constantFrom("activity.type", "activity.resource", "wallet.id", "wallet.name", "eth.tx.to");
const intPath = fc.constantFrom("eth.tx.value", "eth.tx.chain_id");
const anyPath = fc.oneof(stringPath, intPath, fc.constantFrom("wallet.exported", "wallet.missing", "solana.tx.fee"));
const stringLiteral = fc.constantFrom(
  "'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
  "'ACTIVITY_TYPE_SIGN_TRANSACTION_V2'",
  "'PRIVATE_KEY'",
  "'USER'",
  "'hot'",
  "'0xabc'",
  ...walletIds.map((id) => `'${id}'`),
);
const intLiteral = fc.constantFrom("1", "10", "8453", "5", "1000", "100000000000000000000");
const literal = fc.oneof(stringLiteral, stringLiteral, intLiteral, fc.constantFrom("true", "false"));

const flip = (a: string, op: string, b: string, flipped: boolean) => (flipped ? `${b} ${op} ${a}` : `${a} ${op} ${b}`);
const test = fc.oneof(
  // Equality of a field with a literal of its type, of another type, or the wrong way round.
  fc
    .tuple(anyPath, fc.constantFrom("==", "==", "!="), literal, fc.boolean())
    .map(([path, op, lit, flipped]) => flip(path, op, lit, flipped)),
  fc.tuple(stringPath, stringLiteral).map(([path, lit]) => `${path} == ${lit}`),
  // Membership, in a list of one type or an empty one.
  fc
    .tuple(anyPath, fc.oneof(fc.array(stringLiteral, { maxLength: 3 }), fc.array(intLiteral, { maxLength: 3 })))
    .map(([path, items]) => `${path} in [${items.join(", ")}]`),
  fc.tuple(intPath, fc.constantFrom("<", "<=", ">", ">="), intLiteral).map(([path, op, lit]) => `${path} ${op} ${lit}`),
  fc.constantFrom(
    "wallet.exported",
    "true",
    "false",
    // Shapes the index cannot key, or whose fast path never answers: judged every time.
    "wallet.id == wallet.name",
    "'a' == 1",
    "1 < 2",
    "'hot' in [1, 2]",
    "wallet.name.size() == 3",
    "eth.tx.value < wallet.name",
  ),
);
const { expression } = fc.letrec((tie) => ({
  expression: fc.oneof(
    { depthSize: "small" },
    test,
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a}) && (${b})`),
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a}) || (${b})`),
    tie("expression").map((e) => `!(${e})`),
  ),
})) as { expression: fc.Arbitrary<string> };
// Conditions most policies of an organization have: one field telling them apart, besides other tests.
const keyed = fc
  .tuple(fc.constantFrom(...walletIds), fc.oneof(expression, fc.constant("")), fc.boolean())
  .map(([id, rest, either]) => {
    const key = either ? `(wallet.id == '${id}' || wallet.id == 'w9')` : `wallet.id in ['${id}', 'w8']`;
    return rest === "" ? key : `${key} && (${rest})`;
  });
const condition = fc.oneof(fc.constant(""), expression, keyed, keyed, keyed);
const consensus = fc.constantFrom(
  "",
  "approvers.any(user, user.id == 'alice')",
  "approvers.count() >= 2",
  "credentials.any(c, c.user_id == 'bob')",
  "approvers.any(user, user.missing == 'x')",
  "approvers.any(user, user.id ==",
);
const policy = fc.record({
  effect: fc.constantFrom("EFFECT_ALLOW", "EFFECT_ALLOW", "EFFECT_DENY") as fc.Arbitrary<Policy["effect"]>,
  condition,
  consensus,
  time: fc.constantFrom(undefined, undefined, undefined, "time.now > Timestamp('2020-01-01T00:00:00Z')"),
});

const context = fc
  .record({
    type: fc.constantFrom("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
    resource: fc.constantFrom("PRIVATE_KEY", "USER"),
    wallet: fc.oneof(
      fc.record(
        {
          id: fc.oneof(fc.constantFrom(...walletIds, "w8", "w9"), fc.constantFrom(LONG, 5, true, null)),
          name: fc.constantFrom("hot", "w1", LONG),
          exported: fc.oneof(fc.boolean(), fc.constant("no")),
        },
        { requiredKeys: ["id"] },
      ),
      fc.constant(undefined),
    ),
    tx: fc.oneof(
      fc.record(
        {
          value: fc.constantFrom(5n, 999, 1000n, 10n ** 20n, "5", 2 ** 60),
          chain_id: fc.constantFrom(1, 10n, 8453, "1"),
          to: fc.constantFrom("0xabc", "0x123"),
        },
        { requiredKeys: ["value"] },
      ),
      fc.constant(undefined),
    ),
    voters: fc.oneof(
      fc.subarray([0, 1, 2], { minLength: 1 }),
      fc.constant<number[]>([0]),
      fc.constant<number[]>([]),
    ) as fc.Arbitrary<number[]>,
    // Now and then an approver the caller built (not immutable): never answered from what was kept.
    mutable: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  })
  .map(
    ({ type, resource, wallet, tx, voters, mutable }): PolicyContext => ({
      activity: { type, kind: type.slice(14, -3), resource, action: "SIGN", params: {} },
      ...(wallet ? { wallet } : {}),
      ...(tx ? { eth: { tx } } : {}),
      approvers: voters.map((i) => (mutable ? { ...(users[i] as PolicyUser) } : (users[i] as PolicyUser))),
      credentials: voters.map((i) => credentials[i] as (typeof credentials)[number]),
      time: { now: new Date("2026-01-01T00:00:00Z") },
    }),
  );

const rootQuorum = { userIds: ["root"], threshold: 1 };

function compiled(policies: readonly Omit<Policy, "policyId" | "policyName">[]) {
  return Object.freeze(
    policies.map((p, i) => new CompiledPolicy({ ...p, policyId: `p${i}`, policyName: `policy ${i}` })),
  );
}

describe("the policy index", () => {
  it("gives every decision in a sequence exactly what the plain evaluator gives", () => {
    fc.assert(
      fc.property(
        fc.array(policy, { minLength: 1, maxLength: 16 }),
        fc.array(context, { minLength: 1, maxLength: 12 }),
        (policies, contexts) => {
          const indexed = compiled(policies);
          for (const ctx of contexts) {
            const decision = decideCompiled(indexed, rootQuorum, ctx, true);
            // Compiled afresh each time: nothing of the indexed list's is reused.
            const plain = decideCompiled(compiled(policies), rootQuorum, ctx, false);
            expect(decision).toEqual(plain);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  }, 120_000);

  it("answers many keyed policies the same, and with the very list, when only values no key reads change", () => {
    const conditions = Array.from(
      { length: 100 },
      (_, n) =>
        [
          `activity.resource == 'PRIVATE_KEY' && wallet.id == 'w${n}'`,
          `activity.type in ['ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'] && wallet.id == 'w${n}'`,
          `(activity.resource == 'PRIVATE_KEY' || activity.resource == 'WALLET') && (wallet.id == 'w${n}' || (wallet.id == 'cold-${n}' && !(activity.action == 'EXPORT')))`,
          `activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.value < ${n + 1}000 && eth.tx.chain_id in [1, 10] && wallet.id == 'w${n}'`,
        ][n % 4] as string,
    );
    const policies = conditions.map((condition, n) => ({
      effect: "EFFECT_ALLOW" as const,
      condition,
      consensus: `approvers.any(user, user.id == '${n === 99 ? "alice" : `member-${n}`}')`,
    }));
    const indexed = compiled(policies);
    const alice = users[0] as PolicyUser;
    const ctx = (value: bigint): PolicyContext => ({
      activity: { type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", resource: "PRIVATE_KEY", action: "SIGN", params: {} },
      wallet: { id: "w99" },
      eth: { tx: { value, chain_id: 1n } },
      approvers: [alice],
      credentials: [credentialOf(alice)],
    });
    const lists = [];
    for (const value of [1n, 2n, 3n, 4n, 5n]) {
      const decision = decideCompiled(indexed, rootQuorum, ctx(value), true);
      expect(decision).toEqual(decideCompiled(compiled(policies), rootQuorum, ctx(value), false));
      expect(decision.outcome).toBe("ALLOW");
      lists.push(decision.evaluations);
    }
    // The value read by the one policy that can apply changes, and its outcome does not.
    for (const list of lists) expect(list).toBe(lists[0]);
    // A value over the applying policy's limit changes its outcome, and only its.
    const over = decideCompiled(indexed, rootQuorum, ctx(10n ** 6n), true);
    expect(over.evaluations).not.toBe(lists[0]);
    expect(over.outcome).toBe("DENY");
    expect(over).toEqual(decideCompiled(compiled(policies), rootQuorum, ctx(10n ** 6n), false));
  });
});
