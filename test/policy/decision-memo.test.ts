import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideCompiled } from "../../src/policy/decide.js";
import { CompiledPolicy } from "../../src/policy/evaluate-policy.js";
import { markImmutable } from "../../src/policy/immutable-inputs.js";
import type { Policy, PolicyContext, PolicyUser } from "../../src/policy/types.js";

// The engine's decisions (`shared`) reuse the last evaluations of the same policies when everything their
// outcomes depend on is the same (src/policy/decide.ts). Whatever the sequence of contexts, each decision
// must equal a fresh one that reuses nothing.

const users = ["alice", "bob", "carol"].map((id) => markImmutable({ id, tags: [] as string[] })) as PolicyUser[];
const credentialOf = (user: PolicyUser) =>
  markImmutable({ id: `c-${user.id}`, user_id: user.id, type: "CREDENTIAL_TYPE_API_KEY_P256", public_key: "02ab" });
const credentials = users.map(credentialOf);

const test = fc
  .tuple(
    fc.constantFrom("activity.resource", "wallet.id", "wallet.name", "private_key.id", "wallet.missing"),
    fc.constantFrom("==", "!="),
    fc.constantFrom("'PRIVATE_KEY'", "'w1'", "'w2'", "'k1'", "true"),
  )
  .map(([path, op, literal]) => `${path} ${op} ${literal}`);
const condition = fc.oneof(
  fc.constant(""),
  test,
  fc.array(test, { minLength: 2, maxLength: 3 }).map((tests) => tests.join(" && ")),
  fc.array(test, { minLength: 2, maxLength: 3 }).map((tests) => tests.join(" || ")),
  fc.constant("wallet.id in ['w1', 'w2']"),
  fc.constant(
    "activity.type in ['ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'] && (wallet.id == 'w1' || !(wallet.name == 'hot'))",
  ),
  fc.constant("eth.tx.value < 1000 && eth.tx.to in ['0xabc', '0xdef']"),
  // Shapes the reuse does not cover: they must switch it off, not be answered from it.
  fc.constant("wallet.name.size() == 3"),
  fc.constant("eth.tx.value < wallet.name"),
);
const consensus = fc.constantFrom(
  "",
  "approvers.any(user, user.id == 'alice')",
  "approvers.count() >= 2",
  "credentials.any(c, c.user_id == 'bob')",
  "approvers.any(user, user.missing == 'x')",
);
const policy = fc.record({
  effect: fc.constantFrom("EFFECT_ALLOW", "EFFECT_DENY") as fc.Arbitrary<Policy["effect"]>,
  condition,
  consensus,
  time: fc.constantFrom(undefined, undefined, "time.now > Timestamp('2020-01-01T00:00:00Z')"),
});
const context = fc
  .record({
    resource: fc.constantFrom("PRIVATE_KEY", "USER"),
    wallet: fc.oneof(
      fc.record({ id: fc.constantFrom("w1", "w2"), name: fc.constantFrom("hot", "cold") }),
      fc.constant(undefined),
    ),
    privateKey: fc.oneof(fc.constant({ id: "k1" }), fc.constant(undefined)),
    tx: fc.oneof(
      fc.record({ value: fc.constantFrom(5n, 999, 1000n, 10n ** 20n), to: fc.constantFrom("0xabc", "0x123") }),
      fc.constant(undefined),
    ),
    voters: fc.subarray([0, 1, 2], { minLength: 1 }),
  })
  .map(
    ({ resource, wallet, privateKey, tx, voters }): PolicyContext => ({
      activity: { type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", resource, action: "SIGN" },
      ...(wallet ? { wallet } : {}),
      ...(privateKey ? { private_key: privateKey } : {}),
      ...(tx ? { eth: { tx } } : {}),
      approvers: voters.map((i) => users[i] as PolicyUser),
      credentials: voters.map((i) => credentials[i] as (typeof credentials)[number]),
      time: { now: new Date("2026-01-01T00:00:00Z") },
    }),
  );

describe("reusing a decision's evaluations", () => {
  it("gives every decision in a sequence exactly what deciding afresh gives", () => {
    fc.assert(
      fc.property(
        fc.array(policy, { minLength: 1, maxLength: 6 }),
        fc.array(context, { minLength: 1, maxLength: 8 }),
        (policies, contexts) => {
          const compiled = policies.map(
            (p, i) => new CompiledPolicy({ ...p, policyId: `p${i}`, policyName: `policy ${i}` }),
          );
          const fresh = policies.map(
            (p, i) => new CompiledPolicy({ ...p, policyId: `p${i}`, policyName: `policy ${i}` }),
          );
          for (const ctx of contexts) {
            const reused = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx, true);
            const expected = decideCompiled(fresh, { userIds: [], threshold: 1 }, ctx, false);
            expect(reused).toEqual(expected);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("reuses the very list when nothing the outcomes depend on changed, and not otherwise", () => {
    const compiled = [
      new CompiledPolicy({
        policyId: "p",
        policyName: "signer signs with w1",
        effect: "EFFECT_ALLOW",
        condition: "activity.resource == 'PRIVATE_KEY' && wallet.id == 'w1'",
        consensus: "approvers.any(user, user.id == 'alice')",
      }),
    ];
    const ctx = (walletId: string, voter: PolicyUser): PolicyContext => ({
      activity: { type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", resource: "PRIVATE_KEY", action: "SIGN" },
      wallet: { id: walletId },
      approvers: [voter],
      credentials: [credentialOf(voter)],
    });
    const alice = users[0] as PolicyUser;
    const first = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx("w1", alice), true);
    const again = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx("w1", alice), true);
    expect(again.evaluations).toBe(first.evaluations);
    expect(again.outcome).toBe("ALLOW");
    const other = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx("w2", alice), true);
    expect(other.evaluations).not.toBe(first.evaluations);
    expect(other.outcome).toBe("DENY");
    // A caller's own (mutable) approver is never answered from a remembered list.
    const mutable: PolicyUser = { id: "alice", tags: [] };
    const withMutable = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx("w1", mutable), true);
    mutable.id = "mallory";
    const changed = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx("w1", mutable), true);
    expect(withMutable.outcome).toBe("ALLOW");
    expect(changed.outcome).not.toBe("ALLOW");
  });

  it("reuses the list for conditions of `in`, int orderings and nested `&&`/`||` over `eth.tx` fields", () => {
    const conditions = [
      "activity.resource == 'PRIVATE_KEY' && wallet.id == 'w1'",
      "activity.type in ['ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'] && wallet.id == 'w2'",
      "(activity.resource == 'PRIVATE_KEY' || activity.resource == 'WALLET') && !(wallet.id == 'w1' || wallet.id == 'w3')",
      "eth.tx.value < 1000000000000000000 && eth.tx.chain_id in [1, 10] && wallet.id == 'w1'",
    ];
    const compiled = conditions.map(
      (condition, i) => new CompiledPolicy({ policyId: `p${i}`, effect: "EFFECT_ALLOW", condition }),
    );
    const alice = users[0] as PolicyUser;
    const ctx = (value: bigint): PolicyContext => ({
      activity: { type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", resource: "PRIVATE_KEY", action: "SIGN" },
      wallet: { id: "w1" },
      eth: { tx: { value, chain_id: 1n } },
      approvers: [alice],
      credentials: [credentialOf(alice)],
    });
    const first = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx(5n), true);
    const again = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx(5n), true);
    expect(again.evaluations).toBe(first.evaluations);
    expect(first.evaluations.map((e) => e.outcome)).toEqual([
      "OUTCOME_ALLOW",
      "OUTCOME_DENY_IMPLICIT",
      "OUTCOME_DENY_IMPLICIT",
      "OUTCOME_ALLOW",
    ]);
    const larger = decideCompiled(compiled, { userIds: [], threshold: 1 }, ctx(10n ** 19n), true);
    expect(larger.evaluations).not.toBe(first.evaluations);
    expect(larger.evaluations[3]?.outcome).toBe("OUTCOME_DENY_IMPLICIT");
  });
});
