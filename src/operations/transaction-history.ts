/**
 * Transaction history of a wallet account on a chain the host configured (engine option `chains`):
 * - `list_eth_transaction_history`: EVM chains, from what the engine broadcast or signed and the balance watcher saw,
 *   each entry read from the chain (`domain/eth-transaction-history.ts`);
 * - `list_sol_transaction_history`: Solana clusters, from the cluster's own list of the address's
 *   transactions (`domain/sol-transaction-history.ts`).
 *
 * As the hosted service, the address must be a wallet account's (a private key's is refused), and a chain
 * without a backend is `FAILED_PRECONDITION` (`CHAIN_NOT_CONFIGURED`) naming it. Queries take no policy.
 *
 * @module
 */
import * as v from "valibot";
import { defineQuery } from "../contract/operation.js";
import { id, pagination, withoutNul } from "../contract/schema.js";
import { ethTransactionHistory } from "../domain/eth-transaction-history.js";
import { solTransactionHistory } from "../domain/sol-transaction-history.js";
import { chainAndWalletAccount } from "../domain/wallet-account-address.js";

const address = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128), withoutNul);

export const listEthTransactionHistory = defineQuery({
  method: "listEthTransactionHistory",
  path: "list_eth_transaction_history",
  request: v.object({
    organizationId: id,
    address,
    caip2: v.pipe(v.string(), v.regex(/^eip155:[1-9][0-9]{0,18}$/, "must be an EVM CAIP-2 chain id, e.g. eip155:1")),
    paginationOptions: v.optional(pagination),
  }),
  async handler(context, request) {
    const { chain, account } = await chainAndWalletAccount(context, request);
    return ethTransactionHistory(context, chain, account.address, request.paginationOptions);
  },
});

export const listSolTransactionHistory = defineQuery({
  method: "listSolTransactionHistory",
  path: "list_sol_transaction_history",
  request: v.object({
    organizationId: id,
    address,
    caip2: v.pipe(
      v.string(),
      v.regex(/^solana:[-_a-zA-Z0-9]{1,64}$/, "must be a Solana CAIP-2 chain id, e.g. solana:mainnet"),
    ),
    paginationOptions: v.optional(pagination),
  }),
  async handler(context, request) {
    const { chain, account } = await chainAndWalletAccount(context, request);
    return solTransactionHistory(context, chain, account.address, request.paginationOptions);
  },
});
