import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { invalidArgument } from "../../common/errors.js";
import { bareHexToBytes } from "./hex.js";
import type { ApiKeyCurve } from "./schemes.js";

/**
 * Checks that `publicKey` is a key of `curveType` in the form stamps carry it, before it is registered:
 *
 * - `API_KEY_CURVE_P256`, `API_KEY_CURVE_SECP256K1`: a 33-byte compressed SEC1 point (`02|03 ‖ X`, 66 hex
 *   digits) on the curve. Uncompressed 65-byte points are refused: a stamp echoes the key verbatim and keys
 *   are looked up by that string, so each key must have exactly one spelling, and every Turnkey client
 *   (ApiKeyStamper, wallet-stamper, the Go SDK) sends the compressed form.
 * - `API_KEY_CURVE_ED25519`: a 32-byte canonical point encoding (64 hex digits) on the curve, not of small
 *   order (no key made from a secret scalar has small order; such a key would verify forged signatures).
 *
 * Hex digits may be of either case; no `0x` prefix.
 *
 * @throws CustodyError `INVALID_ARGUMENT` naming `field` when the key is not valid.
 */
export function validateApiPublicKey(publicKey: string, curveType: ApiKeyCurve, field: string): void {
  const bytes = bareHexToBytes(publicKey);
  if (bytes === undefined) {
    throw invalidArgument(`${field} must be an even number of hex digits without a 0x prefix`, field);
  }
  if (curveType === "API_KEY_CURVE_P256") {
    assertCompressedPoint(bytes, (point) => p256.Point.fromBytes(point), "P-256", field);
  } else if (curveType === "API_KEY_CURVE_SECP256K1") {
    assertCompressedPoint(bytes, (point) => secp256k1.Point.fromBytes(point), "secp256k1", field);
  } else if (curveType === "API_KEY_CURVE_ED25519") {
    assertEd25519Point(bytes, field);
  } else {
    throw invalidArgument(`${field}: unsupported API key curve ${String(curveType)}`, field);
  }
}

function assertCompressedPoint(
  bytes: Uint8Array,
  decode: (point: Uint8Array) => unknown,
  curveName: string,
  field: string,
): void {
  if (bytes.length === 65 && bytes[0] === 0x04) {
    throw invalidArgument(
      `${field} is an uncompressed ${curveName} point; send the 33-byte compressed form (02|03 followed by X)`,
      field,
    );
  }
  if (bytes.length !== 33 || (bytes[0] !== 0x02 && bytes[0] !== 0x03)) {
    throw invalidArgument(`${field} must be a 33-byte compressed ${curveName} point, got ${bytes.length} bytes`, field);
  }
  try {
    decode(bytes);
  } catch {
    throw invalidArgument(`${field} is not a point on ${curveName}`, field);
  }
}

function assertEd25519Point(bytes: Uint8Array, field: string): void {
  if (bytes.length !== 32) {
    throw invalidArgument(`${field} must be a 32-byte Ed25519 public key, got ${bytes.length} bytes`, field);
  }
  let smallOrder: boolean;
  try {
    smallOrder = ed25519.Point.fromBytes(bytes).isSmallOrder();
  } catch {
    throw invalidArgument(`${field} is not an Ed25519 point`, field);
  }
  if (smallOrder) throw invalidArgument(`${field} is an Ed25519 point of small order`, field);
}
