/**
 * The address of a public key in a given format: the one dispatcher over the per-chain encoders.
 *
 * @module
 */
import { bytesToHex } from "../bytes.js";
import { aptosAddress } from "./aptos.js";
import { bitcoinAddress } from "./bitcoin.js";
import { cosmosAddress } from "./cosmos.js";
import { dogecoinAddress } from "./dogecoin.js";
import { ethereumAddress } from "./ethereum.js";
import {
  type ADDRESS_FORMAT_SPECS,
  type AddressFormat,
  type Curve,
  curveMismatch,
  isSupportedAddressFormat,
  type SupportedAddressFormat,
  unsupportedAddressFormat,
} from "./formats.js";
import { parseEd25519PublicKey, parseSecp256k1PublicKey, type Secp256k1PublicKey } from "./public-key.js";
import { solanaAddress } from "./solana.js";
import { stellarAddress } from "./stellar.js";
import { suiAddress } from "./sui.js";
import { tonWalletAddress } from "./ton.js";
import { tronAddress } from "./tron.js";
import { xrpAddress } from "./xrp.js";

type Secp256k1Encoder = (key: Secp256k1PublicKey) => string;
type Ed25519Encoder = (publicKey: Uint8Array) => string;

/**
 * One encoder per curve a format accepts. The type is computed from {@link ADDRESS_FORMAT_SPECS}, so the
 * compiler rejects an encoder table that disagrees with the formats table.
 */
type EncoderTable = {
  [F in SupportedAddressFormat]: {
    [C in (typeof ADDRESS_FORMAT_SPECS)[F]["curves"][number]]: C extends "CURVE_SECP256K1"
      ? Secp256k1Encoder
      : Ed25519Encoder;
  };
};

const ENCODERS: EncoderTable = {
  ADDRESS_FORMAT_UNCOMPRESSED: { CURVE_SECP256K1: (key) => bytesToHex(key.uncompressed) },
  ADDRESS_FORMAT_COMPRESSED: {
    CURVE_SECP256K1: (key) => bytesToHex(key.compressed),
    CURVE_ED25519: (publicKey) => bytesToHex(publicKey),
  },
  ADDRESS_FORMAT_ETHEREUM: { CURVE_SECP256K1: ethereumAddress },
  ADDRESS_FORMAT_SOLANA: { CURVE_ED25519: solanaAddress },
  ADDRESS_FORMAT_COSMOS: { CURVE_SECP256K1: (key) => cosmosAddress("cosmos", key) },
  ADDRESS_FORMAT_TRON: { CURVE_SECP256K1: tronAddress },
  ADDRESS_FORMAT_SUI: { CURVE_ED25519: suiAddress },
  ADDRESS_FORMAT_APTOS: { CURVE_ED25519: aptosAddress },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: { CURVE_SECP256K1: (key) => bitcoinAddress("MAINNET", "P2PKH", key) },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: { CURVE_SECP256K1: (key) => bitcoinAddress("MAINNET", "P2SH", key) },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: { CURVE_SECP256K1: (key) => bitcoinAddress("MAINNET", "P2WPKH", key) },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: { CURVE_SECP256K1: (key) => bitcoinAddress("MAINNET", "P2WSH", key) },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: { CURVE_SECP256K1: (key) => bitcoinAddress("MAINNET", "P2TR", key) },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: { CURVE_SECP256K1: (key) => bitcoinAddress("TESTNET", "P2PKH", key) },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: { CURVE_SECP256K1: (key) => bitcoinAddress("TESTNET", "P2SH", key) },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: { CURVE_SECP256K1: (key) => bitcoinAddress("TESTNET", "P2WPKH", key) },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: { CURVE_SECP256K1: (key) => bitcoinAddress("TESTNET", "P2WSH", key) },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: { CURVE_SECP256K1: (key) => bitcoinAddress("TESTNET", "P2TR", key) },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: { CURVE_SECP256K1: (key) => bitcoinAddress("SIGNET", "P2PKH", key) },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: { CURVE_SECP256K1: (key) => bitcoinAddress("SIGNET", "P2SH", key) },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: { CURVE_SECP256K1: (key) => bitcoinAddress("SIGNET", "P2WPKH", key) },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: { CURVE_SECP256K1: (key) => bitcoinAddress("SIGNET", "P2WSH", key) },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: { CURVE_SECP256K1: (key) => bitcoinAddress("SIGNET", "P2TR", key) },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: { CURVE_SECP256K1: (key) => bitcoinAddress("REGTEST", "P2PKH", key) },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: { CURVE_SECP256K1: (key) => bitcoinAddress("REGTEST", "P2SH", key) },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: { CURVE_SECP256K1: (key) => bitcoinAddress("REGTEST", "P2WPKH", key) },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: { CURVE_SECP256K1: (key) => bitcoinAddress("REGTEST", "P2WSH", key) },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: { CURVE_SECP256K1: (key) => bitcoinAddress("REGTEST", "P2TR", key) },
  ADDRESS_FORMAT_SEI: { CURVE_SECP256K1: (key) => cosmosAddress("sei", key) },
  ADDRESS_FORMAT_XLM: { CURVE_ED25519: stellarAddress },
  ADDRESS_FORMAT_DOGE_MAINNET: { CURVE_SECP256K1: (key) => dogecoinAddress("MAINNET", key) },
  ADDRESS_FORMAT_DOGE_TESTNET: { CURVE_SECP256K1: (key) => dogecoinAddress("TESTNET", key) },
  ADDRESS_FORMAT_TON_V3R2: { CURVE_ED25519: (publicKey) => tonWalletAddress("V3R2", publicKey) },
  ADDRESS_FORMAT_TON_V4R2: { CURVE_ED25519: (publicKey) => tonWalletAddress("V4R2", publicKey) },
  ADDRESS_FORMAT_XRP: { CURVE_SECP256K1: xrpAddress },
};

/**
 * The address of `publicKey` (SEC1 33/65 bytes on secp256k1, 32 bytes on ed25519) in `addressFormat`.
 *
 * Throws `INVALID_ARGUMENT` for a pair that makes no sense (ed25519 with `ETHEREUM`, secp256k1 with
 * `SOLANA`, any `CURVE_P256` account) naming `addressFormat`, or for a key that is not a point of the
 * curve naming `publicKey`; `UNIMPLEMENTED` for a wire format custodian does not derive.
 */
export function deriveAddress(curve: Curve, addressFormat: AddressFormat, publicKey: Uint8Array): string {
  return encodeAddress(
    curve,
    addressFormat,
    () => parseSecp256k1PublicKey(publicKey),
    () => parseEd25519PublicKey(publicKey),
  );
}

/**
 * {@link deriveAddress} of a key the engine derived itself, so known to be a point of its curve: nothing is
 * parsed again (on secp256k1 that would be a square root per account). `key` is both SEC1 forms on secp256k1,
 * the raw 32 bytes on ed25519.
 */
export function addressOfDerivedKey(
  curve: Curve,
  addressFormat: AddressFormat,
  key: Secp256k1PublicKey | Uint8Array,
): string {
  return encodeAddress(
    curve,
    addressFormat,
    () => (key instanceof Uint8Array ? parseSecp256k1PublicKey(key) : key),
    () => (key instanceof Uint8Array ? key : parseEd25519PublicKey(key.compressed)),
  );
}

function encodeAddress(
  curve: Curve,
  addressFormat: AddressFormat,
  secp256k1Key: () => Secp256k1PublicKey,
  ed25519Key: () => Uint8Array,
): string {
  if (!isSupportedAddressFormat(addressFormat)) throw unsupportedAddressFormat(addressFormat);
  const encoders: { CURVE_SECP256K1?: Secp256k1Encoder; CURVE_ED25519?: Ed25519Encoder } = ENCODERS[addressFormat];
  if (curve === "CURVE_SECP256K1" && encoders.CURVE_SECP256K1 !== undefined) {
    return encoders.CURVE_SECP256K1(secp256k1Key());
  }
  if (curve === "CURVE_ED25519" && encoders.CURVE_ED25519 !== undefined) {
    return encoders.CURVE_ED25519(ed25519Key());
  }
  throw curveMismatch(curve, addressFormat);
}
