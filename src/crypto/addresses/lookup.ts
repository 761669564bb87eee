/**
 * The key under which the engine indexes accounts by address (docs/spec/addresses.md §5, decision 5): one key per
 * account whatever spelling a caller uses where the chain treats spellings as equal, and the exact string
 * where case matters.
 *
 * @module
 */
import { formatTonRawAddress, parseTonAddress } from "./ton-address.js";

const PREFIXED_HEX = /^0[xX][0-9a-fA-F]+$/;
const PLAIN_HEX = /^[0-9a-fA-F]+$/;
/** Hex digit counts of the plain-hex formats: ed25519 COMPRESSED, secp256k1 COMPRESSED and UNCOMPRESSED. */
const PLAIN_HEX_LENGTHS = new Set([64, 66, 130]);

/**
 * Normalises an address for lookups:
 * - `0x` hex (Ethereum's EIP-55, Sui, Aptos) → `0x` + lowercase;
 * - plain hex keys (`COMPRESSED`, `UNCOMPRESSED`) → lowercase;
 * - TON, any user-friendly form (bounceable or not, test-only or not, either base64 alphabet) or the raw
 *   form → the raw form `<workchain>:<lowercase hex>`;
 * - anything else (base58, base32, bech32) → unchanged: those encodings are case-sensitive or, for bech32,
 *   lowercase by rule.
 *
 * Only the lengths of the hex formats are lower-cased, so a base58 string made of hex-looking characters
 * keeps its case.
 */
export function normalizeAddressForLookup(address: string): string {
  if (PREFIXED_HEX.test(address)) return `0x${address.slice(2).toLowerCase()}`;
  if (PLAIN_HEX_LENGTHS.has(address.length) && PLAIN_HEX.test(address)) return address.toLowerCase();
  const ton = parseTonAddress(address);
  if (ton !== undefined) return formatTonRawAddress(ton);
  return address;
}
