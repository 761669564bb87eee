/**
 * Sui addresses: `0x` + blake2b-256(`0x00` ed25519 scheme flag ‖ key), 64 lowercase hex digits.
 *
 * @module
 */
import { blake2b } from "@noble/hashes/blake2.js";
import { bytesToHex, concatBytes } from "../bytes.js";

const ED25519_FLAG = Uint8Array.of(0x00);

/** The Sui address of a 32-byte ed25519 key. */
export function suiAddress(publicKey: Uint8Array): string {
  return `0x${bytesToHex(blake2b(concatBytes(ED25519_FLAG, publicKey), { dkLen: 32 }))}`;
}
