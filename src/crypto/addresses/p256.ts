/**
 * Addresses of P-256 (secp256r1) private keys. Turnkey creates P-256 keys for encryption and escrow (its
 * disaster-recovery and encryption-key-escrow examples), not for a chain, so the only formats are the key
 * itself: `ADDRESS_FORMAT_COMPRESSED` (`02`/`03` ‖ X) and `ADDRESS_FORMAT_UNCOMPRESSED` (`04` ‖ X ‖ Y), lowercase
 * hex without `0x`, as for secp256k1. Wallet accounts are never P-256: BIP32 is defined for secp256k1 only.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex } from "../bytes.js";
import { type AddressFormat, isSupportedAddressFormat, unsupportedAddressFormat } from "./formats.js";

/** The address formats a P-256 key can have. */
export const P256_ADDRESS_FORMATS = ["ADDRESS_FORMAT_COMPRESSED", "ADDRESS_FORMAT_UNCOMPRESSED"] as const;

/** An address format of a P-256 key. */
export type P256AddressFormat = (typeof P256_ADDRESS_FORMATS)[number];

/**
 * Refuses a format a P-256 key cannot have, naming `field`: `INVALID_ARGUMENT` for a chain format (an
 * Ethereum address is a secp256k1 construction), as for any other curve mismatch.
 */
export function assertP256AddressFormat(
  addressFormat: AddressFormat,
  field: string,
): asserts addressFormat is P256AddressFormat {
  if ((P256_ADDRESS_FORMATS as readonly string[]).includes(addressFormat)) return;
  if (!isSupportedAddressFormat(addressFormat)) throw unsupportedAddressFormat(addressFormat, field);
  throw invalidArgument(
    `${addressFormat} does not accept CURVE_P256; a P-256 key has only ${P256_ADDRESS_FORMATS.join(" or ")}`,
    field,
    { curve: "CURVE_P256", addressFormat },
  );
}

/** The address of a P-256 public key (SEC1, 33 or 65 bytes) in `format`. */
export function p256Address(format: P256AddressFormat, publicKey: Uint8Array): string {
  return p256.Point.fromBytes(publicKey).toHex(format === "ADDRESS_FORMAT_COMPRESSED");
}

/** The `publicKey` a P-256 private key exposes: its compressed SEC1 form in hex, as for secp256k1 keys. */
export function encodeP256PublicKey(publicKey: Uint8Array): string {
  return bytesToHex(p256.Point.fromBytes(publicKey).toBytes(true));
}
