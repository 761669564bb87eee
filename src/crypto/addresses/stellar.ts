/**
 * Stellar account ids (StrKey `G…`): RFC 4648 base32 without padding of the version byte `6 << 3`
 * (ed25519 public key) ‖ key ‖ CRC-16/XMODEM little-endian; 56 characters.
 *
 * @module
 */
import { base32nopad } from "@scure/base";
import { concatBytes } from "../bytes.js";
import { crc16Xmodem } from "./crc16.js";

const ED25519_PUBLIC_KEY_VERSION = Uint8Array.of(6 << 3);

/** The Stellar account id of a 32-byte ed25519 key. */
export function stellarAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(ED25519_PUBLIC_KEY_VERSION, publicKey);
  const crc = crc16Xmodem(payload);
  return base32nopad.encode(concatBytes(payload, Uint8Array.of(crc & 0xff, crc >> 8)));
}
