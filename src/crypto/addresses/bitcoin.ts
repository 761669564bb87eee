/**
 * Bitcoin addresses on the four networks of the wire enum, built with @scure/btc-signer's payment
 * templates. Custodian's choices (docs/spec/addresses.md §5): P2SH is nested segwit (P2SH-P2WPKH), P2WSH wraps the
 * script `<pub33> OP_CHECKSIG`, P2TR is BIP86 key-path only; signet shares testnet's prefixes and regtest
 * uses `bcrt` (Bitcoin Core's chain parameters).
 *
 * @module
 */
import { NETWORK, p2pk, p2pkh, p2sh, p2tr, p2wpkh, p2wsh, TEST_NETWORK } from "@scure/btc-signer";
import type { Secp256k1PublicKey } from "./public-key.js";

/** Chain parameters in @scure/btc-signer's shape (its `ChainParams` type is not exported). */
export type ChainParams = typeof NETWORK;

/** The networks of the `ADDRESS_FORMAT_BITCOIN_<NET>_*` formats. */
export const BITCOIN_NETWORKS = {
  MAINNET: NETWORK,
  TESTNET: TEST_NETWORK,
  SIGNET: TEST_NETWORK,
  REGTEST: { ...TEST_NETWORK, bech32: "bcrt" },
} as const satisfies Record<string, ChainParams>;

/** A network of the Bitcoin address formats. */
export type BitcoinNetwork = keyof typeof BITCOIN_NETWORKS;

/** The script types of the Bitcoin address formats. */
export type BitcoinScriptType = "P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR";

const OUTPUTS: Record<BitcoinScriptType, (key: Secp256k1PublicKey, network: ChainParams) => string> = {
  P2PKH: (key, network) => p2pkh(key.compressed, network).address,
  P2SH: (key, network) => p2sh(p2wpkh(key.compressed, network), network).address,
  P2WPKH: (key, network) => p2wpkh(key.compressed, network).address,
  P2WSH: (key, network) => p2wsh(p2pk(key.compressed, network), network).address,
  // BIP86: the x-only internal key, no script tree; btc-signer applies the TapTweak.
  P2TR: (key, network) => p2tr(key.compressed.subarray(1), undefined, network).address,
};

/** The Bitcoin address of `key` for a script type on a network. */
export function bitcoinAddress(network: BitcoinNetwork, type: BitcoinScriptType, key: Secp256k1PublicKey): string {
  return OUTPUTS[type](key, BITCOIN_NETWORKS[network]);
}
