/**
 * Deletion in-process: every branch of the export rule for wallets, wallet accounts, private keys and
 * sub-organizations, and that nothing of a deleted item stays reachable: not by get, list, address look-up
 * or signWith, not in the store's indexes, not in the key cache.
 */
import { encryptOauth2ClientSecret, generateP256KeyPair } from "@turnkey/crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KeyCache } from "../../src/keys/key-cache.js";
import { addressRecordId, INDEX } from "../../src/model/data.js";
import { SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const eth = (index: number) => ({
  curve: "CURVE_SECP256K1" as const,
  pathFormat: "PATH_FORMAT_BIP32" as const,
  path: `m/44'/60'/0'/0/${index}`,
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const,
});
const sol = SOLANA_ACCOUNT;

type Base = Awaited<ReturnType<typeof engineWithOrganization>>;
type Root = Base["root"];

async function wallet(root: Root, organizationId: string, walletName: string, accounts = [eth(0), sol]) {
  const { activity } = await root.createWallet({ organizationId, parameters: { walletName, accounts } });
  return activity.result!.createWalletResult as { walletId: string; addresses: string[] };
}

async function privateKey(root: Root, organizationId: string, privateKeyName: string, privateKeyTags: string[] = []) {
  const { activity } = await root.createPrivateKeys({
    organizationId,
    parameters: {
      privateKeys: [
        { privateKeyName, curve: "CURVE_SECP256K1", privateKeyTags, addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] },
      ],
    },
  });
  const [created] = (
    activity.result!.createPrivateKeysResultV2 as {
      privateKeys: { privateKeyId: string; addresses: { address: string }[] }[];
    }
  ).privateKeys as [{ privateKeyId: string; addresses: { address: string }[] }];
  return { privateKeyId: created.privateKeyId, address: created.addresses[0]?.address as string };
}

const targetPublicKey = () => generateP256KeyPair().publicKey;

function sign(root: Root, organizationId: string, signWith: string) {
  return root.signRawPayload({
    organizationId,
    parameters: {
      signWith,
      payload: `0x${"22".repeat(32)}`,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    },
  });
}

describe("delete_wallets", () => {
  it("refuses a wallet that was never exported, naming it, and deletes nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const kept = await wallet(root, organizationId, "kept");
    const error = await expectCustodyError(
      root.deleteWallets({ organizationId, parameters: { walletIds: [kept.walletId] } }),
      "FAILED_PRECONDITION",
      "parameters.walletIds",
    );
    expect(error.message).toContain(kept.walletId);
    expect(error.details).toMatchObject({ reason: "WALLETS_NOT_EXPORTED", walletIds: [kept.walletId] });
    await expectCustodyError(
      root.deleteWallets({ organizationId, parameters: { walletIds: [kept.walletId], deleteWithoutExport: false } }),
      "FAILED_PRECONDITION",
    );
    expect((await root.getWallet({ organizationId, walletId: kept.walletId })).wallet.walletId).toBe(kept.walletId);
    await sign(root, organizationId, kept.addresses[0] as string);
  });

  it("names only the unexported wallets of a mixed request, and deletes none of them", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const exported = await wallet(root, organizationId, "exported");
    const unexported = await wallet(root, organizationId, "unexported", [eth(1)]);
    await root.exportWallet({
      organizationId,
      parameters: { walletId: exported.walletId, targetPublicKey: targetPublicKey() },
    });
    const error = await expectCustodyError(
      root.deleteWallets({ organizationId, parameters: { walletIds: [exported.walletId, unexported.walletId] } }),
      "FAILED_PRECONDITION",
    );
    expect(error.details.walletIds).toEqual([unexported.walletId]);
    expect((await root.getWallets({ organizationId })).wallets).toHaveLength(2);
  });

  it("deletes an unexported wallet with deleteWithoutExport, and an exported one with the flag absent or false", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const forced = await wallet(root, organizationId, "forced", [eth(0)]);
    const plain = await wallet(root, organizationId, "plain", [eth(1)]);
    const flagged = await wallet(root, organizationId, "flagged", [eth(2)]);
    for (const w of [plain, flagged]) {
      await root.exportWallet({
        organizationId,
        parameters: { walletId: w.walletId, targetPublicKey: targetPublicKey() },
      });
    }
    const deleted = async (walletIds: string[], deleteWithoutExport?: boolean) => {
      const { activity } = await root.deleteWallets({ organizationId, parameters: { walletIds, deleteWithoutExport } });
      return (activity.result!.deleteWalletsResult as { walletIds: string[] }).walletIds;
    };
    expect(await deleted([forced.walletId], true)).toEqual([forced.walletId]);
    expect(await deleted([plain.walletId])).toEqual([plain.walletId]);
    expect(await deleted([flagged.walletId], false)).toEqual([flagged.walletId]);
    expect((await root.getWallets({ organizationId })).wallets).toEqual([]);
  });

  it("leaves nothing of the wallet reachable: get, lists, address look-ups, signWith, indexes, key cache", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const gone = await wallet(root, organizationId, "gone");
    const other = await wallet(root, organizationId, "other", [eth(7)]);
    await sign(root, organizationId, gone.addresses[0] as string); // warm the key cache
    const { accounts } = await root.getWalletAccounts({ organizationId, walletId: gone.walletId });
    const forget = vi.spyOn(KeyCache.prototype, "forget");
    await root.deleteWallets({ organizationId, parameters: { walletIds: [gone.walletId], deleteWithoutExport: true } });

    expect(forget.mock.calls.flat()).toEqual(
      expect.arrayContaining([gone.walletId, ...accounts.map((a) => a.walletAccountId)]),
    );
    await expectCustodyError(root.getWallet({ organizationId, walletId: gone.walletId }), "NOT_FOUND");
    expect((await root.getWallets({ organizationId })).wallets.map((w) => w.walletId)).toEqual([other.walletId]);
    expect((await root.getWalletAccounts({ organizationId })).accounts.map((a) => a.address)).toEqual(other.addresses);
    await expectCustodyError(
      root.getWalletAccount({ organizationId, walletId: gone.walletId, address: gone.addresses[0] }),
      "NOT_FOUND",
    );
    for (const address of gone.addresses) {
      await expectCustodyError(sign(root, organizationId, address), "NOT_FOUND", "parameters.signWith");
      await expectCustodyError(
        root.exportWalletAccount({ organizationId, parameters: { address, targetPublicKey: targetPublicKey() } }),
        "NOT_FOUND",
      );
    }
    await engine.store.read(async (reader) => {
      for (const account of accounts) {
        expect(await reader.get("walletAccounts", account.walletAccountId)).toBeUndefined();
        expect(await reader.get("organizationAccounts", account.walletAccountId)).toBeUndefined();
        expect(await reader.get("addresses", addressRecordId(organizationId, account.address))).toBeUndefined();
        expect(
          await reader.lookup(
            "walletAccountByPathAndFormat",
            INDEX.walletAccountByPathAndFormat(gone.walletId, account.path, account.curve, account.addressFormat),
          ),
        ).toBeUndefined();
      }
      expect(await reader.lookup("walletByName", INDEX.walletByName(organizationId, "gone"))).toBeUndefined();
    });
    // The name is free again, and an import of the same addresses would no longer clash.
    await wallet(root, organizationId, "gone", [eth(3)]);
  });

  it("refuses an unknown or repeated wallet id, naming its place", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const w = await wallet(root, organizationId, "w");
    await expectCustodyError(
      root.deleteWallets({
        organizationId,
        parameters: { walletIds: [w.walletId, "nope"], deleteWithoutExport: true },
      }),
      "NOT_FOUND",
      "parameters.walletIds[1]",
    );
    await expectCustodyError(
      root.deleteWallets({
        organizationId,
        parameters: { walletIds: [w.walletId, w.walletId], deleteWithoutExport: true },
      }),
      "INVALID_ARGUMENT",
      "parameters.walletIds[1]",
    );
    expect((await root.getWallets({ organizationId })).wallets).toHaveLength(1);
  });
});

describe("delete_wallet_accounts", () => {
  it("refuses accounts of an unexported wallet unless deleteWithoutExport, naming them", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const w = await wallet(root, organizationId, "w");
    const { accounts } = await root.getWalletAccounts({ organizationId, walletId: w.walletId });
    const [ethAccount] = accounts as [(typeof accounts)[number]];
    const error = await expectCustodyError(
      root.deleteWalletAccounts({ organizationId, parameters: { walletAccountIds: [ethAccount.walletAccountId] } }),
      "FAILED_PRECONDITION",
      "parameters.walletAccountIds",
    );
    expect(error.details.walletAccountIds).toEqual([ethAccount.walletAccountId]);
    const { activity } = await root.deleteWalletAccounts({
      organizationId,
      parameters: { walletAccountIds: [ethAccount.walletAccountId], deleteWithoutExport: true },
    });
    expect(activity.result!.deleteWalletAccountsResult).toEqual({ walletAccountIds: [ethAccount.walletAccountId] });
    const left = await root.getWalletAccounts({ organizationId, walletId: w.walletId });
    expect(left.accounts.map((a) => a.address)).toEqual([w.addresses[1]]);
  });

  it("deletes without the flag an account exported on its own, or of an exported wallet", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const single = await wallet(root, organizationId, "single");
    const whole = await wallet(root, organizationId, "whole", [eth(4)]);
    await root.exportWalletAccount({
      organizationId,
      parameters: { address: single.addresses[0] as string, targetPublicKey: targetPublicKey() },
    });
    await root.exportWallet({
      organizationId,
      parameters: { walletId: whole.walletId, targetPublicKey: targetPublicKey() },
    });
    const idOf = async (walletId: string, address: string) =>
      (await root.getWalletAccount({ organizationId, walletId, address })).account.walletAccountId;
    const singleEth = await idOf(single.walletId, single.addresses[0] as string);
    const singleSol = await idOf(single.walletId, single.addresses[1] as string);
    const wholeEth = await idOf(whole.walletId, whole.addresses[0] as string);
    // The other account of `single` was not exported: only it is named.
    const error = await expectCustodyError(
      root.deleteWalletAccounts({ organizationId, parameters: { walletAccountIds: [singleEth, singleSol, wholeEth] } }),
      "FAILED_PRECONDITION",
    );
    expect(error.details.walletAccountIds).toEqual([singleSol]);
    await root.deleteWalletAccounts({
      organizationId,
      parameters: { walletAccountIds: [singleEth, wholeEth], deleteWithoutExport: false },
    });
    await expectCustodyError(sign(root, organizationId, single.addresses[0] as string), "NOT_FOUND");
    await expectCustodyError(sign(root, organizationId, whole.addresses[0] as string), "NOT_FOUND");
    const { account } = await root.getWalletAccount({
      organizationId,
      walletId: single.walletId,
      address: single.addresses[1],
    });
    expect(account.walletAccountId).toBe(singleSol);
  });

  it("frees the path and address: the same account can be created again", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const w = await wallet(root, organizationId, "w", [eth(0)]);
    const id = (await root.getWalletAccount({ organizationId, walletId: w.walletId, path: eth(0).path })).account
      .walletAccountId;
    await root.deleteWalletAccounts({
      organizationId,
      parameters: { walletAccountIds: [id], deleteWithoutExport: true },
    });
    await expectCustodyError(
      root.getWalletAccount({ organizationId, walletId: w.walletId, path: eth(0).path }),
      "NOT_FOUND",
    );
    const { activity } = await root.createWalletAccounts({
      organizationId,
      parameters: { walletId: w.walletId, accounts: [eth(0)] },
    });
    expect(activity.result!.createWalletAccountsResult).toEqual({ addresses: w.addresses });
  });

  it("refuses an account of another organization as not found", async () => {
    const first = await engineWithOrganization();
    const w = await wallet(first.root, first.organizationId, "w", [eth(0)]);
    const { accounts } = await first.root.getWalletAccounts({ organizationId: first.organizationId });
    const second = await engineWithOrganization();
    await expectCustodyError(
      second.root.deleteWalletAccounts({
        organizationId: second.organizationId,
        parameters: { walletAccountIds: [accounts[0]?.walletAccountId as string], deleteWithoutExport: true },
      }),
      "NOT_FOUND",
      "parameters.walletAccountIds[0]",
    );
    expect(w.addresses).toHaveLength(1);
  });
});

describe("delete_private_keys", () => {
  it("covers the export rule: refused unexported, forced, exported with the flag absent or false", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const a = await privateKey(root, organizationId, "a");
    const b = await privateKey(root, organizationId, "b");
    const c = await privateKey(root, organizationId, "c");
    const error = await expectCustodyError(
      root.deletePrivateKeys({ organizationId, parameters: { privateKeyIds: [a.privateKeyId] } }),
      "FAILED_PRECONDITION",
      "parameters.privateKeyIds",
    );
    expect(error.details).toMatchObject({ reason: "PRIVATE_KEYS_NOT_EXPORTED", privateKeyIds: [a.privateKeyId] });
    for (const key of [b, c]) {
      await root.exportPrivateKey({
        organizationId,
        parameters: { privateKeyId: key.privateKeyId, targetPublicKey: targetPublicKey() },
      });
    }
    const deleted = async (privateKeyIds: string[], deleteWithoutExport?: boolean) => {
      const { activity } = await root.deletePrivateKeys({
        organizationId,
        parameters: { privateKeyIds, deleteWithoutExport },
      });
      return (activity.result!.deletePrivateKeysResult as { privateKeyIds: string[] }).privateKeyIds;
    };
    expect(await deleted([a.privateKeyId], true)).toEqual([a.privateKeyId]);
    expect(await deleted([b.privateKeyId])).toEqual([b.privateKeyId]);
    expect(await deleted([c.privateKeyId], false)).toEqual([c.privateKeyId]);
  });

  it("leaves nothing of the key reachable: get, list, tags, signWith by id and address, key cache", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createPrivateKeyTag({
      organizationId,
      parameters: { privateKeyTagName: "hot", privateKeyIds: [] },
    });
    const { privateKeyTagId } = activity.result!.createPrivateKeyTagResult as { privateKeyTagId: string };
    const gone = await privateKey(root, organizationId, "gone", [privateKeyTagId]);
    const kept = await privateKey(root, organizationId, "kept", [privateKeyTagId]);
    await sign(root, organizationId, gone.privateKeyId);
    const forget = vi.spyOn(KeyCache.prototype, "forget");
    await root.deletePrivateKeys({
      organizationId,
      parameters: { privateKeyIds: [gone.privateKeyId], deleteWithoutExport: true },
    });
    expect(forget).toHaveBeenCalledWith(gone.privateKeyId);
    await expectCustodyError(root.getPrivateKey({ organizationId, privateKeyId: gone.privateKeyId }), "NOT_FOUND");
    expect((await root.getPrivateKeys({ organizationId })).privateKeys.map((k) => k.privateKeyId)).toEqual([
      kept.privateKeyId,
    ]);
    await expectCustodyError(sign(root, organizationId, gone.privateKeyId), "NOT_FOUND", "parameters.signWith");
    await expectCustodyError(sign(root, organizationId, gone.address), "NOT_FOUND", "parameters.signWith");
    await engine.store.read(async (reader) => {
      expect(await reader.get("addresses", addressRecordId(organizationId, gone.address))).toBeUndefined();
      expect(await reader.lookup("privateKeyByName", INDEX.privateKeyByName(organizationId, "gone"))).toBeUndefined();
    });
    // The tag's other member is untouched; the name is free again.
    expect(
      (await root.getPrivateKey({ organizationId, privateKeyId: kept.privateKeyId })).privateKey.privateKeyTags,
    ).toEqual([privateKeyTagId]);
    await privateKey(root, organizationId, "gone");
  });

  it("refuses an unknown or repeated id and changes nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const a = await privateKey(root, organizationId, "a");
    await expectCustodyError(
      root.deletePrivateKeys({
        organizationId,
        parameters: { privateKeyIds: [a.privateKeyId, "nope"], deleteWithoutExport: true },
      }),
      "NOT_FOUND",
      "parameters.privateKeyIds[1]",
    );
    await expectCustodyError(
      root.deletePrivateKeys({
        organizationId,
        parameters: { privateKeyIds: [a.privateKeyId, a.privateKeyId], deleteWithoutExport: true },
      }),
      "INVALID_ARGUMENT",
      "parameters.privateKeyIds[1]",
    );
    await sign(root, organizationId, a.address);
  });
});

describe("delete_sub_organization", () => {
  async function subOrganization() {
    const base = await engineWithOrganization({
      oauth2Providers: { OAUTH2_PROVIDER_DISCORD: { tokenEndpoint: "https://discord.test/oauth2/token" } },
    });
    const subKey = p256KeyPair();
    const { activity } = await base.root.createSubOrganization({
      organizationId: base.organizationId,
      parameters: subOrganizationParameters("Child", subKey),
    });
    const { subOrganizationId, rootUserIds } = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const subRootId = rootUserIds[0] as string;
    return { ...base, subOrganizationId, subRootId, subKey, subRoot: base.engine.as({ userId: subRootId }) };
  }

  it("refuses a top-level organization", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const error = await expectCustodyError(
      root.deleteSubOrganization({ organizationId, parameters: { deleteWithoutExport: true } }),
      "FAILED_PRECONDITION",
      "organizationId",
    );
    expect(error.details.reason).toBe("NOT_A_SUB_ORGANIZATION");
  });

  it("refuses while wallets or keys are unexported, naming both kinds, and deletes with deleteWithoutExport", async () => {
    const { root, organizationId, subOrganizationId, subRoot } = await subOrganization();
    const w = await wallet(subRoot, subOrganizationId, "w");
    const k = await privateKey(subRoot, subOrganizationId, "k");
    const error = await expectCustodyError(
      subRoot.deleteSubOrganization({ organizationId: subOrganizationId, parameters: {} }),
      "FAILED_PRECONDITION",
    );
    expect(error.details).toMatchObject({ walletIds: [w.walletId], privateKeyIds: [k.privateKeyId] });
    expect((await root.getSubOrgIds({ organizationId })).organizationIds).toEqual([subOrganizationId]);
    const { activity } = await subRoot.deleteSubOrganization({
      organizationId: subOrganizationId,
      parameters: { deleteWithoutExport: true },
    });
    expect(activity.result!.deleteSubOrganizationResult).toEqual({ subOrganizationUuid: subOrganizationId });
    expect((await root.getSubOrgIds({ organizationId })).organizationIds).toEqual([]);
  });

  it("deletes without the flag once everything was exported, or when it holds no keys", async () => {
    const exported = await subOrganization();
    const w = await wallet(exported.subRoot, exported.subOrganizationId, "w");
    const k = await privateKey(exported.subRoot, exported.subOrganizationId, "k");
    await exported.subRoot.exportWallet({
      organizationId: exported.subOrganizationId,
      parameters: { walletId: w.walletId, targetPublicKey: targetPublicKey() },
    });
    await exported.subRoot.exportPrivateKey({
      organizationId: exported.subOrganizationId,
      parameters: { privateKeyId: k.privateKeyId, targetPublicKey: targetPublicKey() },
    });
    await exported.subRoot.deleteSubOrganization({ organizationId: exported.subOrganizationId, parameters: {} });
    const empty = await subOrganization();
    await empty.subRoot.deleteSubOrganization({
      organizationId: empty.subOrganizationId,
      parameters: { deleteWithoutExport: false },
    });
    expect((await empty.root.getSubOrgIds({ organizationId: empty.organizationId })).organizationIds).toEqual([]);
  });

  it("removes every record of the sub-organization, its credentials and cached keys, and keeps its activity log", async () => {
    const { engine, root, organizationId, subOrganizationId, subRootId, subRoot, subKey } = await subOrganization();
    const w = await wallet(subRoot, subOrganizationId, "w");
    const k = await privateKey(subRoot, subOrganizationId, "k");
    await sign(subRoot, subOrganizationId, w.addresses[0] as string);
    await subRoot.initImportWallet({ organizationId: subOrganizationId, parameters: { userId: subRootId } });
    await subRoot.createPolicy({
      organizationId: subOrganizationId,
      parameters: {
        policyName: "wallets need the root",
        effect: "EFFECT_ALLOW",
        notes: "",
        condition: "activity.resource == 'WALLET'",
        consensus: `approvers.any(user, user.id == '${subRootId}')`,
      },
    });
    await subRoot.createUserTag({
      organizationId: subOrganizationId,
      parameters: { userTagName: "ops", userIds: [subRootId] },
    });
    await subRoot.createPrivateKeyTag({
      organizationId: subOrganizationId,
      parameters: { privateKeyTagName: "hot", privateKeyIds: [k.privateKeyId] },
    });
    await subRoot.createSmartContractInterface({
      organizationId: subOrganizationId,
      parameters: {
        smartContractAddress: "0x5aF5194B4b0909eB978e3Cf1e25333852277f07D",
        smartContractInterface: "[]",
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: "contract",
      },
    });
    await subRoot.createSessionProfile({
      organizationId: subOrganizationId,
      parameters: { sessionProfileName: "signing", scope: "activity.action == 'SIGN'" },
    });
    await subRoot.createOauth2Credential({
      organizationId: subOrganizationId,
      parameters: {
        provider: "OAUTH2_PROVIDER_DISCORD",
        clientId: "client",
        encryptedClientSecret: await encryptOauth2ClientSecret("secret", await engine.oauth2ClientSecretPublicKey()),
      },
    });
    await engine.store.read(async (reader) => {
      for (const collection of [
        "users",
        "wallets",
        "privateKeys",
        "addresses",
        "tags",
        "policies",
        "policyVersions",
        "importTargets",
        "smartContractInterfaces",
        "sessionProfiles",
        "oauth2Credentials",
      ]) {
        expect((await reader.list(collection, subOrganizationId)).length, collection).toBeGreaterThan(0);
      }
    });
    const forget = vi.spyOn(KeyCache.prototype, "forget");
    const { activity } = await subRoot.deleteSubOrganization({
      organizationId: subOrganizationId,
      parameters: { deleteWithoutExport: true },
    });
    expect(forget.mock.calls.flat()).toEqual(expect.arrayContaining([w.walletId, k.privateKeyId]));

    await engine.store.read(async (reader) => {
      expect(await reader.get("organizations", subOrganizationId)).toBeUndefined();
      for (const collection of [
        "users",
        "wallets",
        "privateKeys",
        "addresses",
        "organizationAccounts",
        "tags",
        "policies",
        "policyVersions",
        "importTargets",
        "webhookEndpoints",
        "smartContractInterfaces",
        "sessionProfiles",
        "oauth2Credentials",
      ]) {
        expect(await reader.list(collection, subOrganizationId), collection).toEqual([]);
      }
      for (const collection of ["apiKeys", "authenticators", "oauthProviders"]) {
        expect(await reader.list(collection, subRootId), collection).toEqual([]);
      }
      expect(await reader.list("credentialLocations", `apiKey:${subKey.publicKey}`)).toEqual([]);
      expect(
        await reader.lookup("apiKeyByPublicKey", INDEX.apiKeyByPublicKey(subOrganizationId, subKey.publicKey)),
      ).toBeUndefined();
      const contractKey = INDEX.smartContractInterfaceByAddress(
        subOrganizationId,
        "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        "0x5af5194b4b0909eb978e3cf1e25333852277f07d",
      );
      expect(await reader.lookup("smartContractInterfaceByAddress", contractKey)).toBeUndefined();
      expect((await reader.get("activities", activity.id))?.status).toBe("ACTIVITY_STATUS_COMPLETED");
    });
    // The sub-organization's root can no longer act, the parent can no longer read it, and the parent is intact.
    await expectCustodyError(subRoot.getWhoami({ organizationId: subOrganizationId }), "UNAUTHENTICATED");
    await expectCustodyError(root.getWallets({ organizationId: subOrganizationId }), "NOT_FOUND");
    expect((await root.getWhoami({ organizationId })).organizationId).toBe(organizationId);
  });

  it("is submitted from inside the sub-organization: the parent's credential is refused", async () => {
    const { root, subOrganizationId } = await subOrganization();
    await expectCustodyError(
      root.deleteSubOrganization({ organizationId: subOrganizationId, parameters: { deleteWithoutExport: true } }),
      "INVALID_ARGUMENT",
      "organizationId",
    );
  });
});
