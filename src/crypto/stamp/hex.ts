import { hexToBytes } from "../bytes.js";

const HEX_PAIRS = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * Bytes of a stamp-style hex string (pairs of digits of either case, no `0x` prefix, not empty), or undefined.
 * Stamps and API keys carry bare hex; a prefix would make a second spelling of the same key.
 */
export function bareHexToBytes(value: string): Uint8Array | undefined {
  return HEX_PAIRS.test(value) ? hexToBytes(value) : undefined;
}
