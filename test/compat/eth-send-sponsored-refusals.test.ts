/**
 * Sponsored sends refused, through the engine's methods on an anvil devnet with a sponsor: malformed
 * `gasStationNonce` and `deadline`, a chain the sponsor does not pay on, an unsponsored batch, a batch that
 * would revert, a passed deadline, an account delegating to another contract, and a sub-organization past its
 * own limit. Each names its field or reason and sends nothing. The sponsor's key appears in no activity, error
 * or status, and a malformed key is refused without being quoted. An account already delegating to a copy of
 * the executor (an earlier run's) keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCH_EXECUTOR_RUNTIME } from "../../src/chains/batch-executor-code.js";
import { callJsonRpc } from "../../src/chains/rpc.js";
import { CustodyEngine } from "../../src/index.js";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import { organizationWithMembers, refusal, walletParameters } from "../support/consensus.js";
import { p256KeyPair, subOrganizationParameters } from "../support/engine.js";

const CAIP2 = "eip155:31337";
const OTHER = "eip155:31338";
const V2 = "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2" as const;
// anvil's fourth funded development key and its address.
const SPONSOR_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const SPONSOR = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const REVERT = "0x00000000000000000000000000000000000c0de2";
// MSTORE(0, 0xdeadbeef); REVERT(28, 4).
const REVERT_CODE = "0x63deadbeef5f526004601cfd";
const RECIPIENT = "0x000000000000000000000000000000000000beef";

let anvil: RunningAnvil;
let fixture: Awaited<ReturnType<typeof organizationWithMembers<never>>>;
let from: string;

const rpc = (method: string, params: unknown[] = []) => callJsonRpc(anvil.rpcUrl, method, params);
const sponsorNonce = async () => BigInt((await rpc("eth_getTransactionCount", [SPONSOR, "pending"])) as string);

function send(parameters: Record<string, unknown>, engine = fixture.root, organizationId = fixture.organizationId) {
  return engine.ethSendTransaction({
    organizationId,
    type: V2,
    parameters: { from, caip2: CAIP2, sponsor: true, calls: [{ to: RECIPIENT }], ...parameters },
  } as never);
}

beforeAll(async () => {
  anvil = await startAnvil();
  fixture = await organizationWithMembers([], {
    chains: { [CAIP2]: anvil.rpcUrl, [OTHER]: anvil.rpcUrl },
    gasStation: { sponsorPrivateKey: SPONSOR_KEY, chains: [CAIP2] },
  });
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: walletParameters("W"),
  });
  from = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult.addresses[0]!;
  await rpc("anvil_setCode", [REVERT, REVERT_CODE]);
  await fixture.root.upsertGasUsageConfig({
    organizationId: fixture.organizationId,
    parameters: { orgWindowLimitUsd: "1000", subOrgWindowLimitUsd: "0.000001", windowDurationMinutes: "60" },
  });
}, 60_000);

afterAll(async () => {
  await fixture?.engine.close();
  await anvil?.stop();
});

describe("sponsored sends refused before anything is sent", () => {
  it("a malformed gasStationNonce or deadline is INVALID_ARGUMENT naming it", async () => {
    for (const [member, value] of [
      ["gasStationNonce", "abc"],
      ["gasStationNonce", "-1"],
      ["deadline", "soon"],
      ["deadline", "1.5"],
    ] as const) {
      const error = await refusal(send({ [member]: value }), "INVALID_ARGUMENT");
      expect(error.details.field).toBe(`parameters.${member}`);
    }
  });

  it("a chain the sponsor does not pay on, or a batch without sponsor: true, is GAS_STATION_UNAVAILABLE", async () => {
    const nonce = await sponsorNonce();
    await refusal(send({ caip2: OTHER }), "FAILED_PRECONDITION", "GAS_STATION_UNAVAILABLE");
    const batch = await refusal(
      send({ sponsor: false, calls: [{ to: RECIPIENT }, { to: RECIPIENT }] }),
      "FAILED_PRECONDITION",
      "GAS_STATION_UNAVAILABLE",
    );
    expect(batch.details.field).toBe("parameters.calls");
    expect(await sponsorNonce()).toBe(nonce);
  });

  it("a batch that would revert is TRANSACTION_REVERTS with the call's revert data", async () => {
    // The executor is deployed on this first sponsored send to the chain; the batch itself is not sent.
    const nonce = await sponsorNonce();
    const error = await refusal(
      send({ calls: [{ to: RECIPIENT }, { to: REVERT }] }),
      "FAILED_PRECONDITION",
      "TRANSACTION_REVERTS",
    );
    expect(error.message).toContain("deadbeef");
    expect(await sponsorNonce()).toBe(nonce + 1n);
  });

  it("a passed deadline is DEADLINE_PASSED", async () => {
    const nonce = await sponsorNonce();
    await refusal(send({ deadline: "1" }), "FAILED_PRECONDITION", "DEADLINE_PASSED");
    expect(await sponsorNonce()).toBe(nonce);
  });

  it("an account delegating to another contract is ACCOUNT_DELEGATED_ELSEWHERE", async () => {
    const { activity } = await fixture.root.createWallet({
      organizationId: fixture.organizationId,
      parameters: walletParameters("Delegated elsewhere"),
    });
    const other = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult.addresses[0]!;
    await rpc("anvil_setCode", [other, `0xef0100${"12".repeat(20)}`]);
    const nonce = await sponsorNonce();
    const error = await refusal(send({ from: other }), "FAILED_PRECONDITION", "ACCOUNT_DELEGATED_ELSEWHERE");
    expect(error.message).toContain("eth_undelegate_7702");
    expect(await sponsorNonce()).toBe(nonce);
  });

  it("a sub-organization past its own limit is GAS_USAGE_LIMIT_EXCEEDED, below the billing organization's", async () => {
    const { activity } = await fixture.root.createSubOrganization({
      organizationId: fixture.organizationId,
      parameters: subOrganizationParameters("Sub", p256KeyPair()),
    });
    const subOrganizationId = activity.result!.createSubOrganizationResultV8.subOrganizationId;
    const subRootUserId = activity.result!.createSubOrganizationResultV8.rootUserIds![0]!;
    const sub = fixture.engine.as({ userId: subRootUserId });
    const wallet = await sub.createWallet({ organizationId: subOrganizationId, parameters: walletParameters("S") });
    const subFrom = (wallet.activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult
      .addresses[0]!;
    const nonce = await sponsorNonce();
    const error = await refusal(
      send({ from: subFrom }, sub, subOrganizationId),
      "FAILED_PRECONDITION",
      "GAS_USAGE_LIMIT_EXCEEDED",
    );
    expect(error.message).toContain("the sub-organization's gas usage limit of 0.000001 USD");
    expect(await sponsorNonce()).toBe(nonce);
    expect(await sub.getGasUsage({ organizationId: subOrganizationId })).toMatchObject({
      windowLimitUsd: "0.000001",
      usageUsd: "0",
    });
  });

  it("the sponsor's key appears in no activity, and a malformed key is refused without being quoted", async () => {
    const sent = await send({});
    expect(sent.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { activities } = await fixture.root.getActivities({ organizationId: fixture.organizationId });
    expect(JSON.stringify(activities)).not.toContain(SPONSOR_KEY.slice(2));
    let thrown: unknown;
    try {
      new CustodyEngine({ gasStation: { sponsorPrivateKey: "0xsecretsecret" } });
    } catch (error) {
      thrown = error;
    }
    expect(String((thrown as Error).message)).toContain("gasStation.sponsorPrivateKey");
    expect(JSON.stringify(thrown) + String(thrown)).not.toContain("secretsecret");
  });
});

describe("an account delegating to a copy of the executor an earlier run deployed", () => {
  it("keeps it: the send carries no authorization and the account's nonce stays", async () => {
    const earlier = "0x00000000000000000000000000000000000e0e0e";
    await rpc("anvil_setCode", [earlier, BATCH_EXECUTOR_RUNTIME]);
    const { activity } = await fixture.root.createWallet({
      organizationId: fixture.organizationId,
      parameters: walletParameters("Delegated earlier"),
    });
    const account = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult
      .addresses[0]!;
    await rpc("anvil_setCode", [account, `0xef0100${earlier.slice(2)}`]);
    const sent = await send({ from: account });
    expect(sent.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { sendTransactionStatusId } = sent.activity.result!.ethSendTransactionResultV2 as {
      sendTransactionStatusId: string;
    };
    const status = await fixture.root.getSendTransactionStatus({
      organizationId: fixture.organizationId,
      sendTransactionStatusId,
    });
    let receipt: Record<string, string> | null = null;
    // anvil answers the broadcast before its automine has included it.
    for (let attempt = 0; receipt === null && attempt < 250; attempt++) {
      receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string> | null;
      if (receipt === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(receipt).toMatchObject({ status: "0x1", type: "0x2", to: account.toLowerCase() });
    expect(await rpc("eth_getTransactionCount", [account, "latest"])).toBe("0x0");
    expect(await rpc("eth_getCode", [account, "latest"])).toBe(`0xef0100${earlier.slice(2)}`);
  });
});
