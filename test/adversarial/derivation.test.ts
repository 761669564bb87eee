/**
 * Derivation work one request may ask for: bounded in path depth and in distinct HD nodes (refused before
 * any activity exists, naming the limit), derived without holding up other requests, and kept in a
 * bounded cache. Bad wallet input (`mnemonicLength` 13 or 1e9) is refused before any activity exists too.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { KeyCache } from "../../src/keys/key-cache.js";
import { MAX_DERIVED_NODES_PER_REQUEST, MAX_PATH_LEVELS } from "../../src/operations/wallets.js";
import { expectCustodyError } from "../support/custody-error.js";
import { type ApiKeyPair, engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

type Root = Awaited<ReturnType<typeof engineWithOrganization>>["root"];

const account = (path: string) => ({
  curve: "CURVE_SECP256K1" as const,
  pathFormat: "PATH_FORMAT_BIP32" as const,
  path,
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const,
});

/** A path of `levels` levels, distinct from every other `tag`'s from its first level on. */
const deepPath = (tag: number, levels: number) =>
  `m/${[tag, ...Array.from({ length: levels - 1 }, (_, i) => i)].join("/")}`;

async function activityCount(root: Root, organizationId: string): Promise<number> {
  return (await root.getActivities({ organizationId })).activities.length;
}

describe("derivation bounds", () => {
  it("refuses a path deeper than the limit, naming the field and the limit, and stores nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { walletId } = (await root.createWallet({ organizationId, parameters: { walletName: "w", accounts: [] } }))
      .activity.result!.createWalletResult as { walletId: string };
    const before = await activityCount(root, organizationId);
    const error = await expectCustodyError(
      root.createWalletAccounts({ organizationId, parameters: { walletId, accounts: [account(deepPath(0, 255))] } }),
      "INVALID_ARGUMENT",
      "parameters.accounts[0].path",
    );
    expect(error.message).toContain(String(MAX_PATH_LEVELS));
    expect(await activityCount(root, organizationId)).toBe(before);
  });

  it("refuses a request asking for more HD nodes than the limit, naming it, and stores nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const before = await activityCount(root, organizationId);
    // 1,000 accounts of 24 distinct levels: 24,000 nodes, the shape that kept the server busy for minutes.
    const accounts = Array.from({ length: 1000 }, (_, i) => account(deepPath(i, MAX_PATH_LEVELS)));
    const error = await expectCustodyError(
      root.createWallet({ organizationId, parameters: { walletName: "deep", accounts } }),
      "INVALID_ARGUMENT",
      "parameters.accounts",
    );
    expect(error.message).toContain(String(MAX_DERIVED_NODES_PER_REQUEST));
    expect(await activityCount(root, organizationId)).toBe(before);
  });

  it.each([13, 1e9, -12])("refuses mnemonicLength %s before any activity exists", async (mnemonicLength) => {
    const { root, organizationId } = await engineWithOrganization();
    const before = await activityCount(root, organizationId);
    await expectCustodyError(
      root.createWallet({ organizationId, parameters: { walletName: "bad", accounts: [], mnemonicLength } }),
      "INVALID_ARGUMENT",
      "parameters.mnemonicLength",
    );
    expect(await activityCount(root, organizationId)).toBe(before);
  });
});

describe("HD node cache", () => {
  it("keeps at most its bound of nodes per wallet and wipes those it lets go", async () => {
    const cache = new KeyCache({ nodesPerWallet: 8 });
    const keys = await cache.wallet("w", async () => new Uint8Array(32).fill(7));
    const evicted: Uint8Array[] = [];
    for (let i = 0; i < 100; i++) {
      const privateKey = new Uint8Array(32).fill(1);
      const chainCode = new Uint8Array(32).fill(1);
      keys.nodes.set(`n${i}`, { curve: "CURVE_ED25519", privateKey, chainCode });
      evicted.push(privateKey);
    }
    expect(keys.nodes.size).toBe(8);
    expect(evicted.slice(0, 92).every((bytes) => bytes.every((b) => b === 0))).toBe(true);
    expect(evicted.slice(92).every((bytes) => bytes.every((b) => b === 1))).toBe(true);
  });
});

describe("the event loop while deriving", () => {
  let engine: CustodyEngine;
  let server: RunningServer;
  let organizationId: string;
  let rootKey: ApiKeyPair;

  beforeAll(async () => {
    ({ engine, organizationId, rootKey } = await engineWithOrganization());
    server = await serve(engine);
  });
  afterAll(() => server.close());

  it("answers another client while one request derives thousands of nodes", async () => {
    const client = new TurnkeyClient(
      { baseUrl: server.baseUrl },
      new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
    );
    const wallet = await client.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { walletName: "slow", accounts: [] },
    });
    const walletId = wallet.activity.result.createWalletResult?.walletId as string;
    const order: string[] = [];
    // 40 accounts of 24 distinct levels: 960 nodes, within the bound but a second or more of work.
    const accounts = Array.from({ length: 40 }, (_, i) => account(deepPath(i, MAX_PATH_LEVELS)));
    const slow = client
      .createWalletAccounts({
        type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { walletId, accounts },
      })
      .then(() => order.push("derivation"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.getWhoami({ organizationId }).then(() => order.push("whoami"));
    await slow;
    expect(order).toEqual(["whoami", "derivation"]);
  });
});
