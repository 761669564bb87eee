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
import { invalidArgument, notFound } from "../common/errors.js";
import { defineQuery } from "../contract/operation.js";
import { id, withoutNul } from "../contract/schema.js";
import { addressRecordId } from "../model/data.js";

const caip2 = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128), withoutNul);

/** `amount` in whole units of an asset with `decimals`, without trailing zeros (`1.5`, `0.000001`, `12`). */
function formatUnits(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

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
    const { data, organization, services } = context;
    // The chain first: an unconfigured one is refused before anything else, as the sends refuse it.
    const chain = services.chains.configuredId(request.caip2);
    services.chains.require(chain, "caip2");
    const owner = await data.get("addresses", addressRecordId(organization.id, request.address));
    if (owner?.kind === "privateKey") {
      throw invalidArgument("private key addresses are not supported: give a wallet account's address", "address");
    }
    const account = owner ? await data.get("walletAccounts", owner.ownerId) : undefined;
    if (!account) throw notFound("wallet account", request.address, "address");
    if (!services.assets.isAccountAddress(chain, account.address)) {
      throw invalidArgument(`${request.address} is not an account address of ${request.caip2}`, "address");
    }
    const balances = await services.assets.balances(chain, account.address, "caip2");
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
