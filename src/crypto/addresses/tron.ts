/**
 * Tron addresses: base58check (Bitcoin alphabet, double-SHA256 checksum) of `0x41` ‖ the Ethereum account
 * id, so they start with `T`.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { concatBytes } from "../bytes.js";
import { ethereumAccountId } from "./ethereum.js";
import type { Secp256k1PublicKey } from "./public-key.js";

const TRON_MAINNET_PREFIX = Uint8Array.of(0x41);
const base58check = createBase58check(sha256);

/** The Tron (mainnet) address of `key`. */
export function tronAddress(key: Secp256k1PublicKey): string {
  return base58check.encode(concatBytes(TRON_MAINNET_PREFIX, ethereumAccountId(key)));
}
