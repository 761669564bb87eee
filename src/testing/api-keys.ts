/**
 * API key pairs and `X-Stamp` headers for tests, so a suite needs no crypto library of its own to make a
 * credential or sign a request the way `@turnkey/api-key-stamper` does.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, encodeBase64Url, hexToBytes, utf8ToBytes } from "../crypto/bytes.js";
import { type RandomSource, systemRandom } from "../model/random.js";

/** A P-256 API key as the official clients take it: hex strings, the public key compressed (33 bytes). */
export interface ApiKeyPair {
  /** Compressed public key, 66 hex characters: the `publicKey` of an `apiKeys` entry. */
  apiPublicKey: string;
  /** Private scalar, 64 hex characters: `apiPrivateKey` of `@turnkey/sdk-server` and `ApiKeyStamper`. */
  apiPrivateKey: string;
}

/** A stamp header, shaped as `TStamper.stamp` answers it. */
export interface Stamp {
  /** The header to send it in. */
  stampHeaderName: "X-Stamp";
  /** base64url of the stamp's JSON (public key, scheme, DER signature in hex). */
  stampHeaderValue: string;
}

/**
 * Makes a P-256 API key pair. Pass `random` (e.g. `createSeededRandom("seed")`) for a reproducible key;
 * the default is the operating system's generator.
 */
export function generateApiKeyPair(random: RandomSource = systemRandom): ApiKeyPair {
  // A 48-byte draw reduced modulo the order is uniform enough (FIPS 186-5 A.4.1) and never zero.
  const secret = p256.utils.randomSecretKey(random(48));
  return { apiPublicKey: bytesToHex(p256.getPublicKey(secret, true)), apiPrivateKey: bytesToHex(secret) };
}

/**
 * Signs `body` (the exact request text) with an API key, as `@turnkey/api-key-stamper` does: ECDSA P-256
 * over SHA-256, DER-encoded, in a base64url JSON stamp.
 */
export function stampWithApiKey(body: string, key: ApiKeyPair): Stamp {
  const signature = p256.sign(utf8ToBytes(body), hexToBytes(key.apiPrivateKey), { format: "der" });
  const stamp = {
    publicKey: key.apiPublicKey,
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    signature: bytesToHex(signature),
  };
  return { stampHeaderName: "X-Stamp", stampHeaderValue: encodeBase64Url(utf8ToBytes(JSON.stringify(stamp))) };
}
