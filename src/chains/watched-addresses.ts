/**
 * Whose addresses the balance watcher watches: the wallet accounts (not private keys: the hosted service
 * reports wallet accounts only) of every organization with an active endpoint subscribed to balance updates,
 * and of that organization's sub-organizations (a parent's endpoint receives its sub-organizations' events).
 * Read from the store each round, up to {@link MAX_WATCHED_ADDRESSES}.
 *
 * @module
 */
import { BALANCE_WATCHES_SCOPE, DataReader } from "../model/data.js";
import type { StoreReader } from "../storage/store.js";

/**
 * Addresses watched per chain family at most. The scan itself costs the same whatever the number (blocks and
 * logs are read whole and matched here), so this bounds the store reads and memory of a round; addresses past
 * it are not watched, and the round says so through the watcher's error hook.
 */
export const MAX_WATCHED_ADDRESSES = 10_000;

/** Organizations with balance subscriptions read per round at most (each brings its sub-organizations). */
const MAX_WATCHES = 1_000;

/** Address (lowercase for EVM) → the organization holding it. */
export interface WatchedAddresses {
  readonly byAddress: Map<string, string>;
  /** True when addresses were left out (past {@link MAX_WATCHED_ADDRESSES}). */
  readonly truncated: boolean;
}

/** Whether any organization has a balance subscription (a single read: nothing else happens without one). */
export async function anyBalanceWatch(reader: StoreReader): Promise<boolean> {
  return (await new DataReader(reader).list("balanceWatches", BALANCE_WATCHES_SCOPE, { limit: 1 })).length > 0;
}

/** The wallet addresses of `addressFormat` to watch, with the organization of each. */
export async function watchedAddresses(reader: StoreReader, addressFormat: string): Promise<WatchedAddresses> {
  const data = new DataReader(reader);
  const byAddress = new Map<string, string>();
  let truncated = false;
  const seen = new Set<string>();
  const organizations: string[] = [];
  for (const watch of await data.list("balanceWatches", BALANCE_WATCHES_SCOPE, { limit: MAX_WATCHES })) {
    organizations.push(watch.id);
  }
  while (organizations.length > 0) {
    const organizationId = organizations.shift() as string;
    if (seen.has(organizationId)) continue;
    seen.add(organizationId);
    for (const wallet of await data.listAll("wallets", organizationId)) {
      for (const account of await data.listAll("walletAccounts", wallet.id)) {
        if (account.addressFormat !== addressFormat) continue;
        if (byAddress.size >= MAX_WATCHED_ADDRESSES) {
          truncated = true;
          break;
        }
        const address = addressFormat === "ADDRESS_FORMAT_ETHEREUM" ? account.address.toLowerCase() : account.address;
        byAddress.set(address, organizationId);
      }
    }
    if (byAddress.size >= MAX_WATCHED_ADDRESSES) {
      truncated ||= organizations.length > 0;
      break;
    }
    for (const child of await data.listAll("organizations", organizationId)) organizations.push(child.id);
  }
  return { byAddress, truncated };
}
