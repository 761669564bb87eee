import { constants, verify } from "node:crypto";
import { COSE_ALGORITHMS, type CosePublicKey } from "./cose-key.js";

/**
 * Whether `signature` is the credential's signature over `data`: ES256 as DER ECDSA P-256 / SHA-256
 * (what authenticators emit; high-S accepted), RS256 as RSASSA-PKCS1-v1_5 / SHA-256.
 */
export function verifyCoseSignature(publicKey: CosePublicKey, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (publicKey.alg === COSE_ALGORITHMS.ES256) {
      return verify("sha256", data, { key: publicKey.key, dsaEncoding: "der" }, signature);
    }
    return verify("sha256", data, { key: publicKey.key, padding: constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    // OpenSSL throws on some malformed signatures instead of answering false.
    return false;
  }
}
