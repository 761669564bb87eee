/**
 * `sign_transaction` for Ethereum through the HTTP adapter, driven by the official clients (@turnkey/viem,
 * @turnkey/ethers, @turnkey/eip-1193-provider) and checked by viem and ethers; sent transactions are mined
 * by a local anvil devnet.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { createEIP1193Provider } from "@turnkey/eip-1193-provider";
import { TurnkeySigner as TurnkeyEthersSigner } from "@turnkey/ethers";
import { TurnkeyClient } from "@turnkey/http";
import { createAccount } from "@turnkey/viem";
import { Transaction as EthersTransaction } from "ethers";
import {
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseEther,
  parseGwei,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerializedEIP1559,
} from "viem";
import { recoverAuthorizationAddress } from "viem/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import { engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let anvil: RunningAnvil;
let chain: Chain;
let organizationId: string;
let walletId: string;
let client: TurnkeyClient;
let address: Hex;
// The signer packages pin their own copies of @turnkey/http: the same runtime client, another type identity.
const asSignerClient = (c: unknown) => c as never;
type Uuid = `${string}-${string}-${string}-${string}-${string}`;
const recipient = "0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432" as const;
const fees = { maxFeePerGas: parseGwei("30"), maxPriorityFeePerGas: parseGwei("1") };

beforeAll(async () => {
  anvil = await startAnvil();
  chain = defineChain({
    id: anvil.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const fixture = await engineWithOrganization();
  ({ organizationId } = fixture);
  server = await serve(fixture.engine);
  client = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: fixture.rootKey.publicKey, apiPrivateKey: fixture.rootKey.privateKey }),
  );
  const { activity } = await fixture.root.createWallet({
    organizationId,
    parameters: {
      walletName: "Ethereum",
      accounts: [ETHEREUM_ACCOUNT],
    },
  });
  const result = activity.result!.createWalletResult as { walletId: string; addresses: Hex[] };
  walletId = result.walletId;
  address = result.addresses[0]!;
  await createTestClient({ mode: "anvil", chain, transport: http(anvil.rpcUrl) }).setBalance({
    address,
    value: parseEther("100"),
  });
});

afterAll(async () => {
  await anvil?.stop();
  expect(server.errors).toEqual([]);
  await server?.close();
});

async function viemWalletClient() {
  const account = await createAccount({ client: asSignerClient(client), organizationId, signWith: address });
  return { account, wallet: createWalletClient({ account, chain, transport: http(anvil.rpcUrl) }) };
}

describe("@turnkey/viem", () => {
  it("signs a legacy transaction that viem parses and recovers to the account", async () => {
    const { account, wallet } = await viemWalletClient();
    const serializedTransaction = await wallet.signTransaction({
      account,
      type: "legacy",
      to: recipient,
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei("20"),
      nonce: 3,
    });
    expect(parseTransaction(serializedTransaction)).toMatchObject({
      type: "legacy",
      chainId: anvil.chainId,
      to: recipient,
      value: 1n,
      nonce: 3,
    });
    expect(await recoverTransactionAddress({ serializedTransaction })).toBe(address);
  });

  it("signs EIP-2930 and EIP-1559 transactions that viem recovers to the account", async () => {
    const { account, wallet } = await viemWalletClient();
    const accessList = [{ address: recipient, storageKeys: [`0x${"00".repeat(31)}01` as Hex] }];
    const eip2930 = await wallet.signTransaction({
      account,
      type: "eip2930",
      to: recipient,
      value: 2n,
      gas: 30_000n,
      gasPrice: parseGwei("20"),
      nonce: 4,
      accessList,
    });
    expect(parseTransaction(eip2930)).toMatchObject({ type: "eip2930", accessList });
    expect(await recoverTransactionAddress({ serializedTransaction: eip2930 })).toBe(address);

    const eip1559 = await wallet.signTransaction({
      account,
      to: recipient,
      value: parseEther("0.5"),
      data: "0xdeadbeef",
      gas: 50_000n,
      nonce: 5,
      ...fees,
    });
    expect(parseTransaction(eip1559)).toMatchObject({
      type: "eip1559",
      value: parseEther("0.5"),
      data: "0xdeadbeef",
      ...fees,
    });
    expect(await recoverTransactionAddress({ serializedTransaction: eip1559 })).toBe(address);
  });

  it("signs an EIP-7702 transaction with its authorization list", async () => {
    const { account, wallet } = await viemWalletClient();
    const delegate = "0x5af5194b4b0909eb978e3cf1e25333852277f07d" as const;
    const authorization = await wallet.signAuthorization({ account, contractAddress: delegate, nonce: 7 });
    const serializedTransaction = await wallet.signTransaction({
      account,
      type: "eip7702",
      to: address,
      gas: 100_000n,
      nonce: 6,
      authorizationList: [authorization],
      ...fees,
    });
    const parsed = parseTransaction(serializedTransaction);
    expect(parsed.type).toBe("eip7702");
    // The authorization travels unchanged (viem spells its legacy `v` differently once parsed; yParity is it).
    const { v: _v, ...signedAuthorization } = authorization;
    expect(parsed.authorizationList).toMatchObject([signedAuthorization]);
    expect(await recoverAuthorizationAddress({ authorization: parsed.authorizationList![0]! })).toBe(address);
    expect(await recoverTransactionAddress({ serializedTransaction })).toBe(address);
  });

  it("signs the body of an EIP-4844 transaction, which viem recovers to the account", async () => {
    const { account, wallet } = await viemWalletClient();
    const blobVersionedHashes = [`0x01${"ab".repeat(31)}` as Hex];
    const serializedTransaction = await wallet.signTransaction({
      account,
      type: "eip4844",
      to: recipient,
      gas: 50_000n,
      nonce: 8,
      maxFeePerBlobGas: parseGwei("3"),
      blobVersionedHashes,
      ...fees,
    });
    expect(parseTransaction(serializedTransaction)).toMatchObject({ type: "eip4844", blobVersionedHashes });
    expect(await recoverTransactionAddress({ serializedTransaction })).toBe(address);
  });

  it("sends legacy, EIP-1559 and EIP-7702 transactions that anvil mines", async () => {
    const { account, wallet } = await viemWalletClient();
    const publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl) });
    const before = await publicClient.getBalance({ address: recipient });
    const legacy = await wallet.sendTransaction({ account, type: "legacy", to: recipient, value: 1000n });
    const eip1559 = await wallet.sendTransaction({ account, to: recipient, value: 2000n });
    const delegate = "0x5af5194b4b0909eb978e3cf1e25333852277f07d" as const;
    // The account sends its own delegation, so the authorization's nonce is the one after the transaction's.
    const authorization = await wallet.signAuthorization({ account, contractAddress: delegate, executor: "self" });
    const eip7702 = await wallet.sendTransaction({
      account,
      type: "eip7702",
      to: address,
      authorizationList: [authorization],
    });
    for (const hash of [legacy, eip1559, eip7702]) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      expect(receipt.from).toBe(address.toLowerCase());
    }
    expect(await publicClient.getBalance({ address: recipient })).toBe(before + 3000n);
    // The delegation took effect: the account's code is the EIP-7702 designator of the delegate.
    expect(await publicClient.getCode({ address })).toBe(`0xef0100${delegate.slice(2)}`);
  });
});

describe("@turnkey/ethers", () => {
  it("signs EIP-1559 and legacy transactions that ethers parses and recovers to the account", async () => {
    const signer = new TurnkeyEthersSigner({ client: asSignerClient(client), organizationId, signWith: address });
    const eip1559 = await signer.signTransaction({
      type: 2,
      chainId: anvil.chainId,
      to: recipient,
      value: 5n,
      nonce: 1,
      gasLimit: 21_000n,
      ...fees,
    });
    const parsed = EthersTransaction.from(eip1559);
    expect(parsed.from).toBe(address);
    expect(parsed.type).toBe(2);
    expect(parsed.to).toBe(EthersTransaction.from({ to: recipient }).to);
    expect(parsed.value).toBe(5n);

    const legacy = EthersTransaction.from(
      await signer.signTransaction({
        type: 0,
        chainId: 1,
        to: recipient,
        value: 6n,
        nonce: 2,
        gasLimit: 21_000n,
        gasPrice: parseGwei("20"),
      }),
    );
    expect(legacy.from).toBe(address);
    expect(legacy.chainId).toBe(1n);
  });
});

describe("@turnkey/eip-1193-provider", () => {
  it("answers eth_signTransaction with a transaction viem recovers, and eth_sendTransaction is mined", async () => {
    const provider = await createEIP1193Provider({
      turnkeyClient: asSignerClient(client),
      organizationId: organizationId as Uuid,
      walletId: walletId as Uuid,
      chains: [
        {
          chainId: `0x${anvil.chainId.toString(16)}`,
          chainName: "anvil",
          rpcUrls: [anvil.rpcUrl],
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        },
      ],
    });
    expect(await provider.request({ method: "eth_requestAccounts" })).toEqual([address]);
    const publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl) });
    const nonce = await publicClient.getTransactionCount({ address });
    const transaction = {
      from: address,
      to: recipient,
      value: "0x10",
      chainId: `0x${anvil.chainId.toString(16)}`,
      nonce: `0x${nonce.toString(16)}`,
      gas: "0x5208",
      maxFeePerGas: `0x${fees.maxFeePerGas.toString(16)}`,
      maxPriorityFeePerGas: `0x${fees.maxPriorityFeePerGas.toString(16)}`,
      type: "0x2",
    } as const;
    const serializedTransaction = (await provider.request({
      method: "eth_signTransaction",
      params: [transaction as never],
    })) as TransactionSerializedEIP1559;
    expect(parseTransaction(serializedTransaction)).toMatchObject({ type: "eip1559", to: recipient, value: 16n });
    expect(await recoverTransactionAddress({ serializedTransaction })).toBe(address);

    const hash = (await provider.request({ method: "eth_sendTransaction", params: [transaction as never] })) as Hex;
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  });
});
