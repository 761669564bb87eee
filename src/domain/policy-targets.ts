/**
 * The signing and export targets as the policy keywords show them (docs/spec/policy-language.md §2: `wallet`,
 * `wallet_account`, `private_key`), for the rows' `policyTarget`.
 *
 * @module
 */
import { notFound } from "../common/errors.js";
import type { PolicyTargetData } from "../contract/operation.js";
import type { DataReader } from "../model/data.js";
import type { PrivateKeyRecord, WalletAccountRecord, WalletRecord } from "../model/records.js";
import type { PolicyData } from "../policy/types.js";

/** The `wallet` keyword: `{id, label, imported, exported}`. */
export function walletPolicyData(wallet: WalletRecord): PolicyData {
  return { id: wallet.id, label: wallet.walletName, imported: wallet.imported, exported: wallet.exported };
}

/** The `wallet_account` keyword: `{address}`. */
export function walletAccountPolicyData(account: WalletAccountRecord): PolicyData {
  return { address: account.address };
}

/** The `private_key` keyword: `{id, label, tags, imported, exported}`, tags as tag ids. */
export function privateKeyPolicyData(key: PrivateKeyRecord): PolicyData {
  return {
    id: key.id,
    label: key.privateKeyName,
    tags: [...key.tagIds],
    imported: key.imported,
    exported: key.exported,
  };
}

/**
 * The target keywords of a wallet account an activity signs with or exports: `wallet` and
 * `wallet_account`. A signing row's `policyTarget` gives this, or `{ private_key }` for a private key.
 */
export async function walletAccountTarget(data: DataReader, account: WalletAccountRecord): Promise<PolicyTargetData> {
  const wallet = await data.get("wallets", account.walletId);
  if (!wallet) throw notFound("wallet", account.walletId);
  return { wallet: walletPolicyData(wallet), wallet_account: walletAccountPolicyData(account) };
}
