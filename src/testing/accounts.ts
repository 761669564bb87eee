/**
 * Wallet account presets for `create_wallet` and `create_wallet_accounts` in tests: the first account of each
 * chain's usual derivation path, shaped as `v1WalletAccountParams`.
 *
 * @module
 */

/** `v1WalletAccountParams`: one account to derive. */
export interface WalletAccountPreset {
  /** The key's curve. */
  readonly curve: "CURVE_SECP256K1" | "CURVE_ED25519";
  /** BIP-32 paths. */
  readonly pathFormat: "PATH_FORMAT_BIP32";
  /** The derivation path. */
  readonly path: string;
  /** The address the account shows. */
  readonly addressFormat: "ADDRESS_FORMAT_ETHEREUM" | "ADDRESS_FORMAT_SOLANA";
}

/** Ethereum's first account: secp256k1 at `m/44'/60'/0'/0/0`, a checksummed `0x` address. */
export const ETHEREUM_ACCOUNT: WalletAccountPreset = Object.freeze({
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
});

/** Solana's first account: ed25519 at `m/44'/501'/0'/0'`, a base58 address. */
export const SOLANA_ACCOUNT: WalletAccountPreset = Object.freeze({
  curve: "CURVE_ED25519",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/44'/501'/0'/0'",
  addressFormat: "ADDRESS_FORMAT_SOLANA",
});
