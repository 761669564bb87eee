/**
 * Reading wallets and accounts: `get_wallet`, `list_wallets`, `get_wallet_account`, `list_wallet_accounts`,
 * and the wire renderers of `v1Wallet` and `v1WalletAccount`.
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument, notFound } from "../common/errors.js";
import { defineQuery } from "../contract/operation.js";
import { DEFAULT_PAGE_SIZE, id, pagination, withoutNul } from "../contract/schema.js";
import { formatDerivationPath, parseDerivationPath } from "../crypto/hd/index.js";
import { addressRecordId, type DataReader } from "../model/data.js";
import type { WalletAccountRecord, WalletRecord } from "../model/records.js";
import { timestamp } from "../model/render.js";
import { requireWallet } from "./wallets.js";

export function renderWallet(wallet: WalletRecord) {
  return {
    walletId: wallet.id,
    walletName: wallet.walletName,
    createdAt: timestamp(wallet.createdAtMs),
    updatedAt: timestamp(wallet.updatedAtMs),
    exported: wallet.exported,
    imported: wallet.imported,
  };
}

function renderAccount(account: WalletAccountRecord, wallet?: WalletRecord) {
  return {
    walletAccountId: account.id,
    organizationId: account.organizationId,
    walletId: account.walletId,
    curve: account.curve,
    pathFormat: account.pathFormat,
    path: account.path,
    addressFormat: account.addressFormat,
    address: account.address,
    createdAt: timestamp(account.createdAtMs),
    updatedAt: timestamp(account.updatedAtMs),
    publicKey: account.publicKey,
    ...(account.name !== null ? { name: account.name } : {}),
    ...(wallet ? { walletDetails: renderWallet(wallet) } : {}),
  };
}

export const getWallet = defineQuery({
  method: "getWallet",
  path: "get_wallet",
  request: v.object({ organizationId: id, walletId: id }),
  async handler(context, request) {
    return {
      wallet: renderWallet(await requireWallet(context.data, context.organization.id, request.walletId, "walletId")),
    };
  },
});

export const getWallets = defineQuery({
  method: "getWallets",
  path: "list_wallets",
  request: v.object({ organizationId: id }),
  async handler(context) {
    return { wallets: (await context.data.listAll("wallets", context.organization.id)).map(renderWallet) };
  },
});

/**
 * The oldest account of a wallet at `path` (canonical spelling). Several accounts may share a path (one per
 * curve and address format); `get_wallet_account` with a path alone answers the first one created, whose
 * `publicKey` every account on the same curve at that path shares. Pass `address` to pick one.
 */
async function firstAccountAtPath(
  data: DataReader,
  walletId: string,
  path: string,
): Promise<WalletAccountRecord | undefined> {
  // Paged, so the common case (the first accounts) reads little of a large wallet.
  let after: string | undefined;
  for (;;) {
    const page = await data.list("walletAccounts", walletId, { after, limit: ACCOUNT_SCAN_PAGE });
    const found = page.find((account) => account.path === path);
    if (found || page.length < ACCOUNT_SCAN_PAGE) return found;
    after = page[page.length - 1]?.id;
  }
}

const ACCOUNT_SCAN_PAGE = 200;

export const getWalletAccount = defineQuery({
  method: "getWalletAccount",
  path: "get_wallet_account",
  request: v.object({
    organizationId: id,
    walletId: id,
    address: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512), withoutNul)),
    path: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096), withoutNul)),
  }),
  async handler(context, request) {
    const { data, organization } = context;
    const wallet = await requireWallet(data, organization.id, request.walletId, "walletId");
    const canonicalPath =
      request.path === undefined ? undefined : formatDerivationPath(parseDerivationPath(request.path, "path"));
    let account: WalletAccountRecord | undefined;
    if (request.address !== undefined) {
      const owner = await data.get("addresses", addressRecordId(organization.id, request.address));
      account = owner?.kind === "walletAccount" ? await data.get("walletAccounts", owner.ownerId) : undefined;
      if (!account || account.walletId !== wallet.id) throw notFound("wallet account", request.address, "address");
      if (canonicalPath !== undefined && account.path !== canonicalPath) {
        throw invalidArgument("address and path name different accounts", "path");
      }
    } else if (canonicalPath !== undefined) {
      account = await firstAccountAtPath(data, wallet.id, canonicalPath);
      if (!account) throw notFound("wallet account", request.path ?? canonicalPath, "path");
    }
    if (!account) throw invalidArgument("give the account's address or its path", "address");
    return { account: renderAccount(account) };
  },
});

export const getWalletAccounts = defineQuery({
  method: "getWalletAccounts",
  path: "list_wallet_accounts",
  request: v.object({
    organizationId: id,
    walletId: v.optional(id),
    includeWalletDetails: v.optional(v.boolean()),
    paginationOptions: v.optional(pagination),
  }),
  async handler(context, request) {
    const { data, organization } = context;
    const limit = request.paginationOptions?.limit ?? DEFAULT_PAGE_SIZE;
    const { after, before } = request.paginationOptions ?? {};
    // Creation order. `before` alone pages backwards: the accounts just before the cursor, still oldest first.
    const backwards = before !== undefined && after === undefined;
    const options = { after, before, limit, order: backwards ? ("desc" as const) : ("asc" as const) };
    let accounts: WalletAccountRecord[];
    if (request.walletId !== undefined) {
      await requireWallet(data, organization.id, request.walletId, "walletId");
      accounts = await data.list("walletAccounts", request.walletId, options);
    } else {
      const entries = await data.list("organizationAccounts", organization.id, options);
      accounts = (await Promise.all(entries.map((entry) => data.get("walletAccounts", entry.id)))).filter(
        (account): account is WalletAccountRecord => account !== undefined,
      );
    }
    if (backwards) accounts.reverse();
    const wallets = new Map<string, WalletRecord | undefined>();
    if (request.includeWalletDetails) {
      for (const account of accounts) {
        if (!wallets.has(account.walletId)) wallets.set(account.walletId, await data.get("wallets", account.walletId));
      }
    }
    return { accounts: accounts.map((account) => renderAccount(account, wallets.get(account.walletId))) };
  },
});
