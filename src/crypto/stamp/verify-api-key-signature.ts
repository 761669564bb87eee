import { type KeyObject, verify } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, utf8ToBytes } from "../bytes.js";
import { derSignatureToCompact } from "./der-signature.js";
import { bareHexToBytes } from "./hex.js";
import { ed25519PublicKeyObject, p256PublicKeyObject } from "./public-key-objects.js";

/** What {@link verifyApiKeySignature} checks: the stamp's members and the exact request body bytes. */
export interface ApiKeySignatureInput {
  /** The stamp's `scheme`. */
  scheme: string;
  /** The stamp's `publicKey` (hex). */
  publicKey: string;
  /** The stamp's `signature` (hex). */
  signature: string;
  /** The raw HTTP body, exactly as received: never a re-serialization. */
  body: Uint8Array;
}

/**
 * Whether an `X-Stamp` signature is valid over `body` under its scheme:
 *
 * - `SIGNATURE_SCHEME_TK_API_P256`: ECDSA P-256 / SHA-256 over the body, DER signature, compressed key.
 * - `SIGNATURE_SCHEME_TK_API_SECP256K1`: ECDSA secp256k1 over SHA-256(body), DER signature, compressed key.
 * - `SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191`: an Ethereum `personal_sign` of the body, i.e. ECDSA secp256k1
 *   over keccak256("\x19Ethereum Signed Message:\n" + byte length + body), (r, s) as DER, compressed key.
 * - `SIGNATURE_SCHEME_TK_API_ED25519`: Ed25519, 64 raw signature bytes, 32-byte key; a signature over the raw
 *   body (JS wallet-stamper) and one over SHA-256(body) (Go SDK) are both accepted.
 *
 * High-S ECDSA signatures are accepted: Node's crypto and noble's P-256 both emit them, and the Turnkey
 * clients do not normalize. Malformed hex, keys or signatures, and unknown schemes, give `false`.
 * Whether the scheme fits the registered key's curve is {@link schemeMatchesCurve}'s question, not this one's.
 */
export function verifyApiKeySignature(input: ApiKeySignatureInput): boolean {
  const publicKey = bareHexToBytes(input.publicKey);
  const signature = bareHexToBytes(input.signature);
  if (publicKey === undefined || signature === undefined) return false;
  switch (input.scheme) {
    case "SIGNATURE_SCHEME_TK_API_P256":
      return verifyP256(publicKey, signature, input.body);
    case "SIGNATURE_SCHEME_TK_API_SECP256K1":
      return verifySecp256k1(publicKey, signature, sha256(input.body));
    case "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191":
      return verifySecp256k1(publicKey, signature, personalMessageDigest(input.body));
    case "SIGNATURE_SCHEME_TK_API_ED25519":
      return verifyEd25519(publicKey, signature, input.body);
    default:
      return false;
  }
}

/**
 * {@link verifyApiKeySignature}, with the OpenSSL work (P-256 and Ed25519) done on libuv's thread pool: node:crypto
 * runs a verification there when given a callback. A server's thread then goes on with other requests instead
 * of waiting for it; the P-256 check was a sixth of the HTTP server's CPU (#19). Same answers, same refusals.
 */
export async function verifyApiKeySignatureOffThread(input: ApiKeySignatureInput): Promise<boolean> {
  const publicKey = bareHexToBytes(input.publicKey);
  const signature = bareHexToBytes(input.signature);
  if (publicKey === undefined || signature === undefined) return false;
  switch (input.scheme) {
    case "SIGNATURE_SCHEME_TK_API_P256": {
      const key = p256PublicKeyObject(publicKey);
      const compact = derSignatureToCompact(signature);
      if (key === undefined || compact === undefined) return false;
      return verifyOnPool("sha256", input.body, { key, dsaEncoding: "ieee-p1363" }, compact);
    }
    case "SIGNATURE_SCHEME_TK_API_ED25519": {
      if (signature.length !== 64) return false;
      const key = ed25519PublicKeyObject(publicKey);
      if (key === undefined) return false;
      return (
        (await verifyOnPool(null, input.body, key, signature)) || verifyOnPool(null, sha256(input.body), key, signature)
      );
    }
    default:
      // secp256k1 is checked by noble in this thread: OpenSSL's verify gives no gain worth a second code path.
      return verifyApiKeySignature(input);
  }
}

/** node:crypto's `verify` on the thread pool; an error (a malformed signature) is a refusal, as in this thread. */
function verifyOnPool(
  algorithm: string | null,
  data: Uint8Array,
  key: KeyObject | { key: KeyObject; dsaEncoding: "ieee-p1363" },
  signature: Uint8Array,
): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      verify(algorithm, data, key, signature, (error, valid) => resolve(error === null && valid));
    } catch {
      resolve(false);
    }
  });
}

function verifyP256(publicKey: Uint8Array, derSignature: Uint8Array, body: Uint8Array): boolean {
  const key = p256PublicKeyObject(publicKey);
  const compact = derSignatureToCompact(derSignature);
  if (key === undefined || compact === undefined) return false;
  return verify("sha256", body, { key, dsaEncoding: "ieee-p1363" }, compact);
}

function verifySecp256k1(publicKey: Uint8Array, derSignature: Uint8Array, digest: Uint8Array): boolean {
  if (publicKey.length !== 33) return false;
  const compact = derSignatureToCompact(derSignature);
  if (compact === undefined) return false;
  try {
    return secp256k1.verify(compact, digest, publicKey, { prehash: false, lowS: false, format: "compact" });
  } catch {
    // noble throws on a public key that is not a point, or r/s outside [1, n).
    return false;
  }
}

/** EIP-191 version 0x45 hash, the length in bytes of the UTF-8 body (viem `hashMessage` semantics). */
function personalMessageDigest(body: Uint8Array): Uint8Array {
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

function verifyEd25519(publicKey: Uint8Array, signature: Uint8Array, body: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  const key = ed25519PublicKeyObject(publicKey);
  if (key === undefined) return false;
  try {
    // Solana wallets sign the body itself; the Go SDK signs its SHA-256 digest. The wire spec leaves it open.
    return verify(null, body, key, signature) || verify(null, sha256(body), key, signature);
  } catch {
    return false;
  }
}
