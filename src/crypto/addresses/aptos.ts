/**
 * Aptos addresses: the authentication key sha3-256(key ‖ `0x00` single-ed25519 scheme), written in the
 * long AIP-40 form, `0x` + 64 lowercase hex digits (docs/spec/addresses.md §5, decision 6).
 *
 * @module
 */
import { sha3_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes } from "../bytes.js";

const SINGLE_ED25519_SCHEME = Uint8Array.of(0x00);

/** The Aptos address of a 32-byte ed25519 key. */
export function aptosAddress(publicKey: Uint8Array): string {
  return `0x${bytesToHex(sha3_256(concatBytes(publicKey, SINGLE_ED25519_SCHEME)))}`;
}
