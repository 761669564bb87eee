/**
 * The policy index end to end: an organization with many policies of every shape signs raw payloads and
 * transactions of varying wallets, types, values and chains, by different members. Each activity's decision
 * as the engine keeps it (`explainActivity`) must be the plain evaluator's (`decide` of `custodian/policy`)
 * over the organization's policies, in the context the activity was judged in (its target's keywords as
 * `traceActivity` shows them).
 */
import fc from "fast-check";
import { parseEther, serializeTransaction } from "viem";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { decide, type Evaluation, type PolicyContext } from "../../src/policy/index.js";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { addPolicy, organizationWithMembers, tagUsers } from "../support/consensus.js";

const DIGEST = `0x${"ab".repeat(32)}`;

function transaction(value: bigint, chainId: number, to: `0x${string}`): string {
  return serializeTransaction({
    type: "eip1559",
    chainId,
    nonce: 7,
    to,
    value,
    gas: 21_000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  }).slice(2);
}

const TO = ["0x70997970c51812dc3a010c7d01b50e0d17dc79c8", "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"] as const;

/** A random condition over the fields these activities fill, keyed on a wallet most of the time. */
function conditions(walletIds: readonly string[]): fc.Arbitrary<string> {
  const wallet = fc.constantFrom(...walletIds, "not-a-wallet").map((id) => `'${id}'`);
  const test = fc.oneof(
    fc.tuple(fc.constantFrom("==", "!="), wallet).map(([op, id]) => `wallet.id ${op} ${id}`),
    fc
      .constantFrom("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_TYPE_SIGN_TRANSACTION_V2")
      .map((type) => `activity.type == '${type}'`),
    fc.constantFrom(
      "activity.resource == 'PRIVATE_KEY'",
      "activity.action in ['SIGN', 'EXPORT']",
      "wallet.exported",
      `eth.tx.to in ['${TO[0]}']`,
      "eth.tx.chain_id in [1, 10, 8453]",
      "eth.tx.chain_id == 10",
    ),
    fc
      .tuple(fc.constantFrom("<", "<=", ">", ">="), fc.constantFrom(0, 5, 10, 20))
      .map(([op, finney]) => `eth.tx.value ${op} ${BigInt(finney) * 10n ** 15n}`),
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
  const keyed = fc
    .tuple(wallet, fc.oneof(fc.constant(""), expression))
    .map(([id, rest]) => (rest === "" ? `wallet.id == ${id}` : `wallet.id == ${id} && (${rest})`));
  return fc.oneof(keyed, keyed, keyed, expression);
}

describe("decisions of an organization with many policies of every shape", () => {
  it("are kept with each activity exactly as the plain evaluator decides them", async () => {
    const { engine, root, organizationId, rootUserId, members } = await organizationWithMembers(["alice", "bob"]);
    const wallets: { walletId: string; address: string }[] = [];
    for (const walletName of ["hot", "cold", "spare"]) {
      const { activity } = await root.createWallet({
        organizationId,
        parameters: { walletName, accounts: [ETHEREUM_ACCOUNT] },
      });
      const { walletId, addresses } = activity.result!.createWalletResult as { walletId: string; addresses: string[] };
      wallets.push({ walletId, address: addresses[0] as string });
    }
    // A consensus that fails for an untagged approver (bob) and not for alice: a policy's record then
    // depends on who submits, whatever its condition gives.
    const tagId = await tagUsers(root, organizationId, "signers", [members.alice.userId]);
    const tags = { alice: [tagId], bob: [] as string[] };
    const policies = fc.sample(
      fc.record({
        effect: fc.constantFrom("EFFECT_ALLOW", "EFFECT_ALLOW", "EFFECT_ALLOW", "EFFECT_DENY") as fc.Arbitrary<
          "EFFECT_ALLOW" | "EFFECT_DENY"
        >,
        condition: conditions(wallets.map((w) => w.walletId)),
        consensus: fc.constantFrom(
          "",
          `approvers.any(user, user.id == '${members.alice.userId}')`,
          `approvers.any(user, user.id == '${members.bob.userId}')`,
          "approvers.count() >= 2",
          `approvers.all(user, user.tags[0] == '${tagId}')`,
        ),
        time: fc.constantFrom(undefined, undefined, undefined, "time.now > Timestamp('2020-01-01T00:00:00Z')"),
      }),
      { numRuns: 60, seed: 35 },
    );
    for (const [n, policy] of policies.entries()) {
      await addPolicy(root, organizationId, { policyName: `policy ${n}`, ...policy });
    }
    const { policies: stored } = await root.getPolicies({ organizationId });
    expect(stored).toHaveLength(policies.length);

    const activities = fc.sample(
      fc.record({
        member: fc.constantFrom("alice", "bob") as fc.Arbitrary<"alice" | "bob">,
        wallet: fc.constantFrom(0, 0, 1, 2),
        raw: fc.boolean(),
        finney: fc.constantFrom(1n, 5n, 10n, 15n, 25n),
        wei: fc.bigInt({ min: 0n, max: 1000n }),
        chainId: fc.constantFrom(1, 10, 137),
        to: fc.constantFrom(...TO),
      }),
      { numRuns: 40, seed: 4 },
    );
    const seen = new Set<string>();
    for (const { member, wallet, raw, finney, wei, chainId, to } of activities) {
      const signer = members[member].as;
      const { address } = wallets[wallet]!;
      const submitted = raw
        ? signer.signRawPayload({
            organizationId,
            parameters: {
              signWith: address,
              payload: DIGEST,
              encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
              hashFunction: "HASH_FUNCTION_NO_OP",
            },
          })
        : signer.signTransaction({
            organizationId,
            parameters: {
              signWith: address,
              type: "TRANSACTION_TYPE_ETHEREUM",
              unsignedTransaction: transaction(finney * parseEther("0.001") + wei, chainId, to),
            },
          });
      const activityId = await submitted.then(
        ({ activity }) => activity.id,
        (error: unknown) => {
          if (!(error instanceof CustodyError) || error.code !== "PERMISSION_DENIED") throw error;
          return error.details.activityId as string;
        },
      );
      const explanation = await engine.explainActivity(activityId);
      const [kept] = explanation.decisions;
      const { replay } = await engine.traceActivity(activityId);
      expect(replay).toBeDefined();
      const type = raw ? "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2" : "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";
      const context: PolicyContext = {
        activity: {
          type,
          kind: raw ? "SIGN_RAW_PAYLOAD" : "SIGN_TRANSACTION",
          resource: "PRIVATE_KEY",
          action: "SIGN",
          params: replay!.parameters as PolicyContext["activity"]["params"],
        },
        ...(replay!.decoded as Partial<PolicyContext>),
        approvers: [{ id: members[member].userId, tags: tags[member] }],
        time: { now: new Date() },
      };
      const plain = decide({
        policies: stored.map((p) => ({
          policyId: p.policyId,
          policyName: p.policyName,
          effect: p.effect as "EFFECT_ALLOW" | "EFFECT_DENY",
          condition: p.condition,
          consensus: p.consensus,
          ...(p.time === undefined ? {} : { time: p.time }),
        })),
        rootQuorum: { userIds: [rootUserId], threshold: 1 },
        context,
      });
      const byId = (list: readonly Evaluation[]) =>
        Object.fromEntries(list.map(({ policyId, outcome, error }) => [policyId, { outcome, error }]));
      expect(byId(kept!.evaluations)).toEqual(byId(plain.evaluations));
      expect(kept!.outcome).toBe(plain.outcome);
      seen.add(plain.outcome);
      for (const { outcome } of plain.evaluations) seen.add(outcome);
    }
    // The sequence reaches allowing and denying decisions, and every outcome a policy can have here.
    expect([...seen].sort()).toEqual([
      "ALLOW",
      "DENY",
      "OUTCOME_ALLOW",
      "OUTCOME_DENY_EXPLICIT",
      "OUTCOME_DENY_IMPLICIT",
      "OUTCOME_ERROR",
      "OUTCOME_REQUIRES_CONSENSUS",
    ]);
  });
});
