/**
 * Credential bundles: the `credentialBundle` of `create_read_write_session`, `oauth`, `otp_auth` and
 * `email_auth` results, which `@turnkey/crypto`'s `decryptCredentialBundle` opens (docs/spec/wire-protocol.md §3).
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { concatBytes } from "../bytes.js";
import { compressP256 } from "./p256-keys.js";
import { hpkeSealToTarget, type RandomBytes } from "./suite.js";

/** Base58 with a 4-byte double-SHA-256 checksum and no version byte, like npm `bs58check`. */
const base58check = createBase58check(sha256);

/** Input of {@link encryptCredentialBundle}. */
export interface EncryptCredentialBundleInput {
  /** The secret to deliver; for session and auth flows, the new API key's raw 32-byte private key. */
  plaintext: Uint8Array;
  /** The client's P-256 key as hex, 33-byte compressed or 65-byte uncompressed. */
  targetPublicKey: string;
  /** Randomness for the ephemeral HPKE key; defaults to the system CSPRNG. */
  randomBytes?: RandomBytes;
}

/**
 * Encrypts `plaintext` to `targetPublicKey` as a Turnkey credential bundle:
 * `bs58check(compressed enc[33] ‖ AES-256-GCM ciphertext ‖ tag)`.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `parameters.targetPublicKey` when the key is not a P-256
 *   point in either SEC1 encoding.
 */
export async function encryptCredentialBundle(input: EncryptCredentialBundleInput): Promise<string> {
  const { enc, ciphertext } = await hpkeSealToTarget(input.plaintext, input.targetPublicKey, input.randomBytes);
  return base58check.encode(concatBytes(compressP256(enc), ciphertext));
}
