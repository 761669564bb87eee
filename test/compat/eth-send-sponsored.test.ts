/**
 * Sponsored, batched sends of an agent wallet end to end on an anvil devnet, through the official clients
 * against the HTTP adapter of an engine whose host gives a sponsor (engine option `gasStation`, a funded
 * anvil key). The agent's account holds no ether: the sponsor pays, the account delegates by EIP-7702 to
 * custodian's batch executor on its first send, and the calls run in one transaction.
 * - allowed: `@turnkey/core`'s `ethSendTransaction` with `sponsor: true` and `calls`, then `pollTransactionStatus`,
 *   reaches INCLUDED; the chain shows the sponsor's transaction and the calls' effects;
 * - needs approval: `@turnkey/sdk-server` answers CONSENSUS_NEEDED, nothing is sent; `@turnkey/http`'s
 *   `approveActivity` by the reviewer sends it and it reaches INCLUDED;
 * - denied: the policy's denial, nothing sent;
 * - `get_gas_usage` (`@turnkey/sdk-server`) counts what the sponsor paid; a send past the limit is refused and
 *   nothing is sent; `get_nonces`' `gasStationNonce` (`@turnkey/http`) follows the batches;
 * - `eth_undelegate_7702` clears a delegation custodian made, and one written directly with `anvil_setCode`.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import type { Session } from "@turnkey/core";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJsonRpc } from "../../src/chains/rpc.js";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import {
  addPolicy,
  addSendPolicies,
  BLOCKED_TO,
  type Member,
  organizationWithMembers,
  REVIEWED_TO,
  walletParameters,
} from "../support/consensus.js";
import { coreClient } from "../support/core-client.js";
import type { ApiKeyPair } from "../support/engine.js";
import { EXPLICIT_DENIAL, officialRefusal } from "../support/official-refusal.js";
import { type RunningServer, sdkClient, serve } from "../support/server.js";

// A devnet chain id, which the clients' request types (the hosted chains only) do not list.
const CAIP2 = "eip155:31337" as "eip155:1";
// anvil's second funded development key and its address: the host's sponsor.
const SPONSOR_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const SPONSOR = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const STORE = "0x00000000000000000000000000000000000c0de1";
// SSTORE(CALLDATALOAD(0), CALLVALUE + 1): a call stores (its value + 1) at the slot its first word names.
const STORE_CODE = "0x600134015f355500";
const REVERTER = "0x00000000000000000000000000000000000c0de2";
// PUSH0 PUSH0 REVERT: every call reverts.
const REVERTER_CODE = "0x5f5ffd";

let anvil: RunningAnvil;
let server: RunningServer;
let fixture: Awaited<ReturnType<typeof organizationWithMembers<"agent" | "reviewer">>>;
let agent: Member;
let account: string;

const rpc = (method: string, params: unknown[] = []) => callJsonRpc(anvil.rpcUrl, method, params);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
const stored = async (slot: bigint) => BigInt((await rpc("eth_getStorageAt", [STORE, word(slot), "latest"])) as string);
const sponsorNonce = async () => BigInt((await rpc("eth_getTransactionCount", [SPONSOR, "pending"])) as string);

const sdk = (key: ApiKeyPair) => sdkClient(server, key, fixture.organizationId);

function http(key: ApiKeyPair) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
}

/** A `@turnkey/core` client whose active session stamps with `member`'s API key. */
function core(member: Member) {
  const kit = coreClient({
    apiBaseUrl: server.baseUrl,
    authProxyUrl: server.baseUrl,
    authProxyConfigId: "unused",
    organizationId: fixture.organizationId,
  });
  kit.keys.keys.set(member.key.publicKey, member.key.privateKey);
  const session = {
    sessionType: "SESSION_TYPE_READ_WRITE",
    userId: member.userId,
    organizationId: fixture.organizationId,
    expiry: Math.floor(Date.now() / 1000) + 3600,
    expirationSeconds: "3600",
    publicKey: member.key.publicKey,
    token: "",
  } as unknown as Session;
  kit.storage.setStorageValue("member", session);
  kit.storage.setActiveSessionKey("member");
  return kit.client;
}

/** A call to the store contract that sets `slot`. */
const storeCall = (slot: bigint, value = "0") => ({ to: STORE, value, data: word(slot) });

/** The agent's sponsored `eth_send_transaction` of `calls` through `@turnkey/sdk-server`. */
const sponsoredSend = (
  calls: { to: string; value: string; data: string }[],
  options: { gasStationNonce?: string } = {},
) => sdk(agent.key).ethSendTransaction({ from: account, caip2: CAIP2, sponsor: true, ...options, calls } as never);

/** Polls get_send_transaction_status (`@turnkey/http`) until the send leaves BROADCASTED. */
async function settled(sendTransactionStatusId: string) {
  for (;;) {
    const status = await http(agent.key).getSendTransactionStatus({
      organizationId: fixture.organizationId,
      sendTransactionStatusId,
    });
    if (status.txStatus !== "BROADCASTED") return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  anvil = await startAnvil();
  fixture = await organizationWithMembers(["agent", "reviewer"], {
    chains: { [CAIP2]: anvil.rpcUrl },
    gasStation: { sponsorPrivateKey: SPONSOR_KEY, nativeTokenUsd: "2000" },
    sendStatusPollIntervalMs: 50,
  });
  agent = fixture.members.agent;
  server = await serve(fixture.engine);
  await rpc("anvil_setCode", [STORE, STORE_CODE]);
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: walletParameters("Agent wallet"),
  });
  account = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult.addresses[0]!;
  await fixture.root.upsertGasUsageConfig({
    organizationId: fixture.organizationId,
    parameters: { orgWindowLimitUsd: "100", subOrgWindowLimitUsd: "10", windowDurationMinutes: "60" },
  });
  await addSendPolicies(fixture.root, fixture.organizationId, fixture.members, {
    to: STORE,
    policyName: "the agent calls the store contract",
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fixture?.engine.close();
  await anvil?.stop();
});

describe("an allowed sponsored batch", () => {
  it("runs its calls in one transaction the sponsor pays, delegating the account on first use, and reaches INCLUDED", async () => {
    expect(BigInt((await rpc("eth_getBalance", [account, "latest"])) as string)).toBe(0n);
    const client = core(agent);
    const sendTransactionStatusId = await client.ethSendTransaction({
      transaction: { from: account, caip2: CAIP2, sponsor: true, calls: [storeCall(1n), storeCall(2n)] } as never,
    });
    const status = await client.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 50 });
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string>;
    expect(receipt).toMatchObject({ status: "0x1", from: SPONSOR, to: account.toLowerCase(), type: "0x4" });
    expect(await stored(1n)).toBe(1n);
    expect(await stored(2n)).toBe(1n);
    // The account delegates to the executor, and paid nothing.
    expect(String(await rpc("eth_getCode", [account, "latest"]))).toMatch(/^0xef0100[0-9a-f]{40}$/);
    expect(BigInt((await rpc("eth_getBalance", [account, "latest"])) as string)).toBe(0n);
  });

  it("a later batch is a plain EIP-1559 call of the delegated account; gasStationNonce follows", async () => {
    const { organizationId } = fixture;
    const before = await http(agent.key).getNonces({
      organizationId,
      address: account,
      caip2: CAIP2,
      gasStationNonce: true,
    });
    expect(before).toEqual({ gasStationNonce: "1" });
    const sent = await sponsoredSend([storeCall(3n), storeCall(4n), storeCall(5n)], { gasStationNonce: "1" });
    const status = await settled(sent.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string>;
    expect(receipt).toMatchObject({ status: "0x1", from: SPONSOR, type: "0x2" });
    expect([await stored(3n), await stored(4n), await stored(5n)]).toEqual([1n, 1n, 1n]);
    expect(
      await http(agent.key).getNonces({
        organizationId,
        address: account,
        caip2: CAIP2,
        gasStationNonce: true,
        nonce: true,
      }),
      // The account sent nothing; its EIP-7702 authorization took its nonce 0.
    ).toEqual({ nonce: "1", gasStationNonce: "2" });
  });

  it("a stale gasStationNonce is refused naming it, and nothing is sent", async () => {
    const nonce = await sponsorNonce();
    const refused = await officialRefusal(sponsoredSend([storeCall(6n)], { gasStationNonce: "0" }));
    expect(refused).toMatchObject({ code: 9, reason: "GAS_STATION_NONCE_MISMATCH" });
    expect(await sponsorNonce()).toBe(nonce);
  });
});

describe("a sponsored batch needing approval", () => {
  it("waits in CONSENSUS_NEEDED with nothing sent; the reviewer's approval sends it and it reaches INCLUDED", async () => {
    const nonce = await sponsorNonce();
    const pending = await sponsoredSend([storeCall(7n), { to: REVIEWED_TO, value: "0", data: "0x" }]);
    expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(await sponsorNonce()).toBe(nonce);
    expect(await stored(7n)).toBe(0n);
    const { activity } = await http(fixture.members.reviewer.key).approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters: { fingerprint: pending.activity.fingerprint },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { sendTransactionStatusId } = activity.result.ethSendTransactionResultV2 as {
      sendTransactionStatusId: string;
    };
    expect((await settled(sendTransactionStatusId)).txStatus).toBe("INCLUDED");
    expect(await stored(7n)).toBe(1n);
    expect(await sponsorNonce()).toBe(nonce + 1n);
  });
});

describe("a denied sponsored batch", () => {
  it("answers the policy's denial, and nothing is sent", async () => {
    const nonce = await sponsorNonce();
    const refused = await officialRefusal(sponsoredSend([storeCall(8n), { to: BLOCKED_TO, value: "0", data: "0x" }]));
    expect(refused).toMatchObject({ code: 7, message: EXPLICIT_DENIAL });
    expect(await sponsorNonce()).toBe(nonce);
    expect(await stored(8n)).toBe(0n);
  });
});

describe("gas usage", () => {
  it("counts what the sponsor paid, and a send past the limit is refused with nothing sent", async () => {
    const usage = await sdk(agent.key).getGasUsage({});
    expect(usage.windowLimitUsd).toBe("100");
    expect(usage.windowDurationMinutes).toBe(60);
    // Four sponsored sends so far, each costing the sponsor something.
    expect(Number(usage.usageUsd)).toBeGreaterThan(0);
    // The limit lowered to what was used: the next send would pass it.
    await fixture.root.upsertGasUsageConfig({
      organizationId: fixture.organizationId,
      parameters: { orgWindowLimitUsd: usage.usageUsd, subOrgWindowLimitUsd: "10", windowDurationMinutes: "60" },
    });
    const nonce = await sponsorNonce();
    const refused = await officialRefusal(sponsoredSend([storeCall(9n)]));
    expect(refused).toMatchObject({ code: 9, reason: "GAS_USAGE_LIMIT_EXCEEDED" });
    expect(refused.message).toContain(`gas usage limit of ${usage.usageUsd} USD per 60 minutes`);
    expect(await sponsorNonce()).toBe(nonce);
    expect(await stored(9n)).toBe(0n);
    expect((await sdk(agent.key).getGasUsage({})).usageUsd).toBe(usage.usageUsd);
  });
});

describe("eth_undelegate_7702", () => {
  const code = async () => String(await rpc("eth_getCode", [account, "latest"]));

  beforeAll(async () => {
    await addPolicy(fixture.root, fixture.organizationId, {
      policyName: "the agent undelegates",
      effect: "EFFECT_ALLOW",
      condition: "activity.type == 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702'",
      consensus: `approvers.any(user, user.id == '${agent.userId}')`,
    });
    // The account pays for its own undelegation, as on the hosted service.
    await rpc("anvil_setBalance", [account, "0x2386f26fc10000"]); // 0.01 ETH
    await fixture.root.upsertGasUsageConfig({
      organizationId: fixture.organizationId,
      parameters: { orgWindowLimitUsd: "100", subOrgWindowLimitUsd: "10", windowDurationMinutes: "60" },
    });
  });

  it("clears the delegation (@turnkey/sdk-server); a later sponsored send delegates again; @turnkey/http clears it again", async () => {
    expect(await code()).toMatch(/^0xef0100/);
    const cleared = await sdk(agent.key).ethUndelegate7702({ from: account, caip2: CAIP2 } as never);
    const status = await settled(cleared.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string>;
    expect(receipt).toMatchObject({ status: "0x1", from: account.toLowerCase(), type: "0x4" });
    expect(await code()).toBe("0x");

    const sent = await sponsoredSend([storeCall(10n)]);
    const again = (await rpc("eth_getTransactionReceipt", [
      (await settled(sent.sendTransactionStatusId)).eth?.txHash,
    ])) as Record<string, string>;
    expect(again).toMatchObject({ status: "0x1", from: SPONSOR, type: "0x4" });
    expect(await stored(10n)).toBe(1n);
    expect(await code()).toMatch(/^0xef0100/);

    const { activity } = await http(agent.key).ethUndelegate7702({
      type: "ACTIVITY_TYPE_ETH_UNDELEGATE_7702",
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters: { from: account, caip2: CAIP2 },
    });
    const { sendTransactionStatusId } = activity.result.ethUndelegate7702Result as { sendTransactionStatusId: string };
    expect((await settled(sendTransactionStatusId)).txStatus).toBe("INCLUDED");
    expect(await code()).toBe("0x");
  });

  it("an account that delegates to nothing is refused NOT_DELEGATED, and nothing is sent", async () => {
    const nonce = BigInt((await rpc("eth_getTransactionCount", [account, "pending"])) as string);
    const refused = await officialRefusal(sdk(agent.key).ethUndelegate7702({ from: account, caip2: CAIP2 } as never));
    expect(refused).toMatchObject({ code: 9, reason: "NOT_DELEGATED" });
    expect(BigInt((await rpc("eth_getTransactionCount", [account, "pending"])) as string)).toBe(nonce);
  });

  it("clears a delegation written directly with anvil_setCode (upper-case hex), to a contract that reverts", async () => {
    await rpc("anvil_setCode", [REVERTER, REVERTER_CODE]);
    // A malformed designator here (not 20 address bytes) makes anvil 1.7.1 abort: keep it exactly 23 bytes.
    await rpc("anvil_setCode", [account, `0xEF0100${REVERTER.slice(2).toUpperCase()}`]);
    expect(await code()).toBe(`0xef0100${REVERTER.slice(2)}`);
    const cleared = await sdk(agent.key).ethUndelegate7702({ from: account, caip2: CAIP2 } as never);
    const status = await settled(cleared.sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string>;
    expect(receipt).toMatchObject({ status: "0x1", from: account.toLowerCase(), type: "0x4" });
    expect(await code()).toBe("0x");
  });
});
