/**
 * The operation table: every activity and query custodian serves. The typed `CustodyEngine` methods, the
 * HTTP routes and the compatibility checks against the public API description all come from this list.
 * Adding an operation is one entry here and one handler in its resource module.
 *
 * @module
 */
import { getActivities, getActivity } from "./activities.js";
import type { Operation } from "./define.js";
import { createSubOrganization, getOrganization, getWhoami, listSubOrgIds } from "./organizations.js";
import {
  createPrivateKeys,
  createPrivateKeyTag,
  deletePrivateKeyTags,
  getPrivateKey,
  getPrivateKeys,
  listPrivateKeyTags,
  updatePrivateKeyTag,
} from "./private-keys.js";
import {
  createWallet,
  createWalletAccounts,
  getWallet,
  getWalletAccount,
  getWalletAccounts,
  getWallets,
  updateWallet,
} from "./wallets.js";

export const OPERATIONS = [
  createSubOrganization,
  getWhoami,
  getOrganization,
  listSubOrgIds,
  getActivity,
  getActivities,
  // Wallets and private keys
  createWallet,
  createWalletAccounts,
  updateWallet,
  getWallet,
  getWallets,
  getWalletAccount,
  getWalletAccounts,
  createPrivateKeys,
  createPrivateKeyTag,
  updatePrivateKeyTag,
  deletePrivateKeyTags,
  getPrivateKey,
  getPrivateKeys,
  listPrivateKeyTags,
] as const satisfies readonly Operation[];

export type Operations = typeof OPERATIONS;

/** Looks an operation up by its URL path (`/public/v1/submit/create_wallet`). */
export function operationByUrlPath(urlPath: string): Operation | undefined {
  return BY_URL_PATH.get(urlPath);
}

/** The URL path of an operation. */
export function urlPathOf(operation: Operation): string {
  return `/public/v1/${operation.kind === "activity" ? "submit" : "query"}/${operation.path}`;
}

const BY_URL_PATH = new Map<string, Operation>(OPERATIONS.map((operation) => [urlPathOf(operation), operation]));
