/**
 * Wallet account addresses: the wire enums and per-format rules, one encoder per chain family, the
 * dispatcher, the account `publicKey` string and the lookup key.
 *
 * @module
 */
export { addressOfDerivedKey, deriveAddress } from "./derive.js";
export {
  ADDRESS_FORMAT_SPECS,
  ADDRESS_FORMATS,
  type AddressFormat,
  type AddressFormatSpec,
  assertFormatAcceptsCurve,
  CURVES,
  type Curve,
  curveMismatch,
  defaultAccountPath,
  HD_CURVES,
  type HdCurve,
  isHdCurve,
  isSupportedAddressFormat,
  PATH_FORMATS,
  type PathFormat,
  SUPPORTED_ADDRESS_FORMATS,
  type SupportedAddressFormat,
  unsupportedAddressFormat,
} from "./formats.js";
export { normalizeAddressForLookup } from "./lookup.js";
export {
  assertP256AddressFormat,
  encodeP256PublicKey,
  P256_ADDRESS_FORMATS,
  type P256AddressFormat,
  p256Address,
} from "./p256.js";
export {
  encodeAccountPublicKey,
  parseEd25519PublicKey,
  parseSecp256k1PublicKey,
  type Secp256k1PublicKey,
} from "./public-key.js";
