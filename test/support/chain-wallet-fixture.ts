/**
 * What the chain-facing compatibility tests (balances, balance webhooks, transaction history) start from: an
 * engine with one organization on the chains they name, behind the HTTP adapter, the official clients
 * (sdk-server and `@turnkey/http`) stamping as its root user, and a first wallet created through sdk-server.
 * Also the pieces of their chain setup that are the same in each: a node that never answers, a backend that
 * records the methods the engine calls, and a private key whose address the history and balance queries refuse.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import type { ChainBackend, CustodyEngine, CustodyEngineOptions } from "../../src/index.js";
import { httpChainBackend } from "../../src/index.js";
import type { WalletAccountPreset } from "../../src/testing/index.js";
import { type ApiKeyPair, engineWithOrganization } from "./engine.js";
import { type RunningServer, serve } from "./server.js";

/** The sdk-server API client the fixture's root user stamps with. */
export type SdkClient = ReturnType<Turnkey["apiClient"]>;

/** A served organization with its root user's official clients and its first wallet. */
export interface ChainWallet {
  engine: CustodyEngine;
  organizationId: string;
  rootUserId: string;
  rootKey: ApiKeyPair;
  server: RunningServer;
  /** sdk-server, its default organization the fixture's. */
  sdk: SdkClient;
  /** `@turnkey/http`: each request names its organization. */
  httpClient: TurnkeyClient;
  /** The first wallet's addresses, one per account asked for, in that order. */
  addresses: string[];
  /** Creates a secp256k1 private key with an Ethereum address and resolves to that address. */
  createPrivateKey(): Promise<string>;
  /** Stops the HTTP server, then the engine. */
  close(): Promise<void>;
}

/** The engine's options, and the first wallet's name and accounts. */
export interface ChainWalletOptions extends CustodyEngineOptions {
  wallet: { walletName: string; accounts: readonly WalletAccountPreset[] };
}

/** Starts an engine with one organization on `options`, serves it, and creates the first wallet through sdk-server. */
export async function startChainWallet(options: ChainWalletOptions): Promise<ChainWallet> {
  const { wallet, ...engineOptions } = options;
  const { engine, organizationId, rootUserId, rootKey } = await engineWithOrganization(engineOptions);
  const server = await serve(engine);
  const credentials = { apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey };
  const sdk = new Turnkey({
    apiBaseUrl: server.baseUrl,
    ...credentials,
    defaultOrganizationId: organizationId,
  }).apiClient();
  const httpClient = new TurnkeyClient({ baseUrl: server.baseUrl }, new ApiKeyStamper(credentials));
  const { addresses } = await sdk.createWallet({ walletName: wallet.walletName, accounts: [...wallet.accounts] });
  return {
    engine,
    organizationId,
    rootUserId,
    rootKey,
    server,
    sdk,
    httpClient,
    addresses,
    createPrivateKey: () => privateKeyAddress(sdk),
    close: async () => {
      await server.close();
      await engine.close();
    },
  };
}

async function privateKeyAddress(sdk: SdkClient): Promise<string> {
  const key = await sdk.createPrivateKeys({
    privateKeys: [
      {
        privateKeyName: "pk",
        curve: "CURVE_SECP256K1",
        privateKeyTags: [],
        addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
      },
    ],
  });
  return key.privateKeys[0]?.addresses?.[0]?.address as string;
}

/** The URL of a loopback port nothing listens on (one bound, then closed): a node that never answers. */
export async function unreachableRpcUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** The JSON-RPC backend at `rpcUrl`, pushing the name of every method the engine calls onto `calls`. */
export function recordingBackend(rpcUrl: string, calls: string[]): ChainBackend {
  const inner = httpChainBackend(rpcUrl);
  return {
    label: rpcUrl,
    request(method, params) {
      calls.push(method);
      return inner.request(method, params);
    },
  };
}
