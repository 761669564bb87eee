/**
 * Account public keys: validation of the bytes the encoders receive, and the `publicKey` string a wallet
 * account exposes.
 *
 * @module
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex } from "../bytes.js";
import type { HdCurve } from "./formats.js";

/** A validated secp256k1 public key in both SEC1 forms. */
export interface Secp256k1PublicKey {
  /** `02`/`03` ‖ X, 33 bytes. */
  readonly compressed: Uint8Array;
  /** `04` ‖ X ‖ Y, 65 bytes. */
  readonly uncompressed: Uint8Array;
}

/** Parses a SEC1 secp256k1 point (33 or 65 bytes) or throws `INVALID_ARGUMENT` naming `field`. */
export function parseSecp256k1PublicKey(publicKey: Uint8Array, field = "publicKey"): Secp256k1PublicKey {
  if (publicKey.length !== 33 && publicKey.length !== 65) {
    throw invalidArgument(`${field} must be a 33- or 65-byte SEC1 secp256k1 key, got ${publicKey.length} bytes`, field);
  }
  try {
    const point = secp256k1.Point.fromBytes(publicKey);
    return { compressed: point.toBytes(true), uncompressed: point.toBytes(false) };
  } catch {
    throw invalidArgument(`${field} is not a point on secp256k1`, field);
  }
}

/** Checks a 32-byte ed25519 public key (RFC 8032 encoding of a curve point) or throws `INVALID_ARGUMENT`. */
export function parseEd25519PublicKey(publicKey: Uint8Array, field = "publicKey"): Uint8Array {
  if (publicKey.length !== 32) {
    throw invalidArgument(`${field} must be a 32-byte ed25519 key, got ${publicKey.length} bytes`, field);
  }
  try {
    ed25519.Point.fromBytes(publicKey);
  } catch {
    throw invalidArgument(`${field} is not an ed25519 point`, field);
  }
  return publicKey;
}

/**
 * The `publicKey` a wallet account exposes: lowercase hex, no `0x`, of the SEC1 compressed key (66 hex
 * digits) on secp256k1 and of the raw 32-byte key (64 hex digits) on ed25519, the same strings as the
 * `COMPRESSED` address format.
 */
export function encodeAccountPublicKey(curve: HdCurve, publicKey: Uint8Array): string {
  return curve === "CURVE_SECP256K1"
    ? bytesToHex(parseSecp256k1PublicKey(publicKey).compressed)
    : bytesToHex(parseEd25519PublicKey(publicKey));
}
