/**
 * Dogecoin P2PKH addresses (`D…` on mainnet, `n…`/`m…` on testnet), with @scure/btc-signer's P2PKH
 * template and Dogecoin's version bytes (Dogecoin Core chainparams; testnet `0x71` as in Turnkey's Doge
 * example).
 *
 * @module
 */
import { p2pkh } from "@scure/btc-signer";
import type { ChainParams } from "./bitcoin.js";
import type { Secp256k1PublicKey } from "./public-key.js";

/** Dogecoin chain parameters. `bech32` is required by the type but unused: Dogecoin has no segwit. */
export const DOGECOIN_NETWORKS = {
  MAINNET: { bech32: "", pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e },
  TESTNET: { bech32: "", pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
} as const satisfies Record<string, ChainParams>;

/** A network of the Dogecoin address formats. */
export type DogecoinNetwork = keyof typeof DOGECOIN_NETWORKS;

/** The Dogecoin P2PKH address of `key`. */
export function dogecoinAddress(network: DogecoinNetwork, key: Secp256k1PublicKey): string {
  return p2pkh(key.compressed, DOGECOIN_NETWORKS[network]).address;
}
