/**
 * `eth_send_transaction` end to end on an anvil devnet: `@turnkey/core`'s `ethSendTransaction` and
 * `pollTransactionStatus` against the HTTP adapter send a funded transfer and a contract call; the receipts
 * on the devnet match and the status reaches INCLUDED; the status changes reach a webhook endpoint
 * subscribed to SEND_TRANSACTION_STATUS_UPDATES. A send that needs a second approver waits in
 * CONSENSUS_NEEDED with nothing broadcast, and is signed, broadcast and included at the approval (nothing at a
 * rejection). A policy denying the `to` address stops the send before
 * anything reaches the chain; a revert, an unknown chain, an unreachable RPC and a nonce conflict are
 * each reported clearly, and nothing is broadcast twice.
 */
import type { Session } from "@turnkey/core";
import { serializeTransaction } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJsonRpc } from "../../src/chains/rpc.js";
import { type ChainBackend, ChainUnreachable } from "../../src/index.js";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import { addPolicy, organizationWithMembers, refusal, walletParameters } from "../support/consensus.js";
import { coreClient } from "../support/core-client.js";
import { type RunningServer, serve } from "../support/server.js";

const CAIP2 = "eip155:31337";
/** The first version, which @turnkey/core sends for a single call (the in-process default is _V2). */
const V1 = "ACTIVITY_TYPE_ETH_SEND_TRANSACTION" as const;
const RECIPIENT = "0x000000000000000000000000000000000000beef";
const STORE_CONTRACT = "0x00000000000000000000000000000000000c0de1";
const REVERT_CONTRACT = "0x00000000000000000000000000000000000c0de2";
// Runtime code: SSTORE(0, CALLDATALOAD(4)); STOP. A call `f(uint256 x)` stores x in slot 0.
const STORE_CODE = "0x60043560005500";
// Runtime code: revert with Error("nope").
const REVERT_CODE = `0x7f08c379a0${"00".repeat(28)}600052602060045260046024527f6e6f7065${"00".repeat(28)}60445260646000fd`;

let anvil: RunningAnvil;
let server: RunningServer;
let fixture: Awaited<ReturnType<typeof organizationWithMembers<"alice">>>;
let from: string;

const rpc = (method: string, params: unknown[] = []) => callJsonRpc(anvil.rpcUrl, method, params);

/**
 * The receipt of a transaction just broadcast, once mined. anvil answers `eth_sendRawTransaction` before its
 * automine has included the transaction, so a receipt asked for at once may still be null (seen in CI on a
 * loaded machine); clients wait for it the same way (viem's `waitForTransactionReceipt`).
 */
async function minedReceipt(hash: string): Promise<Record<string, string>> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const receipt = (await rpc("eth_getTransactionReceipt", [hash])) as Record<string, string> | null;
    if (receipt !== null) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`transaction ${hash} was not mined within 5 s`);
}
const txCount = async (address: string) =>
  BigInt((await rpc("eth_getTransactionCount", [address, "latest"])) as string);

/** The first address of a create_wallet activity's result. */
function walletAddress(activity: { result?: Record<string, unknown> | null }): string {
  return (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult.addresses[0] as string;
}

/** A `@turnkey/core` client whose active session stamps with the root user's API key. */
function rootKit() {
  const kit = coreClient({
    apiBaseUrl: server.baseUrl,
    authProxyUrl: server.baseUrl,
    authProxyConfigId: "unused",
    organizationId: fixture.organizationId,
  });
  kit.keys.keys.set(fixture.rootKey.publicKey, fixture.rootKey.privateKey);
  const session = {
    sessionType: "SESSION_TYPE_READ_WRITE",
    userId: fixture.rootUserId,
    organizationId: fixture.organizationId,
    expiry: Math.floor(Date.now() / 1000) + 3600,
    expirationSeconds: "3600",
    publicKey: fixture.rootKey.publicKey,
    token: "",
  } as unknown as Session;
  kit.storage.setStorageValue("root", session);
  kit.storage.setActiveSessionKey("root");
  return kit.client;
}

beforeAll(async () => {
  anvil = await startAnvil();
  fixture = await organizationWithMembers(["alice"], {
    chains: { [CAIP2]: anvil.rpcUrl },
    sendStatusPollIntervalMs: 50,
    allowInsecureWebhooks: true,
  });
  server = await serve(fixture.engine);
  const { activity } = await fixture.root.createWallet({
    organizationId: fixture.organizationId,
    parameters: walletParameters("Sender"),
  });
  from = walletAddress(activity);
  await rpc("anvil_setBalance", [from, "0x56bc75e2d63100000"]); // 100 ETH
  await rpc("anvil_setCode", [STORE_CONTRACT, STORE_CODE]);
  await rpc("anvil_setCode", [REVERT_CONTRACT, REVERT_CODE]);
  await fixture.root.createWebhookEndpoint({
    organizationId: fixture.organizationId,
    parameters: {
      url: "http://127.0.0.1:9/tx-updates",
      name: "tx updates",
      subscriptions: [{ eventType: "SEND_TRANSACTION_STATUS_UPDATES" }],
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fixture?.engine.close();
  await anvil?.stop();
});

describe("eth_send_transaction through @turnkey/core", () => {
  it("sends a funded transfer: the receipt matches and the status reaches INCLUDED", async () => {
    const client = rootKit();
    const before = BigInt((await rpc("eth_getBalance", [RECIPIENT, "latest"])) as string);
    const sendTransactionStatusId = await client.ethSendTransaction({
      transaction: { from, to: RECIPIENT, caip2: CAIP2, value: "1000000000000000" } as never,
    });
    const status = await client.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 50 });
    expect(status.txStatus).toBe("INCLUDED");
    const txHash = status.eth?.txHash as string;
    const receipt = (await rpc("eth_getTransactionReceipt", [txHash])) as Record<string, string>;
    expect(receipt.status).toBe("0x1");
    expect(receipt.from?.toLowerCase()).toBe(from.toLowerCase());
    expect(receipt.to).toBe(RECIPIENT);
    expect(receipt.type).toBe("0x2");
    const after = BigInt((await rpc("eth_getBalance", [RECIPIENT, "latest"])) as string);
    expect(after - before).toBe(1000000000000000n);

    // The status changes went to the endpoint as SEND_TRANSACTION_STATUS_UPDATES events, in the body Turnkey's
    // docs give (concepts/broadcasting.mdx, "Delivery payload").
    const deliveries = await fixture.engine.listWebhookDeliveries(fixture.organizationId);
    const events = deliveries
      .filter((delivery) => delivery.eventType === "SEND_TRANSACTION_STATUS_UPDATES")
      .map((delivery) => JSON.parse(delivery.body) as { type: string; msg: Record<string, unknown> })
      .filter((event) => event.msg.sendTransactionStatusId === sendTransactionStatusId);
    expect(events.map((event) => event.msg.status)).toEqual(["BROADCASTING", "INCLUDED"]);
    const [broadcasting, included] = events;
    expect(broadcasting).toEqual({
      type: "transaction:status",
      organizationId: fixture.organizationId,
      parentOrganizationId: fixture.organizationId,
      msg: {
        sendTransactionStatusId,
        activityId: expect.any(String),
        status: "BROADCASTING",
        caip2: CAIP2,
        idempotencyKey: expect.stringMatching(/^[0-9a-f]{64}$/),
        timestamp: expect.any(Number),
      },
    });
    expect(included).toEqual({
      ...broadcasting,
      msg: {
        ...broadcasting?.msg,
        status: "INCLUDED",
        idempotencyKey: expect.stringMatching(/^[0-9a-f]{64}$/),
        timestamp: expect.any(Number),
        txHash,
      },
    });
    // One key per status event: a receiver that deduplicates on it keeps both.
    expect(included?.msg.idempotencyKey).not.toBe(broadcasting?.msg.idempotencyKey);
  });

  it("makes a contract call (V2, calls) that changes the contract's state", async () => {
    const client = rootKit();
    const data = `0x12345678${42n.toString(16).padStart(64, "0")}`;
    const sendTransactionStatusId = await client.ethSendTransaction({
      transaction: { from, caip2: CAIP2, calls: [{ to: STORE_CONTRACT, data }] } as never,
    });
    const status = await client.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 50 });
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string>;
    expect(receipt.to).toBe(STORE_CONTRACT);
    expect(receipt.status).toBe("0x1");
    expect(BigInt((await rpc("eth_getStorageAt", [STORE_CONTRACT, "0x0", "latest"])) as string)).toBe(42n);
  });

  it("reports a mined revert as FAILED with the revert reason", async () => {
    const client = rootKit();
    const sendTransactionStatusId = await client.ethSendTransaction({
      transaction: { from, to: REVERT_CONTRACT, caip2: CAIP2, data: "0x", gasLimit: "100000" } as never,
    });
    const failure = await client.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 50 }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toContain("execution reverted: nope");
    const status = await fixture.root.getSendTransactionStatus({
      organizationId: fixture.organizationId,
      sendTransactionStatusId,
    });
    expect(status).toMatchObject({
      txStatus: "FAILED",
      txError: "execution reverted: nope",
      error: { revertChain: [{ address: REVERT_CONTRACT, native: { nativeType: "error_string", message: "nope" } }] },
    });
  });
});

describe("eth_send_raw_transaction and get_nonces", () => {
  it("broadcasts a transaction signed by sign_transaction, and get_nonces follows the chain", async () => {
    const { root, organizationId } = fixture;
    const nonce = await txCount(from);
    expect(await root.getNonces({ organizationId, address: from, caip2: CAIP2, nonce: true })).toEqual({
      nonce: nonce.toString(),
    });
    const unsignedTransaction = serializeTransaction({
      type: "eip1559",
      chainId: 31337,
      nonce: Number(nonce),
      to: RECIPIENT,
      value: 7n,
      gas: 21000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const { activity } = await root.signTransaction({
      organizationId,
      parameters: { signWith: from, unsignedTransaction, type: "TRANSACTION_TYPE_ETHEREUM" },
    });
    const signed = (activity.result!.signTransactionResult as { signedTransaction: string }).signedTransaction;
    const sent = await root.ethSendRawTransaction({
      organizationId,
      parameters: { signedTransaction: `0x${signed}`, caip2: CAIP2 },
    });
    const { transactionHash } = sent.activity.result!.ethSendRawTransactionResult as { transactionHash: string };
    const receipt = await minedReceipt(transactionHash);
    expect(receipt.status).toBe("0x1");
    expect(await root.getNonces({ organizationId, address: from, caip2: CAIP2, nonce: true })).toEqual({
      nonce: (nonce + 1n).toString(),
    });
  });
});

describe("get_nonces' gas station nonce without a sponsor", () => {
  it("is refused naming the field, also beside `nonce`, on a host without a sponsor", async () => {
    const { root, organizationId } = fixture;
    for (const request of [{ gasStationNonce: true }, { nonce: true, gasStationNonce: true }]) {
      const error = await refusal(
        root.getNonces({ organizationId, address: from, caip2: CAIP2, ...request }),
        "FAILED_PRECONDITION",
        "GAS_STATION_UNAVAILABLE",
      );
      expect(error.details.field).toBe("gasStationNonce");
    }
    // Asking for neither answers neither, as the response's members are "if requested".
    expect(await root.getNonces({ organizationId, address: from, caip2: CAIP2, gasStationNonce: false })).toEqual({});
  });
});

describe("a send that needs consensus", () => {
  const CONSENSUS_RECIPIENT = "0x000000000000000000000000000000000000c0c0";
  let team: Awaited<ReturnType<typeof organizationWithMembers<"bob" | "carol">>>;
  let sender: string;

  /** bob's send of `value` wei to CONSENSUS_RECIPIENT, which needs a second user's approval. */
  async function pendingSend(value: string) {
    const { activity } = await team.members.bob.as.ethSendTransaction({
      organizationId: team.organizationId,
      type: V1,
      parameters: { from: sender, to: CONSENSUS_RECIPIENT, caip2: CAIP2, value },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(activity.result ?? null).toBeNull();
    return activity;
  }

  /** Polls get_send_transaction_status until the send leaves BROADCASTED. */
  async function waitForStatus(organizationId: string, sendTransactionStatusId: string) {
    for (;;) {
      const status = await team.members.bob.as.getSendTransactionStatus({ organizationId, sendTransactionStatusId });
      if (status.txStatus !== "BROADCASTED") return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** What the devnet shows of the sender and the recipient. */
  async function chainState() {
    return {
      nonce: await txCount(sender),
      balance: BigInt((await rpc("eth_getBalance", [CONSENSUS_RECIPIENT, "latest"])) as string),
      block: await rpc("eth_blockNumber"),
    };
  }

  beforeAll(async () => {
    // An organization of its own, so the policies of the other tests do not take part in these decisions.
    team = await organizationWithMembers(["bob", "carol"], {
      chains: { [CAIP2]: anvil.rpcUrl },
      sendStatusPollIntervalMs: 50,
    });
    const { activity } = await team.root.createWallet({
      organizationId: team.organizationId,
      parameters: walletParameters("Team sender"),
    });
    sender = walletAddress(activity);
    await rpc("anvil_setBalance", [sender, "0xde0b6b3a7640000"]); // 1 ETH
    await addPolicy(team.root, team.organizationId, {
      // The submitter's own approval is the first; a second user must approve too.
      policyName: "sends to c0c0 need a second approver",
      effect: "EFFECT_ALLOW",
      condition: `activity.type == '${V1}' && eth.tx.to == '${CONSENSUS_RECIPIENT}'`,
      consensus: "approvers.count() >= 2",
    });
  });

  afterAll(async () => {
    await team?.engine.close();
  });

  it("waits in CONSENSUS_NEEDED with nothing broadcast; carol's approval signs, broadcasts and includes it", async () => {
    const { organizationId, members } = team;
    const before = await chainState();
    const pending = await pendingSend("12345");
    expect(await chainState()).toEqual(before);

    const { activity } = await members.carol.as.approveActivity({
      organizationId,
      parameters: { fingerprint: pending.fingerprint },
    });
    expect(activity.id).toBe(pending.id);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { sendTransactionStatusId } = activity.result!.ethSendTransactionResult as {
      sendTransactionStatusId: string;
    };
    const status = await waitForStatus(organizationId, sendTransactionStatusId);
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await rpc("eth_getTransactionReceipt", [status.eth?.txHash])) as Record<string, string>;
    expect(receipt.status).toBe("0x1");
    expect(receipt.from?.toLowerCase()).toBe(sender.toLowerCase());
    expect(receipt.to).toBe(CONSENSUS_RECIPIENT);
    const after = await chainState();
    expect(after.nonce).toBe(before.nonce + 1n);
    expect(after.balance - before.balance).toBe(12345n);
    const transaction = (await rpc("eth_getTransactionByHash", [status.eth?.txHash])) as Record<string, string>;
    expect(BigInt(transaction.value as string)).toBe(12345n);
    expect(BigInt(transaction.nonce as string)).toBe(before.nonce);
  });

  it("a rejection by carol ends it REJECTED and nothing is ever broadcast", async () => {
    const { organizationId, members } = team;
    const before = await chainState();
    const pending = await pendingSend("777");
    const { activity } = await members.carol.as.rejectActivity({
      organizationId,
      parameters: { fingerprint: pending.fingerprint },
    });
    expect(activity.id).toBe(pending.id);
    expect(activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(activity.result ?? null).toBeNull();
    // Mine a block so a broadcast, had there been one, would show in the nonce and the balance.
    await rpc("evm_mine");
    const after = await chainState();
    expect(after.nonce).toBe(before.nonce);
    expect(after.balance).toBe(before.balance);
    // Nor is one waiting in the node's pool.
    expect(BigInt((await rpc("eth_getTransactionCount", [sender, "pending"])) as string)).toBe(before.nonce);
    const recorded = await members.bob.as.getActivity({ organizationId, activityId: pending.id });
    expect(recorded.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
  });
});

describe("refusals", () => {
  it("a policy denying the `to` address stops the send before anything is broadcast", async () => {
    const { root, organizationId, members } = fixture;
    await addPolicy(root, organizationId, {
      policyName: "alice sends",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${members.alice.userId}')`,
      condition: "activity.type == 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION'",
    });
    await addPolicy(root, organizationId, {
      policyName: "never to beef",
      effect: "EFFECT_DENY",
      condition: `eth.tx.to == '${RECIPIENT}'`,
    });
    const nonceBefore = await txCount(from);
    const blockBefore = await rpc("eth_blockNumber");
    await refusal(
      members.alice.as.ethSendTransaction({
        organizationId,
        type: V1,
        parameters: { from, to: RECIPIENT, caip2: CAIP2, value: "1" },
      }),
      "PERMISSION_DENIED",
    );
    expect(await txCount(from)).toBe(nonceBefore);
    expect(await rpc("eth_blockNumber")).toBe(blockBefore);
    // The same policy set lets alice send elsewhere.
    const { activity } = await members.alice.as.ethSendTransaction({
      organizationId,
      type: V1,
      parameters: { from, to: STORE_CONTRACT, caip2: CAIP2, data: `0x00000000${"0".repeat(63)}7` },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("a chain with no backend is FAILED_PRECONDITION naming it", async () => {
    const error = await refusal(
      fixture.root.ethSendTransaction({
        organizationId: fixture.organizationId,
        type: V1,
        parameters: { from, to: RECIPIENT, caip2: "eip155:1", value: "1" },
      }),
      "FAILED_PRECONDITION",
      "CHAIN_NOT_CONFIGURED",
    );
    expect(error.message).toContain("eip155:1");
    expect(error.details.field).toBe("parameters.caip2");
  });

  it("a call that would revert is refused at gas estimation and nothing is sent", async () => {
    const nonceBefore = await txCount(from);
    const error = await refusal(
      fixture.root.ethSendTransaction({
        organizationId: fixture.organizationId,
        type: V1,
        parameters: { from, to: REVERT_CONTRACT, caip2: CAIP2 },
      }),
      "FAILED_PRECONDITION",
      "TRANSACTION_REVERTS",
    );
    expect(error.message).toContain("nope");
    expect(await txCount(from)).toBe(nonceBefore);
  });

  it("a nonce already used is a NONCE_CONFLICT", async () => {
    await refusal(
      fixture.root.ethSendTransaction({
        organizationId: fixture.organizationId,
        type: V1,
        parameters: { from, to: RECIPIENT, caip2: CAIP2, value: "1", nonce: "0" },
      }),
      "FAILED_PRECONDITION",
      "NONCE_CONFLICT",
    );
  });

  it("sponsored sends and batches are refused on a host without a sponsor", async () => {
    await refusal(
      fixture.root.ethSendTransaction({
        organizationId: fixture.organizationId,
        type: V1,
        parameters: { from, to: RECIPIENT, caip2: CAIP2, sponsor: true },
      }),
      "FAILED_PRECONDITION",
      "GAS_STATION_UNAVAILABLE",
    );
    await refusal(
      fixture.root.ethSendTransaction({
        organizationId: fixture.organizationId,
        parameters: { from, caip2: CAIP2, calls: [{ to: RECIPIENT }, { to: STORE_CONTRACT }] },
      } as never),
      "FAILED_PRECONDITION",
      "GAS_STATION_UNAVAILABLE",
    );
  });

  it("an unreachable RPC fails the activity; the same body again reaches no chain", async () => {
    const { engine, organizationId, root } = await organizationWithMembers([], {
      chains: { [CAIP2]: "http://127.0.0.1:1" },
    });
    const { activity } = await root.createWallet({ organizationId, parameters: walletParameters("W") });
    const sender = walletAddress(activity);
    const body = {
      organizationId,
      timestampMs: String(Date.now()),
      type: V1,
      parameters: { from: sender, to: RECIPIENT, caip2: CAIP2 },
    };
    const first = await refusal(root.ethSendTransaction(body), "UNAVAILABLE", "CHAIN_UNREACHABLE");
    expect(first.message).toContain(CAIP2);
    const again = await refusal(root.ethSendTransaction(body), "UNAVAILABLE", "CHAIN_UNREACHABLE");
    expect(again.details.activityId).toBe(first.details.activityId);
    const recorded = await root.getActivity({ organizationId, activityId: first.details.activityId as string });
    expect(recorded.activity.status).toBe("ACTIVITY_STATUS_FAILED");
    await engine.close();
  });

  it("a broadcast whose answer is lost fails the activity, and the same body is not broadcast again", async () => {
    // The devnet behind a transport that loses the answer to every broadcast (the node still gets it).
    const broadcasts: string[] = [];
    const flaky: ChainBackend = {
      async request(method, params) {
        const result = await callJsonRpc(anvil.rpcUrl, method, params);
        if (method === "eth_sendRawTransaction") {
          broadcasts.push(result as string);
          throw new ChainUnreachable(method, "connection reset");
        }
        return result;
      },
    };
    const { engine, organizationId, root } = await organizationWithMembers([], { chains: { [CAIP2]: flaky } });
    const { activity } = await root.createWallet({ organizationId, parameters: walletParameters("W") });
    const sender = walletAddress(activity);
    await rpc("anvil_setBalance", [sender, "0xde0b6b3a7640000"]); // 1 ETH
    const body = {
      organizationId,
      timestampMs: String(Date.now()),
      type: V1,
      parameters: { from: sender, to: RECIPIENT, caip2: CAIP2, value: "5" },
    };
    const first = await refusal(root.ethSendTransaction(body), "UNAVAILABLE", "CHAIN_UNREACHABLE");
    const again = await refusal(root.ethSendTransaction(body), "UNAVAILABLE", "CHAIN_UNREACHABLE");
    expect(again.details.activityId).toBe(first.details.activityId);
    expect(broadcasts).toHaveLength(1);
    // The node did get that one transaction, and only it.
    expect(await txCount(sender)).toBe(1n);
    await engine.close();
  });
});
