/**
 * Balances and assets of the chains the host configured (engine options `chains` and `tokens`):
 * - `get_wallet_address_balances`: the non-zero balances a wallet account of the organization holds on a
 *   chain, of its native coin and the listed tokens, read from the chain at call time;
 * - `list_supported_assets`: the native coin and the listed tokens of a chain.
 *
 * A chain without a backend is `FAILED_PRECONDITION` (`CHAIN_NOT_CONFIGURED`) naming it, as the sends answer.
 * Prices are not known, so `display` carries the amount in whole units and no `usd`.
 *
 * @module
 */
import * as v from "valibot";
import type { AssetMetadata } from "../chains/asset-types.js";
import { defineQuery } from "../contract/operation.js";
import { id, withoutNul } from "../contract/schema.js";
import { formatUnits } from "../domain/display-units.js";
import { chainAndWalletAccount } from "../domain/wallet-account-address.js";

const caip2 = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128), withoutNul);

function renderAsset(asset: AssetMetadata) {
  return {
    caip19: asset.caip19,
    ...(asset.symbol !== "" ? { symbol: asset.symbol } : {}),
    decimals: asset.decimals,
    ...(asset.name !== "" ? { name: asset.name } : {}),
  };
}

export const getWalletAddressBalances = defineQuery({
  method: "getWalletAddressBalances",
  path: "get_wallet_address_balances",
  request: v.object({
    organizationId: id,
    address: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128), withoutNul),
    caip2,
  }),
  async handler(context, request) {
    const { chain, account } = await chainAndWalletAccount(context, request);
    const balances = await context.services.assets.balances(chain, account.address, "caip2");
    return {
      balances: balances
        .filter(({ balance }) => balance > 0n)
        .map(({ asset, balance }) => ({
          ...renderAsset(asset),
          balance: balance.toString(),
          display: { crypto: formatUnits(balance, asset.decimals) },
        })),
    };
  },
});

export const listSupportedAssets = defineQuery({
  method: "listSupportedAssets",
  path: "list_supported_assets",
  request: v.object({ organizationId: id, caip2 }),
  async handler(context, request) {
    const { services } = context;
    const assets = await services.assets.assets(request.caip2, "caip2");
    return { assets: assets.map(renderAsset) };
  },
});
