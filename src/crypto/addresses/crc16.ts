/**
 * CRC-16/XMODEM (polynomial 0x1021, initial value 0, no reflection), the checksum of Stellar StrKeys and
 * TON user-friendly addresses. Neither @noble nor @scure ships it; tests check both users against the
 * chains' own libraries.
 *
 * @module
 */

/** The CRC-16/XMODEM of `data`, as a number in [0, 0xffff]. */
export function crc16Xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
