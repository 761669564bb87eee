/**
 * Ethereum addresses: `0x` + the last 20 bytes of keccak256(X ‖ Y), with the EIP-55 mixed-case checksum
 * (Turnkey's documented account addresses are checksummed).
 *
 * @module
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, utf8ToBytes } from "../bytes.js";
import type { Secp256k1PublicKey } from "./public-key.js";

/** The 20-byte account id: last 20 bytes of keccak256 of the uncompressed key without its `04` prefix. */
export function ethereumAccountId(key: Secp256k1PublicKey): Uint8Array {
  return keccak_256(key.uncompressed.subarray(1)).slice(-20);
}

/** EIP-55: each hex letter is upper-cased where the matching nibble of keccak256(lowercase hex) is ≥ 8. */
export function toChecksumAddress(accountId: Uint8Array): string {
  const lower = bytesToHex(accountId);
  const hash = keccak_256(utf8ToBytes(lower));
  const chars = ["0x"];
  for (let i = 0; i < lower.length; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    const char = lower[i] as string;
    chars.push(nibble >= 8 ? char.toUpperCase() : char);
  }
  // One flat string: appending char by char builds a rope of 41 pieces, which stored records would then keep.
  return chars.join("");
}

/** The EIP-55 Ethereum address of `key`. */
export function ethereumAddress(key: Secp256k1PublicKey): string {
  return toChecksumAddress(ethereumAccountId(key));
}
