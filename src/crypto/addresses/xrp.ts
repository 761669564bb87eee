/**
 * XRP Ledger classic addresses: base58check in the XRPL alphabet of `0x00` ‖ HASH160(compressed key),
 * so they start with `r`.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base58xrp } from "@scure/base";
import { concatBytes } from "../bytes.js";
import { hash160 } from "./hash160.js";
import type { Secp256k1PublicKey } from "./public-key.js";

const ACCOUNT_ID_TYPE = Uint8Array.of(0x00);

/** The classic XRPL address of `key`. */
export function xrpAddress(key: Secp256k1PublicKey): string {
  const payload = concatBytes(ACCOUNT_ID_TYPE, hash160(key.compressed));
  // @scure/base's base58check is tied to the Bitcoin alphabet, so the XRPL checksum is appended here.
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58xrp.encode(concatBytes(payload, checksum));
}
