/**
 * Cosmos-SDK addresses (Cosmos Hub, Sei): bech32 (BIP173, not bech32m) of HASH160 of the compressed key,
 * as `@turnkey/cosmjs` computes them.
 *
 * @module
 */
import { bech32 } from "@scure/base";
import { hash160 } from "./hash160.js";
import type { Secp256k1PublicKey } from "./public-key.js";

/** The bech32 address of `key` under the human-readable `prefix` (`cosmos`, `sei`). */
export function cosmosAddress(prefix: string, key: Secp256k1PublicKey): string {
  return bech32.encode(prefix, bech32.toWords(hash160(key.compressed)));
}
