/**
 * The Ethereum cases of the policy sample (`test/vectors/policy/policy-cases.sample.json`) end to end: each
 * case's transaction is built with viem from its `eth.tx`, its policies are created in a fresh organization
 * (the sample's user, tag and wallet ids replaced by the ones the engine gave), and the transaction is signed
 * through `sign_transaction` by the case's approvers. The decision must be the case's `expected`.
 *
 * Two translations are made to the policies, both named where they happen: ids (the engine makes its own),
 * and hex address literals lowercased, because custodian presents `eth.*` addresses in lowercase
 * (docs/spec/policy-language.md, decision 6) while some sample policies spell them checksummed; the last test shows
 * that a checksummed literal does not match.
 */
import {
  encodeFunctionData,
  type Hex,
  parseAbi,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from "viem";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import type { Activity } from "../../src/model/wire-types.js";
import { addPolicy, organizationWithMembers, tagUsers, walletParameters } from "../support/consensus.js";
import cases from "../vectors/policy/policy-cases.sample.json" with { type: "json" };

interface SampleCase {
  name: string;
  policies: { effect: "EFFECT_ALLOW" | "EFFECT_DENY"; condition?: string; consensus?: string; time?: string }[];
  context: {
    activity: { type: string };
    approvers: { id: string; tags: string[] }[];
    wallet: { id: string; label: string };
    eth?: { tx?: Record<string, unknown> };
    time?: { now: string };
  };
  expected: "ALLOW" | "DENY" | "CONSENSUS_NEEDED";
}

/** The ABIs the sample's decoded calls come from. */
const ABIS: Record<string, readonly unknown[]> = {
  transfer: parseAbi(["function transfer(address dst, uint256 wad)"]),
  executeBatch: parseAbi(["function executeBatch((address target, uint256 value, bytes data)[] calls)"]),
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ETH_ADDRESS = /0x[0-9a-fA-F]{40}\b/g;

/** A sample integer: a JSON number or `{"$int": "<decimal>"}`. */
function int(value: unknown): bigint {
  if (typeof value === "object" && value !== null && "$int" in value) return BigInt((value as { $int: string }).$int);
  return BigInt(value as number);
}

/** JSON values of `contract_call_args` as viem encodes them: `$int` objects become BigInt. */
function abiValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(abiValue);
  if (typeof value === "object" && value !== null && "$int" in value) return int(value);
  return value;
}

/** The case's transaction, built with viem: its call data encoded from the decoded call when it has one. */
function transactionOf(tx: Record<string, unknown>): TransactionSerializableEIP1559 {
  expect(tx.type).toBe("TYPE_2");
  const functionName = tx.function_name as string | undefined;
  const data = functionName
    ? encodeFunctionData({
        abi: ABIS[functionName]!,
        functionName,
        args: Object.values(tx.contract_call_args as object).map(abiValue),
      } as never)
    : (tx.data as Hex);
  return {
    type: "eip1559",
    chainId: Number(int(tx.chain_id)),
    nonce: Number(int(tx.nonce)),
    to: tx.to as Hex,
    value: int(tx.value),
    gas: int(tx.gas),
    maxFeePerGas: int(tx.max_fee_per_gas),
    maxPriorityFeePerGas: int(tx.max_priority_fee_per_gas),
    data,
  };
}

const ethereumCases = (cases as unknown as SampleCase[]).filter((c) => c.context.eth?.tx !== undefined);

async function runCase(sample: SampleCase, lowercaseAddresses: boolean) {
  const tx = sample.context.eth!.tx!;
  // Every user a policy or the approvals name becomes a member; the first approver submits.
  const userIds = [
    ...new Set([
      ...sample.context.approvers.map((a) => a.id),
      ...sample.policies.flatMap((p) => `${p.condition ?? ""} ${p.consensus ?? ""}`.match(UUID) ?? []),
    ]),
  ].filter((id) => id !== sample.context.wallet.id);
  const now = sample.context.time ? Date.parse(sample.context.time.now) : Date.UTC(2026, 0, 5, 12);
  const { root, organizationId, members } = await organizationWithMembers(
    userIds.map((_, i) => `member-${i}`),
    { clock: () => now },
  );
  const ids = new Map<string, string>(userIds.map((id, i) => [id, members[`member-${i}`]!.userId]));
  const memberOf = (sampleId: string) => members[`member-${userIds.indexOf(sampleId)}`]!;

  const tags = new Set(sample.context.approvers.flatMap((a) => a.tags));
  for (const tag of tags) {
    const tagged = sample.context.approvers.filter((a) => a.tags.includes(tag)).map((a) => ids.get(a.id)!);
    ids.set(tag, await tagUsers(root, organizationId, `tag-${ids.size}`, tagged));
  }
  const { activity: created } = await root.createWallet({
    organizationId,
    parameters: walletParameters(sample.context.wallet.label),
  });
  const wallet = created.result!.createWalletResult as { walletId: string; addresses: Hex[] };
  ids.set(sample.context.wallet.id, wallet.walletId);
  const signWith = wallet.addresses[0]!;

  const functionName = tx.function_name as string | undefined;
  if (functionName) {
    await root.createSmartContractInterface({
      organizationId,
      parameters: {
        smartContractAddress: tx.to as string,
        smartContractInterface: JSON.stringify(ABIS[functionName]),
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: functionName,
      },
    });
  }
  const translate = (expression: string | undefined) => {
    if (expression === undefined) return undefined;
    const withIds = expression.replace(UUID, (id) => ids.get(id) ?? id);
    return lowercaseAddresses ? withIds.replace(ETH_ADDRESS, (a) => a.toLowerCase()) : withIds;
  };
  for (const [i, policy] of sample.policies.entries()) {
    await addPolicy(root, organizationId, {
      policyName: `policy ${i}`,
      effect: policy.effect,
      ...(policy.condition ? { condition: translate(policy.condition)! } : {}),
      ...(policy.consensus ? { consensus: translate(policy.consensus)! } : {}),
      ...(policy.time ? { time: policy.time } : {}),
    });
  }

  const serialized = serializeTransaction(transactionOf(tx));
  const [submitter, ...others] = sample.context.approvers;
  // Approvals answer with the activity they voted on, typed as any activity.
  let activity: Activity;
  try {
    activity = (
      await memberOf(submitter!.id).as.signTransaction({
        organizationId,
        parameters: { signWith, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: serialized.slice(2) },
      })
    ).activity;
    for (const approver of others) {
      activity = (
        await memberOf(approver.id).as.approveActivity({
          organizationId,
          parameters: { fingerprint: activity.fingerprint },
        })
      ).activity;
    }
  } catch (error) {
    if (error instanceof CustodyError && error.code === "PERMISSION_DENIED") return { outcome: "DENY" as const };
    throw error;
  }
  if (activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED") return { outcome: "CONSENSUS_NEEDED" as const };
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  const { signedTransaction } = activity.result!.signTransactionResult as { signedTransaction: string };
  expect(await recoverTransactionAddress({ serializedTransaction: `0x${signedTransaction}` as never })).toBe(signWith);
  return { outcome: "ALLOW" as const };
}

describe("the sample's Ethereum policy cases, end to end", () => {
  it("covers a deny on eth.tx.to, a value limit and an ABI-decoded argument", () => {
    const conditions = ethereumCases.flatMap((c) => c.policies.map((p) => p.condition ?? ""));
    expect(conditions.some((c) => c.includes("eth.tx.to =="))).toBe(true);
    expect(conditions.some((c) => c.includes("eth.tx.value >"))).toBe(true);
    expect(conditions.some((c) => c.includes("contract_call_args"))).toBe(true);
    expect(ethereumCases.length).toBeGreaterThanOrEqual(10);
  });

  for (const sample of ethereumCases) {
    it(`${sample.name}: ${sample.expected}`, async () => {
      expect((await runCase(sample, true)).outcome).toBe(sample.expected);
    });
  }

  // The denials above could come from any failing clause; these variants flip the one clause each case is about.
  const variant = (name: string, tx: Record<string, unknown>): SampleCase => {
    const sample = structuredClone(ethereumCases.find((c) => c.name.startsWith(name))!);
    sample.context.eth!.tx = { ...sample.context.eth!.tx, ...tx };
    return sample;
  };

  it("allows the WETH transfer once its ABI-decoded amount is under the cap", async () => {
    const sample = variant("ABI args: WETH transfer", {
      contract_call_args: { dst: "0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7", wad: { $int: "500000000000000000" } },
    });
    expect((await runCase(sample, true)).outcome).toBe("ALLOW");
  });

  it("allows executeBatch once no decoded call carries ETH", async () => {
    const call = ["0x5aF5194B4b0909eB978e3Cf1e25333852277f07D", 0, "0x"];
    const sample = variant("executeBatch", { contract_call_args: { calls: [call, call] } });
    expect((await runCase(sample, true)).outcome).toBe("ALLOW");
  });

  it("allows the agent's transfer under the spending cap", async () => {
    const sample = variant("agent spending cap", { value: { $int: "400000000000000000" } });
    expect((await runCase(sample, true)).outcome).toBe("ALLOW");
  });

  it("denies a recipient off the allowlist", async () => {
    const sample = variant("quickstart allowlist", { to: "0x1111111111111111111111111111111111111111" });
    expect((await runCase(sample, true)).outcome).toBe("DENY");
  });

  it("shows the transaction type as activity.params.type", async () => {
    const sample = structuredClone(ethereumCases.find((c) => c.name.startsWith("condition-only"))!);
    sample.policies = [{ effect: "EFFECT_ALLOW", condition: "activity.params.type == 'TRANSACTION_TYPE_ETHEREUM'" }];
    expect((await runCase(sample, true)).outcome).toBe("ALLOW");
    sample.policies = [{ effect: "EFFECT_ALLOW", condition: "activity.params.type == 'TRANSACTION_TYPE_SOLANA'" }];
    expect((await runCase(sample, true)).outcome).toBe("DENY");
  });

  it("does not match a checksummed address literal: eth.* addresses are lowercase", async () => {
    const sample = ethereumCases.find((c) => c.name.startsWith("ints beyond int64"))!;
    expect(sample.expected).toBe("ALLOW");
    expect((await runCase(sample, false)).outcome).toBe("DENY");
  });
});
