/**
 * Standalone private keys on every curve custodian holds them on (secp256k1, Ed25519, P-256): generating
 * one, checking an imported one, and the public key and addresses a private key record shows. Wallet
 * accounts use `addresses/` directly: they are never P-256.
 *
 * @module
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { invalidArgument } from "../../common/errors.js";
import {
  type AddressFormat,
  assertFormatAcceptsCurve,
  assertP256AddressFormat,
  type Curve,
  deriveAddress,
  encodeAccountPublicKey,
  encodeP256PublicKey,
  p256Address,
} from "../addresses/index.js";

const SECRET_BYTES = 32;

/** Refuses an address format a key on `curve` cannot have, naming `field` (`INVALID_ARGUMENT`). */
export function assertPrivateKeyFormat(curve: Curve, addressFormat: AddressFormat, field: string): void {
  if (curve === "CURVE_P256") assertP256AddressFormat(addressFormat, field);
  else assertFormatAcceptsCurve(curve, addressFormat, field);
}

/** A fresh secret on `curve` and its public key (SEC1 compressed, or raw Ed25519). */
export function generatePrivateKey(
  curve: Curve,
  random: (length: number) => Uint8Array,
): { secret: Uint8Array; publicKey: Uint8Array } {
  if (curve === "CURVE_ED25519") {
    const secret = random(SECRET_BYTES);
    return { secret, publicKey: ed25519.getPublicKey(secret) };
  }
  const weierstrass = curve === "CURVE_P256" ? p256 : secp256k1;
  // 48 random bytes reduced modulo the order: uniform enough (FIPS 186-5 A.2.1) and never zero.
  const secret = weierstrass.utils.randomSecretKey(random(48));
  return { secret, publicKey: weierstrass.getPublicKey(secret, true) };
}

/**
 * The public key of an imported secret: a valid secp256k1 or P-256 scalar, or any 32-byte Ed25519 seed.
 * Anything else is `INVALID_ARGUMENT` naming `field`, never quoting the secret.
 */
export function publicKeyOfSecret(curve: Curve, secret: Uint8Array, field: string): Uint8Array {
  if (secret.length !== SECRET_BYTES) {
    throw invalidArgument(`${field} must hold a ${SECRET_BYTES}-byte private key, got ${secret.length} bytes`, field);
  }
  if (curve === "CURVE_ED25519") return ed25519.getPublicKey(secret);
  const weierstrass = curve === "CURVE_P256" ? p256 : secp256k1;
  if (!weierstrass.utils.isValidSecretKey(secret)) {
    throw invalidArgument(
      `${field} does not hold a valid ${curve === "CURVE_P256" ? "P-256" : "secp256k1"} private key`,
      field,
    );
  }
  return weierstrass.getPublicKey(secret, true);
}

/** The `publicKey` a private key record shows: compressed SEC1 hex, or raw Ed25519 hex. */
export function encodePrivateKeyPublicKey(curve: Curve, publicKey: Uint8Array): string {
  return curve === "CURVE_P256" ? encodeP256PublicKey(publicKey) : encodeAccountPublicKey(curve, publicKey);
}

/** The address of a private key's public key in a format {@link assertPrivateKeyFormat} accepted. */
export function privateKeyAddress(curve: Curve, addressFormat: AddressFormat, publicKey: Uint8Array): string {
  if (curve === "CURVE_P256") {
    assertP256AddressFormat(addressFormat, "addressFormat");
    return p256Address(addressFormat, publicKey);
  }
  return deriveAddress(curve, addressFormat, publicKey);
}
