/**
 * A wallet's transaction history through the official clients: `list_eth_transaction_history` (sdk-server)
 * against anvil and `list_sol_transaction_history` (@turnkey/http) against the litesvm devnet, each answer
 * checked against the public API description. On anvil the list holds what custodian broadcast
 * (`eth_send_transaction`, origin TURNKEY with its activity's fingerprint), what it signed with `sign_transaction`
 * and the client broadcast (origin TURNKEY too; signed but never broadcast, absent) and the transfers into the address
 * the balance watcher saw (origin EXTERNAL), newest first, with fees and transfers as the chain has them, and
 * FINALIZED once the chain finalizes their block; on Solana the cluster's own list, SOL and the listed SPL token
 * included. Both page by cursor both ways. Refusals: a private key's address, an address the organization does
 * not hold, an address of the other chain family, a chain without a backend, a node that does not answer, and a
 * cursor of another query.
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
import type { TurnkeyClient } from "@turnkey/http";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  keccak256,
  parseEther,
  parseGwei,
  serializeTransaction,
} from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SIGNED_TRANSACTIONS_PER_ADDRESS } from "../../src/domain/signed-eth-transactions.js";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { ANVIL_FUNDER as FUNDER, type RunningAnvil, anvilRpc as rpc, startAnvil } from "../support/anvil.js";
import {
  type ChainWallet,
  recordingBackend,
  startChainWallet,
  unreachableRpcUrl,
} from "../support/chain-wallet-fixture.js";
import { installTestToken, type TestToken } from "../support/erc20.js";
import { officialRefusal } from "../support/official-refusal.js";
import { writeMint, writeTokenAccount } from "../support/solana-accounts.js";
import { type SolanaDevnet, startSolanaDevnet } from "../support/solana-devnet.js";
import { conformanceFaults } from "../support/swagger-conformance.js";
import { type Receiver, startReceiver } from "../webhooks/receiver.js";

const EVM = "eip155:31337";
const SOLANA = "solana:devnet";
const SOLANA_CANONICAL = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const TOKEN = "0x00000000000000000000000000000000000e2c22";
const RECIPIENT = "0x000000000000000000000000000000000000beef";
const ETH_PATH = "/public/v1/query/list_eth_transaction_history";
const SOL_PATH = "/public/v1/query/list_sol_transaction_history";

let anvil: RunningAnvil;
let devnet: SolanaDevnet;
let connection: Connection;
let token: TestToken;
let receiver: Receiver;
let chain: ChainWallet;
let organizationId: string;
let sdk: ChainWallet["sdk"];
let httpClient: TurnkeyClient;
let evmAddress: Address;
let otherEvmAddress: string;
let solanaAddress: string;
let privateKeyAddress: string;
const mint = Keypair.generate().publicKey;
const solFunder = Keypair.generate();
/** Every EVM JSON-RPC method the engine called, in order. */
const evmCalls: string[] = [];

function anvilRpc(method: string, params: unknown[]): Promise<unknown> {
  return rpc(anvil.rpcUrl, method, params);
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 10));
}

/** Writes `owner`'s associated token account of the test mint, holding `amount`. */
function tokenAccount(owner: PublicKey, amount: bigint): PublicKey {
  return writeTokenAccount(devnet, mint, owner, amount);
}

/** Signs `transaction` as the Solana funder and sends it through the devnet's RPC; resolves to its signature. */
async function solSend(transaction: Transaction): Promise<string> {
  transaction.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
  transaction.feePayer = solFunder.publicKey;
  transaction.sign(solFunder);
  return connection.sendRawTransaction(transaction.serialize());
}

/** An EVM history page through sdk-server, checked against the description. */
async function ethHistory(paginationOptions?: { limit?: string; before?: string; after?: string }) {
  const answer = await sdk.listEthTransactionHistory({
    address: evmAddress,
    caip2: EVM as never,
    ...(paginationOptions ? { paginationOptions } : {}),
  });
  expect(conformanceFaults(ETH_PATH, answer)).toEqual([]);
  return answer;
}

/** A Solana history page through @turnkey/http, checked against the description. */
async function solHistory(paginationOptions?: { limit?: string; before?: string; after?: string }) {
  const answer = await httpClient.listSolTransactionHistory({
    organizationId,
    address: solanaAddress,
    caip2: SOLANA as never,
    ...(paginationOptions ? { paginationOptions } : {}),
  });
  expect(conformanceFaults(SOL_PATH, answer)).toEqual([]);
  return answer;
}

/** The block of a mined EVM transaction as a history entry names it. */
async function evmBlockOf(hash: string) {
  const receipt = (await anvilRpc("eth_getTransactionReceipt", [hash])) as { blockNumber: string; blockHash: string };
  const block = (await anvilRpc("eth_getBlockByHash", [receipt.blockHash, false])) as { timestamp: string };
  return {
    number: BigInt(receipt.blockNumber).toString(),
    hash: receipt.blockHash,
    timestamp: new Date(Number(block.timestamp) * 1000).toISOString().replace(".000Z", "Z"),
  };
}

async function evmFeeOf(hash: string): Promise<string> {
  const receipt = (await anvilRpc("eth_getTransactionReceipt", [hash])) as {
    gasUsed: string;
    effectiveGasPrice: string;
  };
  return (BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)).toString();
}

const ETHER = { caip19: `${EVM}/slip44:60`, symbol: "ETH", name: "Ether", decimals: 18 };
const TUSD = { caip19: `${EVM}/erc20:${TOKEN}`, symbol: "TUSD", name: "Test USD", decimals: 6 };
const SOL = { caip19: `${SOLANA_CANONICAL}/slip44:501`, symbol: "SOL", name: "Solana", decimals: 9 };
const SPL = { caip19: `${SOLANA_CANONICAL}/token:${mint.toBase58()}`, symbol: "USDC", name: "USD Coin", decimals: 6 };

beforeAll(async () => {
  anvil = await startAnvil();
  devnet = await startSolanaDevnet();
  connection = new Connection(devnet.url, "confirmed");
  token = await installTestToken(anvil.rpcUrl, TOKEN, { symbol: "TUSD", name: "Test USD", decimals: 6 });
  devnet.airdrop(solFunder.publicKey.toBase58(), 10_000_000_000n);
  writeMint(devnet, mint, 6);
  tokenAccount(solFunder.publicKey, 50_000_000n);
  receiver = await startReceiver();
  chain = await startChainWallet({
    allowInsecureWebhooks: true,
    chains: {
      [EVM]: recordingBackend(anvil.rpcUrl, evmCalls),
      [SOLANA]: devnet.url,
      "eip155:1337": await unreachableRpcUrl(),
    },
    tokens: {
      [EVM]: [TOKEN],
      [SOLANA]: [{ address: mint.toBase58(), symbol: "USDC", name: "USD Coin" }],
    },
    balancePollIntervalMs: 20,
    wallet: {
      walletName: "Main",
      accounts: [ETHEREUM_ACCOUNT, { ...ETHEREUM_ACCOUNT, path: "m/44'/60'/0'/0/1" }, SOLANA_ACCOUNT],
    },
  });
  ({ organizationId, sdk, httpClient } = chain);
  [evmAddress, otherEvmAddress, solanaAddress] = chain.addresses as [Address, string, string];
  privateKeyAddress = await chain.createPrivateKey();
}, 60_000);

afterAll(async () => {
  expect(chain?.server.errors ?? []).toEqual([]);
  await chain?.close();
  await receiver?.close();
  await anvil?.stop();
  await devnet?.close();
});

describe("EVM transaction history (sdk-server, anvil)", () => {
  it("lists what custodian sent and the transfers the watcher saw, newest first, as the chain has them", async () => {
    expect(await ethHistory()).toEqual({ transactions: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } });
    await sdk.createWebhookEndpoint({
      name: "Balances",
      url: receiver.url,
      subscriptions: [{ eventType: "BALANCE_CONFIRMED_UPDATES" }],
    });
    // The watcher starts at the chain's latest block: the second look means the first one set its cursor.
    await until(() => evmCalls.filter((call) => call === "eth_blockNumber").length >= 2);

    const funder = createWalletClient({ account: FUNDER, chain: foundry, transport: http(anvil.rpcUrl) });
    const etherIn = await funder.sendTransaction({ to: evmAddress, value: parseEther("1.5") });
    await token.mint(FUNDER.address, 5_000_000n);
    const tokenIn = await funder.writeContract({
      address: TOKEN,
      abi: erc20Abi,
      functionName: "transfer",
      args: [evmAddress, 3_000_000n],
    });
    const sendTransactionStatusId = await sdk
      .ethSendTransaction({ from: evmAddress, caip2: EVM, calls: [{ to: RECIPIENT, value: "1000" }] } as never)
      .then((result) => (result as { sendTransactionStatusId: string }).sendTransactionStatusId);
    const status = await sdk.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 20 });
    expect(status.txStatus).toBe("INCLUDED");
    const sent = status.eth?.txHash as string;
    await until(async () => (await ethHistory()).transactions.length === 3);

    const { activities } = await sdk.getActivities({});
    const activity = activities.find((entry) => entry.type.startsWith("ACTIVITY_TYPE_ETH_SEND_TRANSACTION"));
    const address = evmAddress.toLowerCase();
    const expected = [
      {
        transactionHash: sent,
        block: await evmBlockOf(sent),
        status: "CONFIRMED",
        origin: "TURNKEY",
        from: address,
        to: RECIPIENT,
        fee: { amount: await evmFeeOf(sent), caip19: ETHER.caip19 },
        transfers: [
          {
            direction: "OUT",
            amount: "1000",
            counterparty: RECIPIENT,
            asset: ETHER,
            display: { crypto: "0.000000000000001" },
          },
        ],
        turnkey: {
          sponsored: false,
          activityFingerprint: activity?.fingerprint,
          submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/),
        },
      },
      {
        transactionHash: tokenIn,
        block: await evmBlockOf(tokenIn),
        status: "CONFIRMED",
        origin: "EXTERNAL",
        from: FUNDER.address.toLowerCase(),
        to: TOKEN,
        fee: { amount: await evmFeeOf(tokenIn), caip19: ETHER.caip19 },
        transfers: [
          {
            direction: "IN",
            amount: "3000000",
            counterparty: FUNDER.address.toLowerCase(),
            asset: TUSD,
            display: { crypto: "3" },
          },
        ],
      },
      {
        transactionHash: etherIn,
        block: await evmBlockOf(etherIn),
        status: "CONFIRMED",
        origin: "EXTERNAL",
        from: FUNDER.address.toLowerCase(),
        to: address,
        fee: { amount: await evmFeeOf(etherIn), caip19: ETHER.caip19 },
        transfers: [
          {
            direction: "IN",
            amount: "1500000000000000000",
            counterparty: FUNDER.address.toLowerCase(),
            asset: ETHER,
            display: { crypto: "1.5" },
          },
        ],
      },
    ];
    const all = await ethHistory();
    expect(all.transactions).toEqual(expected);
    expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });

    // Two pages of two and one, and back.
    const first = await ethHistory({ limit: "2" });
    expect(first.transactions.map((tx) => tx.transactionHash)).toEqual([sent, tokenIn]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await ethHistory({ limit: "2", after: first.pageInfo?.endCursor as string });
    expect(second.transactions.map((tx) => tx.transactionHash)).toEqual([etherIn]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await ethHistory({ limit: "2", before: second.pageInfo?.startCursor as string });
    expect(back.transactions.map((tx) => tx.transactionHash)).toEqual([sent, tokenIn]);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    // Finalized once the chain finalizes the blocks (anvil: 64 blocks behind its latest).
    await anvilRpc("anvil_mine", ["0x40"]);
    const finalized = await ethHistory();
    expect(finalized.transactions.map((tx) => tx.status)).toEqual(["FINALIZED", "FINALIZED", "FINALIZED"]);

    // Another account of the wallet has a history of its own: empty.
    const other = await sdk.listEthTransactionHistory({ address: otherEvmAddress, caip2: EVM as never });
    expect(other.transactions).toEqual([]);
  }, 60_000);

  it("lists a transaction signed with sign_transaction once the client broadcast it, and not one never sent", async () => {
    const chainClient = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    const funder = createWalletClient({ account: FUNDER, chain: foundry, transport: http(anvil.rpcUrl) });
    await chainClient.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: otherEvmAddress as Address, value: parseEther("1") }),
    });
    const nonce = await chainClient.getTransactionCount({ address: otherEvmAddress as Address });
    /** Signs a transfer of `value` wei from the other account to the first with custodian's sign_transaction. */
    const sign = async (transactionNonce: number, value: bigint) => {
      const unsigned = serializeTransaction({
        type: "eip1559",
        chainId: foundry.id,
        nonce: transactionNonce,
        to: evmAddress,
        value,
        gas: 21_000n,
        maxFeePerGas: parseGwei("20"),
        maxPriorityFeePerGas: parseGwei("1"),
      });
      const { signedTransaction } = await sdk.signTransaction({
        signWith: otherEvmAddress,
        unsignedTransaction: unsigned.slice(2),
        type: "TRANSACTION_TYPE_ETHEREUM",
      });
      return `0x${signedTransaction}` as const;
    };
    const broadcast = await sign(nonce, 7000n);
    const kept = await sign(nonce + 1, 8000n);
    const sent = await chainClient.sendRawTransaction({ serializedTransaction: broadcast });
    expect(sent).toBe(keccak256(broadcast));
    await chainClient.waitForTransactionReceipt({ hash: sent });

    const { activities } = await sdk.getActivities({});
    const signing = activities.find(
      (entry) =>
        entry.type === "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" &&
        `0x${entry.result?.signTransactionResult?.signedTransaction}` === broadcast,
    );
    expect(signing?.fingerprint).toMatch(/^sha256:/);
    const turnkey = {
      sponsored: false,
      activityFingerprint: signing?.fingerprint,
      submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/),
    };
    const other = otherEvmAddress.toLowerCase();
    const address = evmAddress.toLowerCase();
    const fromSide = await sdk.listEthTransactionHistory({ address: otherEvmAddress, caip2: EVM as never });
    expect(conformanceFaults(ETH_PATH, fromSide)).toEqual([]);
    const [entry] = fromSide.transactions;
    expect(entry).toEqual({
      transactionHash: sent,
      block: await evmBlockOf(sent),
      status: "CONFIRMED",
      origin: "TURNKEY",
      from: other,
      to: address,
      fee: { amount: await evmFeeOf(sent), caip19: ETHER.caip19 },
      transfers: [
        {
          direction: "OUT",
          amount: "7000",
          counterparty: address,
          asset: ETHER,
          display: { crypto: "0.000000000000007" },
        },
      ],
      turnkey,
    });
    const hashes = fromSide.transactions.map((tx) => tx.transactionHash);
    expect(hashes).not.toContain(keccak256(kept));

    // The destination's history names the signing activity too.
    const toSide = await ethHistory();
    const received = toSide.transactions.find((tx) => tx.transactionHash === sent);
    expect(received).toMatchObject({
      origin: "TURNKEY",
      from: other,
      transfers: [{ direction: "IN", amount: "7000", counterparty: other }],
      turnkey,
    });
    expect(toSide.transactions.map((tx) => tx.transactionHash)).not.toContain(keccak256(kept));

    // Once the client broadcasts the second one, it is listed as well, newest first.
    await chainClient.waitForTransactionReceipt({
      hash: await chainClient.sendRawTransaction({ serializedTransaction: kept }),
    });
    const later = await sdk.listEthTransactionHistory({ address: otherEvmAddress, caip2: EVM as never });
    expect(later.transactions.slice(0, 2).map((tx) => [tx.transactionHash, tx.origin])).toEqual([
      [keccak256(kept), "TURNKEY"],
      [sent, "TURNKEY"],
    ]);

    // Only the newest signed transactions of an address are looked up on the chain: past the cap, the first one
    // is no longer a TURNKEY entry, and a listing reads no more receipts than the cap and its own page.
    const unsent = await Promise.all(
      Array.from({ length: MAX_SIGNED_TRANSACTIONS_PER_ADDRESS }, (_, index) => sign(nonce + 2 + index, 1n)),
    );
    const receiptsBefore = evmCalls.filter((call) => call === "eth_getTransactionReceipt").length;
    const capped = await sdk.listEthTransactionHistory({ address: otherEvmAddress, caip2: EVM as never });
    const receipts = evmCalls.filter((call) => call === "eth_getTransactionReceipt").length - receiptsBefore;
    expect(receipts).toBeLessThanOrEqual(MAX_SIGNED_TRANSACTIONS_PER_ADDRESS + capped.transactions.length);
    const cappedHashes = capped.transactions.map((tx) => tx.transactionHash);
    for (const tx of unsent) expect(cappedHashes).not.toContain(keccak256(tx));
    expect(capped.transactions.filter((tx) => tx.origin === "TURNKEY")).toEqual([]);
  }, 60_000);
});

describe("Solana transaction history (@turnkey/http, litesvm devnet)", () => {
  it("lists the cluster's transactions of the address with SOL and token transfers, and pages both ways", async () => {
    const owner = new PublicKey(solanaAddress);
    const solIn = await solSend(
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: solFunder.publicKey, toPubkey: owner, lamports: 2_000_000_000n }),
      ),
    );
    tokenAccount(owner, 0n);
    const tokenIn = await solSend(
      new Transaction().add(
        createTransferCheckedInstruction(
          getAssociatedTokenAddressSync(mint, solFunder.publicKey),
          mint,
          getAssociatedTokenAddressSync(mint, owner),
          solFunder.publicKey,
          3_000_000n,
          6,
        ),
      ),
    );
    const recipient = Keypair.generate().publicKey;
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: owner,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: owner, toPubkey: recipient, lamports: 400_000_000 })],
    }).compileToV0Message();
    const { sendTransactionStatusId } = await sdk.solSendTransaction({
      unsignedTransaction: Buffer.from(new VersionedTransaction(message).serialize()).toString("hex"),
      signWiths: [solanaAddress],
      caip2: SOLANA,
    } as never);
    const status = await sdk.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 20 });
    const solOut = status.solana?.signature as string;

    const { transactions, pageInfo } = await solHistory();
    expect(transactions.map((tx) => tx.signature)).toEqual([solOut, tokenIn, solIn]);
    expect(pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: solOut, endCursor: solIn });
    const [out, tokenEntry, solEntry] = transactions;
    const { activities } = await sdk.getActivities({});
    const activity = activities.find((entry) => entry.type.startsWith("ACTIVITY_TYPE_SOL_SEND_TRANSACTION"));
    expect(out).toMatchObject({
      status: "FINALIZED",
      origin: "TURNKEY",
      feePayer: solanaAddress,
      signers: [{ address: solanaAddress, writable: true }],
      fee: { amount: "5000", caip19: SOL.caip19 },
      transfers: [
        {
          direction: "OUT",
          amount: "400000000",
          counterparty: recipient.toBase58(),
          asset: SOL,
          display: { crypto: "0.4" },
        },
      ],
      turnkey: { sponsored: false, activityFingerprint: activity?.fingerprint },
    });
    expect(out?.block.number).toMatch(/^[0-9]+$/);
    expect(out?.block.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const funder = solFunder.publicKey.toBase58();
    expect(tokenEntry).toMatchObject({
      origin: "EXTERNAL",
      feePayer: funder,
      signers: [{ address: funder, writable: true }],
      transfers: [{ direction: "IN", amount: "3000000", counterparty: funder, asset: SPL, display: { crypto: "3" } }],
    });
    expect(tokenEntry).not.toHaveProperty("turnkey");
    expect(solEntry).toMatchObject({
      origin: "EXTERNAL",
      transfers: [
        { direction: "IN", amount: "2000000000", counterparty: funder, asset: SOL, display: { crypto: "2" } },
      ],
    });

    const first = await solHistory({ limit: "1" });
    expect(first.transactions.map((tx) => tx.signature)).toEqual([solOut]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await solHistory({ limit: "1", after: first.pageInfo?.endCursor as string });
    expect(second.transactions.map((tx) => tx.signature)).toEqual([tokenIn]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = await solHistory({ limit: "2", after: second.pageInfo?.endCursor as string });
    expect(third.transactions.map((tx) => tx.signature)).toEqual([solIn]);
    expect(third.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await solHistory({ limit: "1", before: third.pageInfo?.startCursor as string });
    expect(back.transactions.map((tx) => tx.signature)).toEqual([tokenIn]);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  }, 60_000);
});

describe("refusals", () => {
  it("refuses what the hosted service refuses, naming the field", async () => {
    const refusal = (address: string, caip2: string, paginationOptions?: Record<string, string>) =>
      officialRefusal(
        caip2.startsWith("solana")
          ? sdk.listSolTransactionHistory({
              address,
              caip2: caip2 as never,
              ...(paginationOptions ? { paginationOptions } : {}),
            })
          : sdk.listEthTransactionHistory({
              address,
              caip2: caip2 as never,
              ...(paginationOptions ? { paginationOptions } : {}),
            }),
      );
    expect(await refusal(privateKeyAddress, EVM)).toMatchObject({
      code: 3,
      message: expect.stringContaining("private key addresses are not supported"),
    });
    expect(await refusal("0x00000000000000000000000000000000000000aa", EVM)).toMatchObject({ code: 5 });
    expect(await refusal(solanaAddress, EVM)).toMatchObject({ code: 3 });
    expect(await refusal(evmAddress, "eip155:1")).toMatchObject({
      code: 9,
      message: expect.stringContaining("no chain backend for eip155:1"),
    });
    expect(await refusal(solanaAddress, "solana:mainnet")).toMatchObject({ code: 9 });
    expect(await refusal(evmAddress, "eip155:1337")).toMatchObject({
      code: 14,
      message: expect.stringContaining("could not read the transaction history: the RPC of eip155:1337 did not answer"),
    });
    expect(await refusal(evmAddress, EVM, { after: "not-a-cursor" })).toMatchObject({
      code: 3,
      message: expect.stringContaining("paginationOptions.after"),
    });
    expect(await refusal(solanaAddress, SOLANA, { after: `1-0x${"ab".repeat(32)}` })).toMatchObject({ code: 3 });
    expect(
      await refusal(evmAddress, EVM, { before: `1-0x${"ab".repeat(32)}`, after: `2-0x${"ab".repeat(32)}` }),
    ).toMatchObject({
      code: 3,
    });
  });
});
