/**
 * Balance webhooks on a Solana cluster (the litesvm devnet), through the official clients: an endpoint created
 * with `@turnkey/sdk-server` subscribes to `BALANCE_CONFIRMED_UPDATES` and `BALANCE_FINALIZED_UPDATES`; a SOL
 * transfer to a wallet's Solana address and an SPL transfer into its associated token account (a transaction
 * that does not name the wallet address itself) reach a local receiver as `balances:confirmed` while the
 * devnet holds confirmations back, then as `balances:finalized` once it finalizes them, in the hosted payload
 * shape and signed as every delivery is. While no endpoint subscribes, the engine makes no call to the cluster
 * (counted through the backend it is given).
 */
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNATURES_PER_READ } from "../../src/chains/solana-balance-watch.js";
import type { CustodyEngine } from "../../src/index.js";
import { httpChainBackend } from "../../src/index.js";
import { engineWithOrganization } from "../support/engine.js";
import { type HostileNode, startHostileNode } from "../support/hostile-node.js";
import { type RunningServer, serve } from "../support/server.js";
import { writeMint, writeTokenAccount } from "../support/solana-accounts.js";
import { type SolanaDevnet, startSolanaDevnet } from "../support/solana-devnet.js";
import { header, type ReceivedRequest, type Receiver, startReceiver, verificationKeys } from "../webhooks/receiver.js";

const SOLANA = "solana:devnet";
const CANONICAL = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

let devnet: SolanaDevnet;
let connection: Connection;
let receiver: Receiver;
let server: RunningServer;
let engine: CustodyEngine;
let organizationId: string;
let sdk: ReturnType<Turnkey["apiClient"]>;
let walletAddress: string;
let holder: PublicKey;
const funder = Keypair.generate();
const mint = Keypair.generate().publicKey;
/** Every JSON-RPC call the engine made on the devnet, in order. */
const calls: { method: string; params: readonly unknown[] }[] = [];
/** What the engine told its host of chain failures (none expected). */
const chainErrors: unknown[] = [];
/** While set, the engine's calls wait for it (the test lands transactions meanwhile). */
let gate: Promise<void> | undefined;

/** Writes `owner`'s associated token account of the test mint, holding `amount`. */
function tokenAccount(owner: PublicKey, amount: bigint): PublicKey {
  return writeTokenAccount(devnet, mint, owner, amount);
}

/** Signs `transaction` as the funder and sends it through the devnet's RPC; resolves to its signature. */
async function send(transaction: Transaction): Promise<string> {
  transaction.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
  transaction.feePayer = funder.publicKey;
  transaction.sign(funder);
  return connection.sendRawTransaction(transaction.serialize());
}

async function solTo(to: string, lamports: bigint): Promise<string> {
  return send(
    new Transaction().add(
      SystemProgram.transfer({ fromPubkey: funder.publicKey, toPubkey: new PublicKey(to), lamports }),
    ),
  );
}

/** The number of `getSignaturesForAddress` calls the engine made for `account`. */
function reads(account: string): number {
  return calls.filter((call) => call.method === "getSignaturesForAddress" && call.params[0] === account).length;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

function received(type: string): ReceivedRequest[] {
  return receiver.received.filter((request) => request.json.type === type);
}

async function receivedWhen(type: string, count: number): Promise<Record<string, unknown>[]> {
  await until(() => received(type).length >= count);
  return received(type)
    .map((request) => request.json.msg as Record<string, unknown>)
    .sort((a, b) => String(a.txHash).localeCompare(String(b.txHash)));
}

/** The block of `slot` as the payload names it, read from the devnet. */
async function blockAt(slot: number): Promise<{ number: number; hash: string; timestamp: string }> {
  const response = await fetch(devnet.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBlock", params: [slot, { transactionDetails: "none" }] }),
  });
  const { result } = (await response.json()) as { result: { blockhash: string; blockTime: number } };
  return {
    number: slot,
    hash: result.blockhash,
    timestamp: new Date(result.blockTime * 1000).toISOString().replace(".000Z", "Z"),
  };
}

beforeAll(async () => {
  devnet = await startSolanaDevnet();
  connection = new Connection(devnet.url, "confirmed");
  const clock = devnet.svm.getClock();
  clock.unixTimestamp = 1_780_000_000n;
  devnet.svm.setClock(clock);
  devnet.airdrop(funder.publicKey.toBase58(), 10_000_000_000n);
  writeMint(devnet, mint, 6);
  tokenAccount(funder.publicKey, 50_000_000n);
  receiver = await startReceiver();
  const inner = httpChainBackend(devnet.url);
  const fixture = await engineWithOrganization({
    allowInsecureWebhooks: true,
    chains: {
      [SOLANA]: {
        label: devnet.url,
        async request(method, params) {
          await gate;
          calls.push({ method, params });
          return inner.request(method, params);
        },
      },
    },
    tokens: { [SOLANA]: [{ address: mint.toBase58(), symbol: "TUSD", name: "Test USD" }] },
    balancePollIntervalMs: 20,
    onChainError: (error) => chainErrors.push(error),
  });
  ({ engine, organizationId } = fixture);
  server = await serve(engine);
  sdk = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
  const wallet = await sdk.createWallet({
    walletName: "Deposits",
    accounts: [
      {
        curve: "CURVE_ED25519",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/44'/501'/0'/0'",
        addressFormat: "ADDRESS_FORMAT_SOLANA",
      },
    ],
  });
  walletAddress = wallet.addresses[0] as string;
  // The wallet's token account exists already: the SPL deposit below names it, not the wallet.
  holder = tokenAccount(new PublicKey(walletAddress), 0n);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  await receiver?.close();
  await devnet?.close();
});

describe("balance webhooks on a Solana cluster (litesvm)", () => {
  it("reads nothing from the cluster while no endpoint subscribes to balance updates", async () => {
    await sdk.createWebhookEndpoint({
      name: "Activities only",
      url: receiver.url,
      subscriptions: [{ eventType: "ACTIVITY_UPDATES" }],
    });
    await solTo(walletAddress, 250_000_000n);
    await receiver.waitFor(1);
    // Many watcher rounds (20 ms apart) pass.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toEqual([]);
    expect(received("balances:confirmed")).toEqual([]);
  });

  it("delivers a SOL and an SPL deposit as balances:confirmed, then balances:finalized", async () => {
    await sdk.createWebhookEndpoint({
      name: "Balances",
      url: receiver.url,
      subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }, { eventType: "BALANCE_FINALIZED_UPDATES" }],
    });
    // A watched account's first read sets its cursor; the second read means the watch is on.
    await until(() => reads(walletAddress) >= 2 && reads(holder.toBase58()) >= 2);

    devnet.holdConfirmations = true;
    const solSignature = await solTo(walletAddress, 1_500_000_000n);
    const funderHolder = getAssociatedTokenAddressSync(mint, funder.publicKey);
    const splSignature = await send(
      new Transaction().add(
        createTransferCheckedInstruction(funderHolder, mint, holder, funder.publicKey, 3_000_000n, 6),
      ),
    );
    const [solStatus, splStatus] = (await connection.getSignatureStatuses([solSignature, splSignature])).value;
    expect(solStatus?.err).toBeNull();
    expect(splStatus?.err).toBeNull();

    const expected = [
      {
        operation: "deposit",
        caip2: CANONICAL,
        txHash: solSignature,
        address: walletAddress,
        asset: {
          symbol: "SOL",
          name: "Solana",
          decimals: 9,
          caip19: `${CANONICAL}/slip44:501`,
          amount: "1500000000",
        },
        block: await blockAt(solStatus?.slot as number),
      },
      {
        operation: "deposit",
        caip2: CANONICAL,
        txHash: splSignature,
        address: walletAddress,
        asset: {
          symbol: "TUSD",
          name: "Test USD",
          decimals: 6,
          caip19: `${CANONICAL}/token:${mint.toBase58()}`,
          amount: "3000000",
        },
        block: await blockAt(splStatus?.slot as number),
      },
    ].sort((a, b) => a.txHash.localeCompare(b.txHash));

    const confirmed = await receivedWhen("balances:confirmed", 2);
    expect(confirmed.map(({ idempotencyKey: _, ...msg }) => msg)).toEqual(expected);
    for (const msg of confirmed) expect(msg.idempotencyKey).toMatch(/^[0-9a-f]{64}:balances:confirmed$/);
    for (const request of received("balances:confirmed")) {
      expect(request.json).toMatchObject({ organizationId, parentOrganizationId: organizationId });
      expect(header(request, "X-Turnkey-Event-Type")).toBe("BALANCE_CONFIRMED_UPDATES");
    }
    // Nothing is final while the devnet holds confirmations back, however many rounds pass.
    const statusReads = calls.filter((call) => call.method === "getSignatureStatuses").length;
    await until(() => calls.filter((call) => call.method === "getSignatureStatuses").length >= statusReads + 3);
    expect(received("balances:finalized")).toEqual([]);

    devnet.confirmAll();
    const finalized = await receivedWhen("balances:finalized", 2);
    expect(finalized.map(({ idempotencyKey: _, ...msg }) => msg)).toEqual(expected);
    expect(finalized.map((msg) => msg.idempotencyKey)).toEqual(
      confirmed.map((msg) => String(msg.idempotencyKey).replace(":balances:confirmed", ":balances:finalized")),
    );
    const jwks = await engine.webhookJwks();
    for (const request of [...received("balances:confirmed"), ...received("balances:finalized")]) {
      const verdict = verifyTurnkeyWebhookSignature({
        headers: request.headers,
        body: request.body,
        verificationKeys: verificationKeys(jwks),
        maxTimestampAgeMs: 300_000,
      });
      expect(verdict.ok).toBe(true);
    }
    // Each transfer is one event per stage, and the SOL sent before the subscription was never reported.
    expect(received("balances:confirmed")).toHaveLength(2);
    expect(received("balances:finalized")).toHaveLength(2);
    expect(chainErrors).toEqual([]);
  });

  it("reports a SOL withdrawal sent with solSendTransaction by what left the address, the fee left out", async () => {
    devnet.holdConfirmations = false;
    const recipient = Keypair.generate().publicKey;
    const before = devnet.balance(walletAddress);
    const finalizedBefore = received("balances:finalized").length;
    const payer = new PublicKey(walletAddress);
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer, toPubkey: recipient, lamports: 400_000_000 })],
    }).compileToV0Message();
    const { sendTransactionStatusId } = await sdk.solSendTransaction({
      unsignedTransaction: Buffer.from(new VersionedTransaction(message).serialize()).toString("hex"),
      signWiths: [walletAddress],
      caip2: SOLANA,
    });
    const status = await sdk.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 20 });
    const signature = status.solana?.signature as string;
    // The address paid the amount and the fee.
    expect(devnet.balance(walletAddress)).toBe(before - 400_000_000n - 5_000n);

    await until(() => received("balances:finalized").length > finalizedBefore);
    const [withdrawal] = received("balances:finalized").slice(finalizedBefore);
    const { slot } = (await connection.getSignatureStatus(signature)).value as { slot: number };
    expect(withdrawal?.json.msg).toEqual({
      operation: "withdraw",
      caip2: CANONICAL,
      txHash: signature,
      address: walletAddress,
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{64}:balances:finalized$/),
      asset: { symbol: "SOL", name: "Solana", decimals: 9, caip19: `${CANONICAL}/slip44:501`, amount: "400000000" },
      block: await blockAt(slot),
    });
    // The recipient is no wallet address of the organization: nothing is reported for it.
    expect(received("balances:finalized")).toHaveLength(finalizedBefore + 1);
  });

  it("reads every transfer when more land between two reads than one read takes", async () => {
    const count = SIGNATURES_PER_READ + 5;
    let open = () => {};
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const signatures: string[] = [];
    for (let index = 0; index < count; index++) signatures.push(await solTo(walletAddress, 1_000n + BigInt(index)));
    const before = received("balances:finalized").length;
    gate = undefined;
    open();
    await until(() => received("balances:finalized").length >= before + count);
    const messages = received("balances:finalized")
      .slice(before)
      .map((request) => request.json.msg as { txHash: string; asset: { amount: string } });
    expect(messages.map((msg) => msg.txHash).sort()).toEqual([...signatures].sort());
    expect(messages.map((msg) => msg.asset.amount).sort()).toEqual(
      signatures.map((_, index) => (1_000 + index).toString()).sort(),
    );
    // The wallet's reads went down to the gap's end with `before`, not past the last signature read whole.
    expect(
      calls.some((call) => call.method === "getSignaturesForAddress" && "before" in (call.params[1] as object)),
    ).toBe(true);
    expect(received("balances:confirmed").length).toBe(received("balances:finalized").length);
    expect(chainErrors).toEqual([]);
  });

  it("stops reading the cluster once the last balance subscription goes", async () => {
    const { webhookEndpoints } = await sdk.listWebhookEndpoints({});
    const balances = webhookEndpoints.find((endpoint) => endpoint.name === "Balances");
    await sdk.deleteWebhookEndpoint({ endpointId: balances?.endpointId as string });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.length).toBe(before);
  });
});

describe("balance webhooks on a Solana node that answers badly", () => {
  const SIGNATURE_A = "2".repeat(88);
  const SIGNATURE_B = "3".repeat(88);
  let hostile: HostileNode;
  let fixture: Awaited<ReturnType<typeof engineWithOrganization>>;
  let hostileServer: RunningServer;
  const errors: Error[] = [];

  beforeAll(async () => {
    hostile = await startHostileNode({ kind: "result", result: [] });
    fixture = await engineWithOrganization({
      allowInsecureWebhooks: true,
      chains: { [SOLANA]: hostile.url },
      balancePollIntervalMs: 20,
      onChainError: (error) => errors.push(error as Error),
    });
    hostileServer = await serve(fixture.engine);
    const client = new Turnkey({
      apiBaseUrl: hostileServer.baseUrl,
      apiPublicKey: fixture.rootKey.publicKey,
      apiPrivateKey: fixture.rootKey.privateKey,
      defaultOrganizationId: fixture.organizationId,
    }).apiClient();
    await client.createWallet({
      walletName: "Hostile",
      accounts: [
        {
          curve: "CURVE_ED25519",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/501'/0'/0'",
          addressFormat: "ADDRESS_FORMAT_SOLANA",
        },
      ],
    });
    await client.createWebhookEndpoint({
      name: "Balances",
      url: receiver.url,
      subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }],
    });
  }, 60_000);

  afterAll(async () => {
    await hostileServer?.close();
    await fixture?.engine.close();
    await hostile?.close();
  });

  /**
   * Resolves with the first failure reported after now that names `method` and says `why`. A round already
   * under way when the node's answer changes may still report what the previous answer earned, so the wait is
   * for the failure the new answer must bring, not for the next one.
   */
  async function failureOf(method: string, why: string): Promise<Error> {
    const from = errors.length;
    let found: Error | undefined;
    await until(() => {
      found = errors
        .slice(from)
        .find((error) => (error as { method?: string }).method === method && String(error).includes(why));
      return found !== undefined;
    });
    return found as Error;
  }

  const fromHostile = () =>
    receiver.received.filter((request) => request.json.organizationId === fixture.organizationId);

  it("refuses more signatures than it asked for, a transaction whose balances do not match its accounts, and a balance past 2^53", async () => {
    hostile.answer = {
      kind: "result",
      result: Array.from({ length: 1000 }, () => ({ signature: SIGNATURE_A, slot: 1 })),
    };
    expect((await failureOf("getSignaturesForAddress", "at most 1 signatures")).message).toContain(
      "at most 1 signatures",
    );

    // The cursor is set at A, then B arrives: its transaction is read and refused.
    hostile.answer = (method) =>
      method === "getSignaturesForAddress"
        ? { kind: "result", result: [{ signature: SIGNATURE_A, slot: 1, err: null }] }
        : { kind: "result", result: null };
    hostile.reset();
    await until(() => hostile.methods.filter((method) => method === "getSignaturesForAddress").length >= 2);
    const account = "1".repeat(32);
    const transaction = (preBalances: unknown[], postBalances: unknown[]) => ({
      slot: 2,
      blockTime: 1_780_000_000,
      transaction: { message: { accountKeys: [account] } },
      meta: { err: null, fee: 5000, preBalances, postBalances },
    });
    for (const [pre, post, why] of [
      [[1, 2], [1, 2], "no list of 1 balances"],
      [[1], [2 ** 60], "not a whole number"],
    ] as const) {
      hostile.answer = (method) =>
        method === "getSignaturesForAddress"
          ? { kind: "result", result: [{ signature: SIGNATURE_B, slot: 2, err: null }] }
          : { kind: "result", result: transaction([...pre], [...post]) };
      expect((await failureOf("getTransaction", why)).message).toContain(why);
    }
    expect(fromHostile()).toEqual([]);
  });
});
