/**
 * Deletion: `delete_wallets`, `delete_wallet_accounts`, `delete_private_keys` and `delete_sub_organization`.
 *
 * The export rule: key material that was never exported is refused (`FAILED_PRECONDITION`, naming every
 * such item) unless the request says `deleteWithoutExport: true`; for exported items the flag changes
 * nothing. A wallet counts as exported once its mnemonic was; an account once it or its wallet was.
 *
 * Deleting removes every record and index entry of the item (accounts, the organization's account list,
 * address owners, tag memberships, which live on the key records) and drops its cached keys, so nothing of
 * it can be read, listed or signed with afterwards.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { defineActivity } from "../contract/operation.js";
import { id, list, MAX_LIST_LENGTH } from "../contract/schema.js";
import type { EngineServices } from "../contract/services.js";
import { removeUser } from "../domain/credentials/index.js";
import { walletPolicyData } from "../domain/policy-targets.js";
import { addressRecordId, type DataWriter } from "../model/data.js";
import type { PrivateKeyRecord, WalletAccountRecord, WalletRecord } from "../model/records.js";
import { requirePrivateKey } from "./private-keys.js";
import { requireWallet } from "./wallets.js";

const deleteWithoutExport = v.optional(v.boolean());

/** A non-empty list of ids (a repeated one is refused by the handler, naming its place). */
const ids = (what: string) => v.pipe(list(id, MAX_LIST_LENGTH), v.minLength(1, `needs at least one ${what} id`));

/** Items that were never exported, for the export rule: what they are, and the detail key listing their ids. */
interface Unexported {
  /** Plural noun for the message: `wallets`, `private keys`, ... */
  what: string;
  /** Detail member listing the ids: `walletIds`, ... */
  key: string;
  ids: string[];
}

/**
 * The export rule: throws `FAILED_PRECONDITION` naming every unexported item unless the request allows
 * deleting them anyway (`force`).
 */
function assertExportedOrForced(
  groups: readonly Unexported[],
  force: boolean | undefined,
  field: string,
  reason: string,
): void {
  const named = groups.filter((group) => group.ids.length > 0);
  if (force === true || named.length === 0) return;
  const what = named.map((group) => `${group.what} ${group.ids.join(", ")}`).join(" and ");
  throw new CustodyError(
    "FAILED_PRECONDITION",
    `not exported yet: ${what}; export first, or set deleteWithoutExport to delete without a copy`,
    { field, reason, ...Object.fromEntries(named.map((group) => [group.key, group.ids])) },
  );
}

/** What a list-deleting activity deletes, as its messages, details and result name it. */
interface Listed {
  /** Singular noun, for a repeated id: `wallet`, ... */
  one: string;
  /** Plural noun, for the export rule: `wallets`, ... */
  many: string;
  /** The parameter listing the ids, and the result member repeating them: `walletIds`, ... */
  key: string;
  /** The export rule's reason code. */
  reason: string;
}

/**
 * Resolves the listed ids in order (refusing a repeated or unknown id by its place), then applies the export
 * rule to what they name. Returns the items to delete, in request order.
 */
async function resolveForDeletion<T>(
  ids: readonly string[],
  listed: Listed,
  force: boolean | undefined,
  resolve: (id: string, field: string) => Promise<T>,
  exported: (item: T) => boolean,
): Promise<T[]> {
  const field = `parameters.${listed.key}`;
  const items: T[] = [];
  for (const [i, value] of ids.entries()) {
    if (ids.indexOf(value) !== i) throw invalidArgument(`${listed.one} ${value} is listed twice`, `${field}[${i}]`);
    items.push(await resolve(value, `${field}[${i}]`));
  }
  const unexported = ids.filter((_, i) => !exported(items[i] as T));
  assertExportedOrForced([{ what: listed.many, key: listed.key, ids: unexported }], force, field, listed.reason);
  return items;
}

/** Removes one wallet account with its organization-list entry, its address owner and its cached signer. */
async function removeWalletAccount(
  data: DataWriter,
  services: EngineServices,
  account: WalletAccountRecord,
): Promise<void> {
  await data.delete("walletAccounts", account.id);
  await data.delete("organizationAccounts", account.id);
  const addressId = addressRecordId(account.organizationId, account.address);
  const owner = await data.get("addresses", addressId);
  if (owner?.ownerId === account.id) await data.delete("addresses", addressId);
  services.keys.forget(account.id);
}

/** Removes a wallet, every account it holds, and its cached seed and nodes. */
async function removeWallet(data: DataWriter, services: EngineServices, wallet: WalletRecord): Promise<void> {
  for (const account of await data.listAll("walletAccounts", wallet.id)) {
    await removeWalletAccount(data, services, account);
  }
  await data.delete("wallets", wallet.id);
  services.keys.forget(wallet.id);
}

/** Removes a private key with its address owners (its tag memberships live on it) and its cached signer. */
async function removePrivateKey(data: DataWriter, services: EngineServices, key: PrivateKeyRecord): Promise<void> {
  for (const { address } of key.addresses) {
    const addressId = addressRecordId(key.organizationId, address);
    const owner = await data.get("addresses", addressId);
    if (owner?.ownerId === key.id) await data.delete("addresses", addressId);
  }
  await data.delete("privateKeys", key.id);
  services.keys.forget(key.id);
}

export const deleteWallets = defineActivity({
  method: "deleteWallets",
  path: "delete_wallets",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_WALLETS",
      intent: "deleteWalletsIntent",
      result: "deleteWalletsResult",
      parameters: v.object({ walletIds: ids("wallet"), deleteWithoutExport }),
    },
  ],
  policy: { resource: "WALLET", action: "DELETE" },
  async policyTarget(context, params) {
    const wallets: WalletRecord[] = [];
    for (const [i, walletId] of params.walletIds.entries()) {
      wallets.push(await requireWallet(context.data, context.organization.id, walletId, `parameters.walletIds[${i}]`));
    }
    return { wallets: wallets.map(walletPolicyData) };
  },
  async handler(context, params) {
    const { data, organization, services } = context;
    const wallets = await resolveForDeletion(
      params.walletIds,
      { one: "wallet", many: "wallets", key: "walletIds", reason: "WALLETS_NOT_EXPORTED" },
      params.deleteWithoutExport,
      (walletId, field) => requireWallet(data, organization.id, walletId, field),
      (wallet) => wallet.exported,
    );
    for (const wallet of wallets) await removeWallet(data, services, wallet);
    return { walletIds: wallets.map((wallet) => wallet.id) };
  },
});

export const deleteWalletAccounts = defineActivity({
  method: "deleteWalletAccounts",
  path: "delete_wallet_accounts",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
      intent: "deleteWalletAccountsIntent",
      result: "deleteWalletAccountsResult",
      parameters: v.object({ walletAccountIds: ids("wallet account"), deleteWithoutExport }),
    },
  ],
  policy: { resource: "WALLET", action: "DELETE" },
  async handler(context, params) {
    const { data, organization, services } = context;
    const accounts = await resolveForDeletion(
      params.walletAccountIds,
      {
        one: "wallet account",
        many: "wallet accounts",
        key: "walletAccountIds",
        reason: "WALLET_ACCOUNTS_NOT_EXPORTED",
      },
      params.deleteWithoutExport,
      async (accountId, field) => {
        const account = await data.requireInOrganization(
          "walletAccounts",
          accountId,
          organization.id,
          "wallet account",
          field,
        );
        return { account, wallet: await requireWallet(data, organization.id, account.walletId, field) };
      },
      ({ account, wallet }) => account.exported || wallet.exported,
    );
    for (const { account, wallet } of accounts) {
      await removeWalletAccount(data, services, account);
      // The wallet's cached HD nodes include this account's path: drop them (they re-derive on demand).
      services.keys.forget(wallet.id);
    }
    return { walletAccountIds: accounts.map(({ account }) => account.id) };
  },
});

export const deletePrivateKeys = defineActivity({
  method: "deletePrivateKeys",
  path: "delete_private_keys",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
      intent: "deletePrivateKeysIntent",
      result: "deletePrivateKeysResult",
      parameters: v.object({ privateKeyIds: ids("private key"), deleteWithoutExport }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "DELETE" },
  async handler(context, params) {
    const { data, organization, services } = context;
    const keys = await resolveForDeletion(
      params.privateKeyIds,
      { one: "private key", many: "private keys", key: "privateKeyIds", reason: "PRIVATE_KEYS_NOT_EXPORTED" },
      params.deleteWithoutExport,
      (keyId, field) => requirePrivateKey(data, organization.id, keyId, field),
      (key) => key.exported,
    );
    for (const key of keys) await removePrivateKey(data, services, key);
    return { privateKeyIds: keys.map((key) => key.id) };
  },
});

/**
 * Removes everything an organization holds: wallets and keys (as above), users with their credentials,
 * tags, policies, pending import targets, secrets, webhook endpoints, smart contract interfaces, and the organization itself. Its activities
 * and their decision records stay: they are the audit trail, and they keep a replayed request answering
 * with its activity.
 */
async function removeOrganizationData(context: ActivityContext): Promise<void> {
  const { data, organization, services } = context;
  for (const wallet of await data.listAll("wallets", organization.id)) await removeWallet(data, services, wallet);
  for (const key of await data.listAll("privateKeys", organization.id)) await removePrivateKey(data, services, key);
  for (const user of await data.listAll("users", organization.id)) await removeUser(data, user);
  for (const tag of await data.listAll("tags", organization.id)) await data.delete("tags", tag.id);
  for (const policy of await data.listAll("policies", organization.id)) await data.delete("policies", policy.id);
  await data.delete("policyVersions", organization.id);
  for (const profile of await data.listAll("sessionProfiles", organization.id)) {
    await data.delete("sessionProfiles", profile.id);
  }
  for (const target of await data.listAll("importTargets", organization.id)) {
    await data.delete("importTargets", target.id);
  }
  for (const secret of await data.listAll("secrets", organization.id)) await data.delete("secrets", secret.id);
  // Deliveries already queued to these endpoints are cancelled when they come due (their endpoint is gone).
  for (const endpoint of await data.listAll("webhookEndpoints", organization.id)) {
    await data.delete("webhookEndpoints", endpoint.id);
  }
  await data.delete("balanceWatches", organization.id);
  for (const contract of await data.listAll("smartContractInterfaces", organization.id)) {
    await data.delete("smartContractInterfaces", contract.id);
  }
  for (const credential of await data.listAll("oauth2Credentials", organization.id)) {
    await data.delete("oauth2Credentials", credential.id);
  }
  await data.delete("organizations", organization.id);
}

export const deleteSubOrganization = defineActivity({
  method: "deleteSubOrganization",
  path: "delete_sub_organization",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION",
      intent: "deleteSubOrganizationIntent",
      result: "deleteSubOrganizationResult",
      parameters: v.object({ deleteWithoutExport }),
    },
  ],
  policy: { resource: "ORGANIZATION", action: "DELETE" },
  // Submitted from inside the sub-organization (its root users decide), as Turnkey requires: a parent
  // cannot delete a sub-organization without its participation.
  async handler(context, params) {
    const { data, organization } = context;
    if (organization.parentOrganizationId === null) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `organization ${organization.id} is not a sub-organization; only sub-organizations can be deleted`,
        { field: "organizationId", reason: "NOT_A_SUB_ORGANIZATION" },
      );
    }
    const wallets = await data.listAll("wallets", organization.id);
    const keys = await data.listAll("privateKeys", organization.id);
    assertExportedOrForced(
      [
        { what: "wallets", key: "walletIds", ids: wallets.filter((w) => !w.exported).map((w) => w.id) },
        { what: "private keys", key: "privateKeyIds", ids: keys.filter((k) => !k.exported).map((k) => k.id) },
      ],
      params.deleteWithoutExport,
      "parameters.deleteWithoutExport",
      "KEYS_NOT_EXPORTED",
    );
    await removeOrganizationData(context);
    return { subOrganizationUuid: organization.id };
  },
});
