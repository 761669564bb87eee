/**
 * A wallet's balances screen through the official clients: `get_wallet_address_balances` and
 * `list_supported_assets` over HTTP, against anvil (ether and an ERC-20 token) and the litesvm devnet (SOL and
 * an SPL token), answered in the hosted shapes from the chains at call time. Refusals: a chain without a
 * backend (CHAIN_NOT_CONFIGURED, naming it), an address the organization does not hold, a private key's
 * address, an address of another chain family, and nodes that do not answer or answer nonsense.
 */
import { Keypair, PublicKey } from "@solana/web3.js";
import type { Session } from "@turnkey/core";
import type { TurnkeyClient } from "@turnkey/http";
import { createPublicClient, createWalletClient, erc20Abi, http, parseEther } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { ANVIL_FUNDER, anvilRpc, type RunningAnvil, startAnvil } from "../support/anvil.js";
import { type ChainWallet, startChainWallet, unreachableRpcUrl } from "../support/chain-wallet-fixture.js";
import { coreClient } from "../support/core-client.js";
import { installTestToken, type TestToken } from "../support/erc20.js";
import { type HostileNode, startHostileNode } from "../support/hostile-node.js";
import { reasonOf, requestRejection } from "../support/session-client.js";
import { writeMint, writeTokenAccount } from "../support/solana-accounts.js";
import { type SolanaDevnet, startSolanaDevnet } from "../support/solana-devnet.js";

const EVM = "eip155:31337";
/** The devnet shim answers devnet's genesis hash; the host names it by its alias. */
const SOLANA = "solana:devnet";
const SOLANA_CANONICAL = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const TOKEN = "0x00000000000000000000000000000000000e2c20";

let anvil: RunningAnvil;
let devnet: SolanaDevnet;
let hostile: HostileNode;
let chain: ChainWallet;
let organizationId: string;
let sdk: ChainWallet["sdk"];
let httpClient: TurnkeyClient;
let token: TestToken;
let mint: PublicKey;
let evmAddress: `0x${string}`;
let solanaAddress: string;
let emptyEvmAddress: string;
let privateKeyAddress: string;
let rootKey: { publicKey: string; privateKey: string };
let rootUserId: string;

/** Writes an initialized SPL mint of `decimals` into the devnet. */
function createMint(decimals: number): PublicKey {
  return writeMint(devnet, Keypair.generate().publicKey, decimals);
}

/** Gives `owner` `amount` of `mintAddress` in its associated token account. */
function mintTo(mintAddress: PublicKey, owner: string, amount: bigint): void {
  writeTokenAccount(devnet, mintAddress, new PublicKey(owner), amount);
}

/** A `@turnkey/core` client whose active session stamps with the root user's API key. */
function rootKit() {
  const kit = coreClient({
    apiBaseUrl: chain.server.baseUrl,
    authProxyUrl: chain.server.baseUrl,
    authProxyConfigId: "unused",
    organizationId,
  });
  kit.keys.keys.set(rootKey.publicKey, rootKey.privateKey);
  const session = {
    sessionType: "SESSION_TYPE_READ_WRITE",
    userId: rootUserId,
    organizationId,
    expiry: Math.floor(Date.now() / 1000) + 3600,
    expirationSeconds: "3600",
    publicKey: rootKey.publicKey,
    token: "",
  } as unknown as Session;
  kit.storage.setStorageValue("root", session);
  kit.storage.setActiveSessionKey("root");
  return kit.client.httpClient;
}

beforeAll(async () => {
  anvil = await startAnvil();
  devnet = await startSolanaDevnet();
  hostile = await startHostileNode({ kind: "result", result: "not a balance" });

  token = await installTestToken(anvil.rpcUrl, TOKEN, { symbol: "TUSD", name: "Test USD", decimals: 6 });
  mint = createMint(6);
  chain = await startChainWallet({
    chains: {
      [EVM]: anvil.rpcUrl,
      [SOLANA]: devnet.url,
      "eip155:1337": await unreachableRpcUrl(),
      "eip155:7777": hostile.url,
    },
    tokens: { [EVM]: [TOKEN], [SOLANA]: [{ address: mint.toBase58(), symbol: "USDC", name: "USD Coin" }] },
    wallet: {
      walletName: "Main",
      accounts: [ETHEREUM_ACCOUNT, { ...ETHEREUM_ACCOUNT, path: "m/44'/60'/0'/0/1" }, SOLANA_ACCOUNT],
    },
  });
  ({ organizationId, rootKey, rootUserId, sdk, httpClient } = chain);
  [evmAddress, emptyEvmAddress, solanaAddress] = chain.addresses as [`0x${string}`, string, string];
  privateKeyAddress = await chain.createPrivateKey();

  await anvilRpc(anvil.rpcUrl, "anvil_setBalance", [evmAddress, "0x14d1120d7b160000"]);
  await token.mint(evmAddress, 1_234_500_000n);
  devnet.airdrop(solanaAddress, 2_500_000_000n);
  mintTo(mint, solanaAddress, 42_000_000n);
}, 60_000);

afterAll(async () => {
  await chain?.close();
  await anvil?.stop();
  await devnet?.close();
  await hostile?.close();
});

describe("a balances screen through the official clients", () => {
  it("shows ether and the ERC-20 token as the chain holds them (sdk-server)", async () => {
    const viem = createPublicClient({ transport: http(anvil.rpcUrl) });
    const ether = await viem.getBalance({ address: evmAddress });
    expect(ether).toBe(parseEther("1.5"));
    expect(await token.balanceOf(evmAddress)).toBe(1_234_500_000n);

    const { balances } = await sdk.getWalletAddressBalances({ address: evmAddress, caip2: EVM as never });
    expect(balances).toEqual([
      {
        caip19: `${EVM}/slip44:60`,
        symbol: "ETH",
        name: "Ether",
        decimals: 18,
        balance: ether.toString(),
        display: { crypto: "1.5" },
      },
      {
        caip19: `${EVM}/erc20:${TOKEN}`,
        symbol: "TUSD",
        name: "Test USD",
        decimals: 6,
        balance: "1234500000",
        display: { crypto: "1234.5" },
      },
    ]);
  });

  it("shows SOL and the SPL token, under the cluster's canonical id (@turnkey/http)", async () => {
    const { balances } = await httpClient.getWalletAddressBalances({
      organizationId,
      address: solanaAddress,
      caip2: SOLANA as never,
    });
    expect(balances).toEqual([
      {
        caip19: `${SOLANA_CANONICAL}/slip44:501`,
        symbol: "SOL",
        name: "Solana",
        decimals: 9,
        balance: devnet.balance(solanaAddress).toString(),
        display: { crypto: "2.5" },
      },
      {
        caip19: `${SOLANA_CANONICAL}/token:${mint.toBase58()}`,
        symbol: "USDC",
        name: "USD Coin",
        decimals: 6,
        balance: "42000000",
        display: { crypto: "42" },
      },
    ]);
  });

  it("reads the chain at call time: a transfer shows at the next call (@turnkey/core)", async () => {
    const kit = rootKit();
    const read = async () =>
      (await kit.getWalletAddressBalances({ address: solanaAddress, caip2: SOLANA_CANONICAL as never })).balances ?? [];
    expect((await read()).find((entry) => entry.symbol === "USDC")?.balance).toBe("42000000");
    mintTo(mint, solanaAddress, 7n);
    expect((await read()).find((entry) => entry.symbol === "USDC")).toMatchObject({
      balance: "7",
      display: { crypto: "0.000007" },
    });
    mintTo(mint, solanaAddress, 42_000_000n);
  });

  it("leaves zero balances out", async () => {
    const { balances } = await sdk.getWalletAddressBalances({ address: emptyEvmAddress, caip2: EVM as never });
    expect(balances).toEqual([]);
  });

  it("lists the assets the host configured on each chain", async () => {
    expect(await sdk.listSupportedAssets({ caip2: EVM as never })).toEqual({
      assets: [
        { caip19: `${EVM}/slip44:60`, symbol: "ETH", name: "Ether", decimals: 18 },
        { caip19: `${EVM}/erc20:${TOKEN}`, symbol: "TUSD", name: "Test USD", decimals: 6 },
      ],
    });
    expect(await httpClient.listSupportedAssets({ organizationId, caip2: SOLANA as never })).toEqual({
      assets: [
        { caip19: `${SOLANA_CANONICAL}/slip44:501`, symbol: "SOL", name: "Solana", decimals: 9 },
        { caip19: `${SOLANA_CANONICAL}/token:${mint.toBase58()}`, symbol: "USDC", name: "USD Coin", decimals: 6 },
      ],
    });
  });
});

describe("balance refusals", () => {
  it("a chain without a backend is CHAIN_NOT_CONFIGURED, naming it, for both queries", async () => {
    for (const request of [
      sdk.getWalletAddressBalances({ address: evmAddress, caip2: "eip155:1" }),
      sdk.listSupportedAssets({ caip2: "eip155:1" }),
    ]) {
      const error = await requestRejection(request);
      expect(error.message).toContain("eip155:1");
      expect(error.message).toContain("CHAIN_NOT_CONFIGURED");
      expect(error.code).toBe(9);
    }
  });

  it("refuses an address the organization does not hold, a private key's, and one of another family", async () => {
    const stranger = await requestRejection(
      sdk.getWalletAddressBalances({ address: "0x000000000000000000000000000000000000dEaD", caip2: EVM as never }),
    );
    expect(stranger.code).toBe(5);
    expect(stranger.message).toContain("0x000000000000000000000000000000000000dEaD");
    const privateKey = await requestRejection(
      sdk.getWalletAddressBalances({ address: privateKeyAddress, caip2: EVM as never }),
    );
    expect(privateKey.code).toBe(3);
    expect(privateKey.message).toContain("private key");
    const family = await requestRejection(
      sdk.getWalletAddressBalances({ address: solanaAddress, caip2: EVM as never }),
    );
    expect(family.code).toBe(3);
    expect(family.message).toContain(EVM);
  });

  it("refuses bad request shapes, naming the field", async () => {
    for (const [body, field] of [
      [{ organizationId, caip2: EVM }, "address"],
      [{ organizationId, address: evmAddress, caip2: "" }, "caip2"],
      [{ organizationId, address: "x".repeat(129), caip2: EVM }, "address"],
      [{ organizationId, address: evmAddress, caip2: 7 }, "caip2"],
    ] as const) {
      const error = await requestRejection(httpClient.getWalletAddressBalances(body as never));
      expect(error.code).toBe(3);
      expect(reasonOf(error)).toBe("REQUEST_INVALID");
      expect(error.message).toContain(field);
    }
  });

  it("an unreachable node is UNAVAILABLE, and a node answering nonsense too, naming the chain", async () => {
    const viaHttp = await requestRejection(
      sdk.getWalletAddressBalances({ address: evmAddress, caip2: "eip155:1337" as never }),
    );
    expect(viaHttp.code).toBe(14);
    expect(viaHttp.message).toContain("eip155:1337");
    const nonsense = await requestRejection(
      sdk.getWalletAddressBalances({ address: evmAddress, caip2: "eip155:7777" as never }),
    );
    expect(nonsense.code).toBe(14);
    expect(nonsense.message).toContain("eip155:7777");
  });
});

describe("the test token", () => {
  it("behaves as an ERC-20 to viem: metadata, transfer, Transfer event, refusal of an overdraft", async () => {
    const account = ANVIL_FUNDER;
    const viem = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    const wallet = createWalletClient({ account, chain: foundry, transport: http(anvil.rpcUrl) });
    const read = (functionName: "symbol" | "name" | "decimals") =>
      viem.readContract({ address: TOKEN, abi: erc20Abi, functionName });
    expect([await read("symbol"), await read("name"), await read("decimals")]).toEqual(["TUSD", "Test USD", 6]);
    const receiver = "0x000000000000000000000000000000000000bEEF";
    await token.mint(account.address, 100n);
    const hash = await wallet.writeContract({
      address: TOKEN,
      abi: erc20Abi,
      functionName: "transfer",
      args: [receiver, 30n],
    });
    const receipt = await viem.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect([await token.balanceOf(account.address), await token.balanceOf(receiver)]).toEqual([70n, 30n]);
    const [event] = await viem.getContractEvents({
      address: TOKEN,
      abi: erc20Abi,
      eventName: "Transfer",
      blockHash: receipt.blockHash,
    });
    expect(event?.args).toEqual({ from: account.address, to: receiver, value: 30n });
    await expect(
      viem.simulateContract({
        account,
        address: TOKEN,
        abi: erc20Abi,
        functionName: "transfer",
        args: [receiver, 71n],
      }),
    ).rejects.toThrow();
  });
});
