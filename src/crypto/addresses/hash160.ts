/**
 * HASH160 = RIPEMD-160(SHA-256(·)), the account id of Bitcoin-family and Cosmos-family addresses.
 *
 * @module
 */
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** RIPEMD-160 of the SHA-256 of `data` (20 bytes). */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}
