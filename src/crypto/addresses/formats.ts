/**
 * The wire enums of wallet accounts (`v1Curve`, `v1AddressFormat`, `v1PathFormat`), declared once, and for
 * each address format custodian derives: the curves it accepts and its default path.
 *
 * The tuples are the swagger's enums in the swagger's order, so the engine can build valibot picklists
 * from them. The per-format table follows `docs/spec/addresses.md` §2 (the SDK's
 * `default<X>AccountAtIndex` constants, decision 7).
 *
 * @module
 */
import { CustodyError, invalidArgument } from "../../common/errors.js";

/** Every `v1Curve` value of the public API. */
export const CURVES = ["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"] as const;

/** A `v1Curve` wire value. */
export type Curve = (typeof CURVES)[number];

/** Every `v1PathFormat` value of the public API. BIP32 notation is the only one. */
export const PATH_FORMATS = ["PATH_FORMAT_BIP32"] as const;

/** A `v1PathFormat` wire value. */
export type PathFormat = (typeof PATH_FORMATS)[number];

/** Every `v1AddressFormat` value of the public API, including the ones custodian cannot derive yet. */
export const ADDRESS_FORMATS = [
  "ADDRESS_FORMAT_UNCOMPRESSED",
  "ADDRESS_FORMAT_COMPRESSED",
  "ADDRESS_FORMAT_ETHEREUM",
  "ADDRESS_FORMAT_SOLANA",
  "ADDRESS_FORMAT_COSMOS",
  "ADDRESS_FORMAT_TRON",
  "ADDRESS_FORMAT_SUI",
  "ADDRESS_FORMAT_APTOS",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR",
  "ADDRESS_FORMAT_SEI",
  "ADDRESS_FORMAT_XLM",
  "ADDRESS_FORMAT_DOGE_MAINNET",
  "ADDRESS_FORMAT_DOGE_TESTNET",
  "ADDRESS_FORMAT_TON_V3R2",
  "ADDRESS_FORMAT_TON_V4R2",
  "ADDRESS_FORMAT_TON_V5R1",
  "ADDRESS_FORMAT_XRP",
  "ADDRESS_FORMAT_SPARK_MAINNET",
  "ADDRESS_FORMAT_SPARK_REGTEST",
] as const;

/** A `v1AddressFormat` wire value. */
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

/** The curves wallet accounts can be derived on (BIP32 and SLIP-10 ed25519). */
export const HD_CURVES = ["CURVE_SECP256K1", "CURVE_ED25519"] as const;

/** A curve wallet accounts can be derived on. */
export type HdCurve = (typeof HD_CURVES)[number];

/** What custodian knows about one address format. */
export interface AddressFormatSpec {
  /** The curves whose public keys this format can encode. */
  readonly curves: readonly HdCurve[];
  /**
   * Turnkey SDK's `default<X>AccountAtIndex(accountIndex)` path (the account index sits in the third
   * level), or `null` where the SDK has no default account for the format.
   */
  readonly defaultPath: ((accountIndex: number) => string) | null;
}

const SECP256K1 = ["CURVE_SECP256K1"] as const;
const ED25519 = ["CURVE_ED25519"] as const;

/** `m/purpose'/coin'/{account}'` followed by `tail`: the shape of every SDK default path. */
function account(purpose: number, coin: number, tail = ""): (accountIndex: number) => string {
  return (accountIndex) => `m/${purpose}'/${coin}'/${accountIndex}'${tail}`;
}

/**
 * The address formats custodian derives, with their curves and default paths. `as const` keeps each
 * format's curve list literal, so the encoder table can be checked against it at compile time.
 * Where the docs table and the SDK disagree (docs/spec/addresses.md §3) the SDK is followed: P2SH under purpose 44,
 * DOGE_TESTNET under coin type 3, SEI and XRP with their last two levels hardened, TRON with three levels.
 */
export const ADDRESS_FORMAT_SPECS = {
  ADDRESS_FORMAT_UNCOMPRESSED: { curves: SECP256K1, defaultPath: null },
  ADDRESS_FORMAT_COMPRESSED: { curves: ["CURVE_SECP256K1", "CURVE_ED25519"] as const, defaultPath: null },
  ADDRESS_FORMAT_ETHEREUM: { curves: SECP256K1, defaultPath: account(44, 60, "/0/0") },
  ADDRESS_FORMAT_SOLANA: { curves: ED25519, defaultPath: account(44, 501, "/0'") },
  ADDRESS_FORMAT_COSMOS: { curves: SECP256K1, defaultPath: account(44, 118, "/0/0") },
  ADDRESS_FORMAT_TRON: { curves: SECP256K1, defaultPath: account(44, 195) },
  ADDRESS_FORMAT_SUI: { curves: ED25519, defaultPath: account(44, 784, "/0'/0'") },
  ADDRESS_FORMAT_APTOS: { curves: ED25519, defaultPath: account(44, 637, "/0'/0'") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: { curves: SECP256K1, defaultPath: account(44, 0, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: { curves: SECP256K1, defaultPath: account(44, 0, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: { curves: SECP256K1, defaultPath: account(84, 0, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: { curves: SECP256K1, defaultPath: account(48, 0, "/2'/0/0") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: { curves: SECP256K1, defaultPath: account(86, 0, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: { curves: SECP256K1, defaultPath: account(44, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: { curves: SECP256K1, defaultPath: account(44, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: { curves: SECP256K1, defaultPath: account(84, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: { curves: SECP256K1, defaultPath: account(48, 1, "/2'/0/0") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: { curves: SECP256K1, defaultPath: account(86, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: { curves: SECP256K1, defaultPath: account(44, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: { curves: SECP256K1, defaultPath: account(44, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: { curves: SECP256K1, defaultPath: account(84, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: { curves: SECP256K1, defaultPath: account(48, 1, "/2'/0/0") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: { curves: SECP256K1, defaultPath: account(86, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: { curves: SECP256K1, defaultPath: account(44, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: { curves: SECP256K1, defaultPath: account(44, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: { curves: SECP256K1, defaultPath: account(84, 1, "/0/0") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: { curves: SECP256K1, defaultPath: account(48, 1, "/2'/0/0") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: { curves: SECP256K1, defaultPath: account(86, 1, "/0/0") },
  ADDRESS_FORMAT_SEI: { curves: SECP256K1, defaultPath: account(44, 118, "/0'/0'") },
  ADDRESS_FORMAT_XLM: { curves: ED25519, defaultPath: account(44, 148) },
  ADDRESS_FORMAT_DOGE_MAINNET: { curves: SECP256K1, defaultPath: account(44, 3, "/0/0") },
  ADDRESS_FORMAT_DOGE_TESTNET: { curves: SECP256K1, defaultPath: account(44, 3, "/0/0") },
  ADDRESS_FORMAT_TON_V3R2: { curves: ED25519, defaultPath: account(44, 607, "/0'/0'") },
  ADDRESS_FORMAT_TON_V4R2: { curves: ED25519, defaultPath: account(44, 607, "/0'/0'") },
  ADDRESS_FORMAT_XRP: { curves: SECP256K1, defaultPath: account(44, 144, "/0'/0'") },
} as const satisfies Partial<Record<AddressFormat, AddressFormatSpec>>;

/** An address format custodian derives. */
export type SupportedAddressFormat = keyof typeof ADDRESS_FORMAT_SPECS;

/**
 * The address formats custodian derives, in wire order. The rest of {@link ADDRESS_FORMATS}
 * (`TON_V5R1`, `SPARK_*`) are valid on the wire but answered with `UNIMPLEMENTED`: docs/spec/addresses.md does not say
 * how Turnkey derives them.
 */
export const SUPPORTED_ADDRESS_FORMATS: readonly SupportedAddressFormat[] = ADDRESS_FORMATS.filter(
  (format): format is SupportedAddressFormat => format in ADDRESS_FORMAT_SPECS,
);

/** Whether `format` is one custodian derives. */
export function isSupportedAddressFormat(format: string): format is SupportedAddressFormat {
  return Object.hasOwn(ADDRESS_FORMAT_SPECS, format);
}

/** Whether `curve` is one wallet accounts can be derived on. */
export function isHdCurve(curve: string): curve is HdCurve {
  return (HD_CURVES as readonly string[]).includes(curve);
}

/**
 * The refusal of an address format custodian does not derive: `UNIMPLEMENTED` for a wire value
 * (`TON_V5R1`, `SPARK_*`), `INVALID_ARGUMENT` for a string that is no `v1AddressFormat` at all.
 */
export function unsupportedAddressFormat(addressFormat: string, field = "addressFormat"): CustodyError {
  if (!(ADDRESS_FORMATS as readonly string[]).includes(addressFormat)) {
    return invalidArgument(
      `${field} is not a known address format: ${JSON.stringify(addressFormat.slice(0, 64))}`,
      field,
    );
  }
  return new CustodyError("UNIMPLEMENTED", `${addressFormat} is not supported by custodian yet`, {
    field,
    addressFormat,
  });
}

/** `INVALID_ARGUMENT` for a curve/format pair that makes no sense (an ed25519 key has no Ethereum address). */
export function curveMismatch(
  curve: Curve,
  addressFormat: SupportedAddressFormat,
  field = "addressFormat",
): CustodyError {
  const accepted = ADDRESS_FORMAT_SPECS[addressFormat].curves.join(" or ");
  return invalidArgument(`${addressFormat} does not accept ${curve}; it accepts ${accepted}`, field, {
    curve,
    addressFormat,
  });
}

/**
 * Checks that `addressFormat` is derivable and accepts keys on `curve`, or throws (see
 * {@link unsupportedAddressFormat} and {@link curveMismatch}), naming `field`. The engine calls it while
 * validating a request, with the field's full path.
 */
export function assertFormatAcceptsCurve(
  curve: Curve,
  addressFormat: AddressFormat,
  field = "addressFormat",
): asserts addressFormat is SupportedAddressFormat {
  if (!isSupportedAddressFormat(addressFormat)) throw unsupportedAddressFormat(addressFormat, field);
  const accepted: readonly Curve[] = ADDRESS_FORMAT_SPECS[addressFormat].curves;
  if (!accepted.includes(curve)) throw curveMismatch(curve, addressFormat, field);
}

/**
 * The default path of account `accountIndex` for `format` (Turnkey SDK's `default<X>AccountAtIndex`), or
 * `undefined` where the SDK defines none (`COMPRESSED`, `UNCOMPRESSED`).
 */
export function defaultAccountPath(format: SupportedAddressFormat, accountIndex = 0): string | undefined {
  if (!Number.isInteger(accountIndex) || accountIndex < 0 || accountIndex >= 0x80000000) {
    throw invalidArgument(`account index must be an integer in [0, 2^31), got ${accountIndex}`, "accountIndex");
  }
  const spec: AddressFormatSpec = ADDRESS_FORMAT_SPECS[format];
  return spec.defaultPath?.(accountIndex);
}
