/**
 * Solana addresses: the raw ed25519 public key in base58 (Bitcoin alphabet), no version, no checksum.
 *
 * @module
 */
import { base58 } from "@scure/base";

/** The Solana address of a 32-byte ed25519 key. */
export function solanaAddress(publicKey: Uint8Array): string {
  return base58.encode(publicKey);
}
