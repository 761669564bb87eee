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
  const decoded = decode(input);
  if (decoded === undefined) return false;
  const check = openSslCheckOf(input.scheme, decoded, input.body);
  if (check === undefined) return verifyWithNoble(input.scheme, decoded, input.body);
  if (check === null) return false;
  return check.messages.some((message) => verifiesInThread(check, message));
}

/**
 * {@link verifyApiKeySignature}, with the OpenSSL work (P-256 and Ed25519) done on libuv's thread pool: node:crypto
 * runs a verification there when given a callback. A server's thread then goes on with other requests instead
 * of waiting for it, and the P-256 check is a large part of a request's work. Same checks, same answers: both
 * take them from {@link openSslCheckOf}.
 */
export async function verifyApiKeySignatureOffThread(input: ApiKeySignatureInput): Promise<boolean> {
  const decoded = decode(input);
  if (decoded === undefined) return false;
  const check = openSslCheckOf(input.scheme, decoded, input.body);
  // secp256k1 is checked by noble in this thread: OpenSSL's verify gives no gain worth a second code path.
  if (check === undefined) return verifyWithNoble(input.scheme, decoded, input.body);
  if (check === null) return false;
  for (const message of check.messages) if (await verifiesOnPool(check, message)) return true;
  return false;
}

interface Decoded {
  publicKey: Uint8Array;
  signature: Uint8Array;
}

function decode(input: ApiKeySignatureInput): Decoded | undefined {
  const publicKey = bareHexToBytes(input.publicKey);
  const signature = bareHexToBytes(input.signature);
  return publicKey === undefined || signature === undefined ? undefined : { publicKey, signature };
}

/** What node:crypto checks for a stamp: a signature by the key over any one of `messages`. */
interface OpenSslCheck {
  algorithm: "sha256" | null;
  key: KeyObject | { key: KeyObject; dsaEncoding: "ieee-p1363" };
  signature: Uint8Array;
  messages: Uint8Array[];
}

/**
 * The OpenSSL check of a P-256 or Ed25519 stamp; `null` when its key or signature is malformed (a refusal), and
 * `undefined` for the schemes noble checks.
 */
function openSslCheckOf(
  scheme: string,
  { publicKey, signature }: Decoded,
  body: Uint8Array,
): OpenSslCheck | null | undefined {
  switch (scheme) {
    case "SIGNATURE_SCHEME_TK_API_P256": {
      const key = p256PublicKeyObject(publicKey);
      const compact = derSignatureToCompact(signature);
      if (key === undefined || compact === undefined) return null;
      return { algorithm: "sha256", key: { key, dsaEncoding: "ieee-p1363" }, signature: compact, messages: [body] };
    }
    case "SIGNATURE_SCHEME_TK_API_ED25519": {
      const key = signature.length === 64 ? ed25519PublicKeyObject(publicKey) : undefined;
      if (key === undefined) return null;
      // Solana wallets sign the body itself; the Go SDK signs its SHA-256 digest. Both are accepted
      // (docs/spec/wire-protocol.md §1).
      return { algorithm: null, key, signature, messages: [body, sha256(body)] };
    }
    default:
      return undefined;
  }
}

/** An error (a signature OpenSSL cannot read) is a refusal, in this thread as on the pool. */
function verifiesInThread(check: OpenSslCheck, message: Uint8Array): boolean {
  try {
    return verify(check.algorithm, message, check.key, check.signature);
  } catch {
    return false;
  }
}

function verifiesOnPool(check: OpenSslCheck, message: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      verify(check.algorithm, message, check.key, check.signature, (error, valid) => resolve(error === null && valid));
    } catch {
      resolve(false);
    }
  });
}

function verifyWithNoble(scheme: string, { publicKey, signature }: Decoded, body: Uint8Array): boolean {
  switch (scheme) {
    case "SIGNATURE_SCHEME_TK_API_SECP256K1":
      return verifySecp256k1(publicKey, signature, sha256(body));
    case "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191":
      return verifySecp256k1(publicKey, signature, personalMessageDigest(body));
    default:
      return false;
  }
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
