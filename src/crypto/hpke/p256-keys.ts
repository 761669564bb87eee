/**
 * P-256 key parsing for the bundle formats. Turnkey clients hand us receiver keys in either SEC1 encoding,
 * while the HPKE KEM context and Turnkey's AAD both use the 65-byte uncompressed form, so everything is
 * normalized here once.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex, parseHex } from "../bytes.js";

/** Bytes of an uncompressed SEC1 P-256 point (`04 ‖ x ‖ y`). */
export const UNCOMPRESSED_P256_LENGTH = 65;
/** Bytes of a compressed SEC1 P-256 point (`02|03 ‖ x`). */
export const COMPRESSED_P256_LENGTH = 33;
/** Bytes of a P-256 private scalar. */
export const P256_PRIVATE_KEY_LENGTH = 32;

/**
 * Decodes a SEC1 P-256 public key (33-byte compressed or 65-byte uncompressed) and returns it uncompressed.
 * Bad hex, a wrong length or a point off the curve throw `INVALID_ARGUMENT` naming `field`.
 */
export function toUncompressedP256(bytes: Uint8Array, field: string): Uint8Array {
  if (bytes.length !== COMPRESSED_P256_LENGTH && bytes.length !== UNCOMPRESSED_P256_LENGTH) {
    throw invalidArgument(
      `${field} must be a 33-byte compressed or 65-byte uncompressed P-256 public key, got ${bytes.length} bytes`,
      field,
    );
  }
  try {
    return p256.Point.fromBytes(bytes).toBytes(false);
  } catch {
    throw invalidArgument(`${field} is not a valid P-256 public key`, field);
  }
}

/** Parses a hex P-256 public key in either SEC1 form and returns the 65-byte uncompressed encoding. */
export function parseP256PublicKeyHex(value: string, field: string): Uint8Array {
  return toUncompressedP256(parseHex(value, field), field);
}

/** The 33-byte compressed form of an uncompressed P-256 point. */
export function compressP256(uncompressed: Uint8Array): Uint8Array {
  return p256.Point.fromBytes(uncompressed).toBytes(true);
}

/** Throws `INVALID_ARGUMENT` naming `field` unless `key` is a valid 32-byte P-256 private scalar. */
export function assertP256PrivateKey(key: Uint8Array, field: string): void {
  if (key.length !== P256_PRIVATE_KEY_LENGTH || !p256.utils.isValidSecretKey(key)) {
    throw invalidArgument(`${field} must be a 32-byte P-256 private key`, field);
  }
}

/** The 65-byte uncompressed public key of a P-256 private key. */
export function p256PublicKeyOf(privateKey: Uint8Array): Uint8Array {
  return p256.getPublicKey(privateKey, false);
}

/** Lowercase hex of the uncompressed public key, the form Turnkey's clients compare signer keys in. */
export function p256PublicKeyHexOf(privateKey: Uint8Array): string {
  return bytesToHex(p256PublicKeyOf(privateKey));
}
