import { createPublicKey, type KeyObject } from "node:crypto";
import { encodeBase64Url, hexToBytes } from "../bytes.js";

// SubjectPublicKeyInfo header for id-ecPublicKey on prime256v1 with a 33-byte compressed point
// (SEQUENCE { SEQUENCE { OID 1.2.840.10045.2.1, OID 1.2.840.10045.3.1.7 }, BIT STRING (34 bytes) }).
const P256_COMPRESSED_SPKI_PREFIX = hexToBytes("3039301306072a8648ce3d020106082a8648ce3d030107032200");

/**
 * A node:crypto public key for a 33-byte compressed P-256 point, or undefined when the bytes are not one.
 * node:crypto (OpenSSL) verifies 10–40x faster than pure-JS ECDSA; it takes the compressed point directly in a
 * SubjectPublicKeyInfo, and refuses a point that is not on the curve.
 */
export function p256PublicKeyObject(compressedPoint: Uint8Array): KeyObject | undefined {
  if (compressedPoint.length !== 33) return undefined;
  return remembered(p256Keys, compressedPoint, buildP256PublicKeyObject);
}

function buildP256PublicKeyObject(compressedPoint: Uint8Array): KeyObject | undefined {
  const spki = new Uint8Array(P256_COMPRESSED_SPKI_PREFIX.length + compressedPoint.length);
  spki.set(P256_COMPRESSED_SPKI_PREFIX);
  spki.set(compressedPoint, P256_COMPRESSED_SPKI_PREFIX.length);
  try {
    return createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
  } catch {
    return undefined;
  }
}

/** A node:crypto public key for a 32-byte Ed25519 public key, or undefined when the bytes cannot be one. */
export function ed25519PublicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  if (publicKey.length !== 32) return undefined;
  return remembered(ed25519Keys, publicKey, buildEd25519PublicKeyObject);
}

function buildEd25519PublicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  try {
    return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: encodeBase64Url(publicKey) }, format: "jwk" });
  } catch {
    return undefined;
  }
}

// Building a KeyObject costs several times the verification itself, and a server sees the same few API keys on
// every request, so built keys are kept (public keys only: nothing secret is held). Refused bytes are not kept,
// and the bound (oldest out first) keeps a stream of random keys from growing the maps.
const KEY_CACHE_SIZE = 1024;
const p256Keys = new Map<string, KeyObject>();
const ed25519Keys = new Map<string, KeyObject>();

function remembered(
  cache: Map<string, KeyObject>,
  publicKey: Uint8Array,
  build: (publicKey: Uint8Array) => KeyObject | undefined,
): KeyObject | undefined {
  const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString("hex");
  const known = cache.get(id);
  if (known !== undefined) return known;
  const key = build(publicKey);
  if (key === undefined) return undefined;
  if (cache.size >= KEY_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(id, key);
  return key;
}
