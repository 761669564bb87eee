/**
 * The check the chain queries of one address share (balances, transaction history): the address is a wallet
 * account of the organization, on the requested chain's family. The hosted service refuses private keys'
 * addresses for these queries, so custodian does too.
 *
 * @module
 */
import type { AssetRegistry } from "../chains/assets.js";
import { invalidArgument, notFound } from "../common/errors.js";
import { addressRecordId, type DataReader } from "../model/data.js";
import type { WalletAccountRecord } from "../model/records.js";

/**
 * The wallet account of `organizationId` at `address` (request member `address`), which must be an account
 * address of the configured chain `chain` (asked for as `requested`).
 */
export async function requireWalletAccountAddress(
  data: DataReader,
  assets: AssetRegistry,
  organizationId: string,
  address: string,
  chain: string,
  requested: string,
): Promise<WalletAccountRecord> {
  const owner = await data.get("addresses", addressRecordId(organizationId, address));
  if (owner?.kind === "privateKey") {
    throw invalidArgument("private key addresses are not supported: give a wallet account's address", "address");
  }
  const account = owner ? await data.get("walletAccounts", owner.ownerId) : undefined;
  if (!account) throw notFound("wallet account", address, "address");
  if (!assets.isAccountAddress(chain, account.address)) {
    throw invalidArgument(`${address} is not an account address of ${requested}`, "address");
  }
  return account;
}
