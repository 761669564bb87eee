/**
 * Balance webhooks through the official clients: an endpoint created with `@turnkey/sdk-server` subscribes to
 * `BALANCE_CONFIRMED_UPDATES` and `BALANCE_FINALIZED_UPDATES`; transfers on anvil (ether in, an ERC-20 in and
 * out through its `Transfer` logs) reach a local receiver first as `balances:confirmed`, then, once anvil's
 * `finalized` tag passes their block, as `balances:finalized`, in the hosted payload shape and signed as every
 * delivery is. While no endpoint subscribes, the engine makes no call to the chain at all (counted through the
 * backend it is given).
 */
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import type { TurnkeyClient } from "@turnkey/http";
import { type Address, createWalletClient, erc20Abi, http, parseEther } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { ANVIL_FUNDER as FUNDER, type RunningAnvil, anvilRpc as rpc, startAnvil } from "../support/anvil.js";
import { type ChainWallet, recordingBackend, startChainWallet } from "../support/chain-wallet-fixture.js";
import { installTestToken, type TestToken } from "../support/erc20.js";
import { header, type ReceivedRequest, type Receiver, startReceiver, verificationKeys } from "../webhooks/receiver.js";

const EVM = "eip155:31337";
const TOKEN = "0x00000000000000000000000000000000000e2c21";

let anvil: RunningAnvil;
let token: TestToken;
let receiver: Receiver;
let chain: ChainWallet;
let engine: CustodyEngine;
let organizationId: string;
let sdk: ChainWallet["sdk"];
let httpClient: TurnkeyClient;
let walletAddress: Address;
/** Every JSON-RPC method the engine called on anvil, in order. */
const calls: string[] = [];

function anvilRpc(method: string, params: unknown[]): Promise<unknown> {
  return rpc(anvil.rpcUrl, method, params);
}

/** Resolves once the engine has called `method` `count` times. */
async function callsOf(method: string, count: number): Promise<void> {
  while (calls.filter((call) => call === method).length < count) await new Promise((r) => setTimeout(r, 5));
}

/** Resolves once `ms` milliseconds have passed without a new call to the chain. */
async function quietFor(ms: number): Promise<void> {
  for (let seen = -1; seen !== calls.length; ) {
    seen = calls.length;
    await new Promise((r) => setTimeout(r, ms));
  }
}

/** The balance deliveries received so far of `type`. */
function received(type: string): ReceivedRequest[] {
  return receiver.received.filter((request) => request.json.type === type);
}

async function receivedWhen(type: string, count: number): Promise<ReceivedRequest[]> {
  while (received(type).length < count) await new Promise((r) => setTimeout(r, 5));
  return received(type);
}

/** The `msg` of each delivery, ordered so the test does not depend on the order of arrival. */
function messages(requests: ReceivedRequest[]): Record<string, unknown>[] {
  return requests
    .map((request) => request.json.msg as Record<string, unknown>)
    .sort((a, b) => JSON.stringify([a.txHash, a.operation]).localeCompare(JSON.stringify([b.txHash, b.operation])));
}

beforeAll(async () => {
  anvil = await startAnvil();
  token = await installTestToken(anvil.rpcUrl, TOKEN, { symbol: "TUSD", name: "Test USD", decimals: 6 });
  receiver = await startReceiver();
  chain = await startChainWallet({
    allowInsecureWebhooks: true,
    chains: { [EVM]: recordingBackend(anvil.rpcUrl, calls) },
    tokens: { [EVM]: [TOKEN] },
    balancePollIntervalMs: 20,
    wallet: { walletName: "Deposits", accounts: [ETHEREUM_ACCOUNT] },
  });
  ({ engine, organizationId, sdk, httpClient } = chain);
  walletAddress = chain.addresses[0] as Address;
}, 60_000);

afterAll(async () => {
  await chain?.close();
  await receiver?.close();
  await anvil?.stop();
});

describe("balance webhooks on anvil", () => {
  it("reads nothing from the chain while no endpoint subscribes to balance updates", async () => {
    await sdk.createWebhookEndpoint({
      name: "Activities only",
      url: receiver.url,
      subscriptions: [{ eventType: "ACTIVITY_UPDATES" }],
    });
    const funder = createWalletClient({ account: FUNDER, chain: foundry, transport: http(anvil.rpcUrl) });
    await funder.sendTransaction({ to: walletAddress, value: parseEther("0.25") });
    // Many watcher rounds (20 ms apart) pass while the receiver gets the endpoint's activity update.
    await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toEqual([]);
    expect(received("balances:confirmed")).toEqual([]);
  });

  it("delivers ether and token transfers as balances:confirmed, then balances:finalized (sdk-server, @turnkey/http)", async () => {
    const created = await sdk.createWebhookEndpoint({
      name: "Balances",
      url: receiver.url,
      subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }, { eventType: "BALANCE_FINALIZED_UPDATES" }],
    });
    const { webhookEndpoints } = await httpClient.listWebhookEndpoints({ organizationId });
    expect(webhookEndpoints.find((endpoint) => endpoint.endpointId === created.endpointId)?.subscriptions).toEqual([
      { eventType: "BALANCE_CONFIRMED_UPDATES", isActive: true },
      { eventType: "BALANCE_FINALIZED_UPDATES", isActive: true },
    ]);
    // The watcher starts at the chain's latest block: the second look means the first one set its cursor.
    await callsOf("eth_blockNumber", 2);

    const funder = createWalletClient({ account: FUNDER, chain: foundry, transport: http(anvil.rpcUrl) });
    const etherHash = await funder.sendTransaction({ to: walletAddress, value: parseEther("1.5") });
    await token.mint(FUNDER.address, 5_000_000n);
    const tokenInHash = await funder.writeContract({
      address: TOKEN,
      abi: erc20Abi,
      functionName: "transfer",
      args: [walletAddress, 3_000_000n],
    });
    // Out of the wallet: anvil sends as the wallet's address without its key.
    await anvilRpc("anvil_impersonateAccount", [walletAddress]);
    const tokenOutHash = (await anvilRpc("eth_sendTransaction", [
      {
        from: walletAddress,
        to: TOKEN,
        data: `0xa9059cbb${FUNDER.address.slice(2).toLowerCase().padStart(64, "0")}${1_250_000n.toString(16).padStart(64, "0")}`,
      },
    ])) as string;
    await anvilRpc("anvil_stopImpersonatingAccount", [walletAddress]);

    const confirmed = messages(await receivedWhen("balances:confirmed", 3));
    const blockOf = async (hash: string) => {
      const receipt = (await anvilRpc("eth_getTransactionReceipt", [hash])) as {
        blockNumber: string;
        blockHash: string;
      };
      const block = (await anvilRpc("eth_getBlockByHash", [receipt.blockHash, false])) as { timestamp: string };
      return {
        number: Number(receipt.blockNumber),
        hash: receipt.blockHash,
        timestamp: new Date(Number(block.timestamp) * 1000).toISOString().replace(".000Z", "Z"),
      };
    };
    const address = walletAddress.toLowerCase();
    const expected = [
      {
        operation: "deposit",
        caip2: EVM,
        txHash: etherHash,
        address,
        asset: {
          symbol: "ETH",
          name: "Ether",
          decimals: 18,
          caip19: `${EVM}/slip44:60`,
          amount: "1500000000000000000",
        },
        block: await blockOf(etherHash),
      },
      {
        operation: "deposit",
        caip2: EVM,
        txHash: tokenInHash,
        address,
        asset: { symbol: "TUSD", name: "Test USD", decimals: 6, caip19: `${EVM}/erc20:${TOKEN}`, amount: "3000000" },
        block: await blockOf(tokenInHash),
      },
      {
        operation: "withdraw",
        caip2: EVM,
        txHash: tokenOutHash,
        address,
        asset: { symbol: "TUSD", name: "Test USD", decimals: 6, caip19: `${EVM}/erc20:${TOKEN}`, amount: "1250000" },
        block: await blockOf(tokenOutHash),
      },
    ].sort((a, b) => JSON.stringify([a.txHash, a.operation]).localeCompare(JSON.stringify([b.txHash, b.operation])));
    expect(confirmed.map(({ idempotencyKey: _, ...msg }) => msg)).toEqual(expected);
    for (const msg of confirmed) expect(msg.idempotencyKey).toMatch(/^[0-9a-f]{64}:balances:confirmed$/);
    for (const request of received("balances:confirmed")) {
      expect(request.json).toMatchObject({ organizationId, parentOrganizationId: organizationId });
      expect(header(request, "X-Turnkey-Event-Type")).toBe("BALANCE_CONFIRMED_UPDATES");
      expect(header(request, "X-Turnkey-Organization-Id")).toBe(organizationId);
    }
    // Nothing is final yet: anvil finalizes 64 blocks behind its latest.
    expect(received("balances:finalized")).toEqual([]);

    await anvilRpc("anvil_mine", ["0x40"]);
    const finalized = messages(await receivedWhen("balances:finalized", 3));
    expect(finalized.map(({ idempotencyKey: _, ...msg }) => msg)).toEqual(expected);
    expect(finalized.map((msg) => msg.idempotencyKey)).toEqual(
      confirmed.map((msg) => String(msg.idempotencyKey).replace(":balances:confirmed", ":balances:finalized")),
    );
    const jwks = await engine.webhookJwks();
    for (const request of received("balances:finalized")) {
      expect(header(request, "X-Turnkey-Event-Type")).toBe("BALANCE_FINALIZED_UPDATES");
      const verdict = verifyTurnkeyWebhookSignature({
        headers: request.headers,
        body: request.body,
        verificationKeys: verificationKeys(jwks),
        maxTimestampAgeMs: 300_000,
      });
      expect(verdict.ok).toBe(true);
    }
    // The ether sent before the subscription was never reported.
    expect(
      confirmed.filter((msg) => msg.asset && (msg.asset as { amount: string }).amount === "250000000000000000"),
    ).toEqual([]);
  });

  it("stops reading the chain once the last balance subscription goes", async () => {
    const { webhookEndpoints } = await sdk.listWebhookEndpoints({});
    const balances = webhookEndpoints.find((endpoint) => endpoint.name === "Balances");
    await sdk.deleteWebhookEndpoint({ endpointId: balances?.endpointId as string });
    // A round in flight when the endpoint went may still finish, however long a loaded machine makes it take:
    // wait until ten poll intervals pass without a call, then no call may come in twenty more.
    await quietFor(200);
    const before = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls.length).toBe(before);
  });
});
