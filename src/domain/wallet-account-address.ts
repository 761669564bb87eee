/**
 * The check the chain queries of one address share (balances, transaction history): the address is a wallet
 * account of the organization, on the requested chain's family. The hosted service refuses private keys'
 * addresses for these queries, so custodian does too.
 *
 * @module
 */
import type { AssetRegistry } from "../chains/assets.js";
import { invalidArgument, notFound } from "../common/errors.js";
import type { QueryContext } from "../contract/operation.js";
import { addressRecordId, type DataReader } from "../model/data.js";
import type { WalletAccountRecord } from "../model/records.js";

/**
 * The wallet account of `organizationId` at `address` (request member `address`), which must be an account
 * address of the configured chain `chain` (asked for as `requested`).
 */
async function requireWalletAccountAddress(
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

/**
 * The configured chain a request's `caip2` names and the organization's wallet account at its `address`. The
 * chain is checked first: an unconfigured one is refused before anything else, as the sends refuse it.
 */
export async function chainAndWalletAccount(
  context: QueryContext,
  request: { readonly address: string; readonly caip2: string },
): Promise<{ chain: string; account: WalletAccountRecord }> {
  const { services, data, organization } = context;
  const chain = services.chains.configuredId(request.caip2);
  services.chains.require(chain, "caip2");
  const account = await requireWalletAccountAddress(
    data,
    services.assets,
    organization.id,
    request.address,
    chain,
    request.caip2,
  );
  return { chain, account };
}
