/**
 * Byte encodings shared by every crypto module. Thin names over `@noble/hashes` and `@scure/base`, plus
 * strict parsers that report the field at fault instead of throwing a bare `Error`.
 *
 * @module
 */
import { concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import { invalidArgument } from "../common/errors.js";

export { concatBytes, hexToBytes, utf8ToBytes };

/**
 * Lowercase hex of `bytes`. Node prints it natively as one flat string; noble's `bytesToHex` appends two digits
 * at a time, a rope of one piece per byte: 2 KB of garbage for the r and s of one signature.
 */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

const HEX = /^[0-9a-fA-F]*$/;

/**
 * Parses hex (optionally `0x`-prefixed, any case) or throws `INVALID_ARGUMENT` naming `field`.
 * `expectedLength`, when given, is in bytes.
 */
export function parseHex(value: string, field: string, expectedLength?: number): Uint8Array {
  const digits = value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
  if (digits.length % 2 !== 0) throw invalidArgument(`${field} has an odd number of hex digits`, field);
  if (!HEX.test(digits)) throw invalidArgument(`${field} is not hexadecimal`, field);
  const bytes = hexToBytes(digits);
  if (expectedLength !== undefined && bytes.length !== expectedLength) {
    throw invalidArgument(`${field} must be ${expectedLength} bytes, got ${bytes.length}`, field);
  }
  return bytes;
}

/** Decodes base64url, with or without padding. Returns undefined on malformed input. */
export function decodeBase64Url(value: string): Uint8Array | undefined {
  const unpadded = value.replace(/=+$/, "");
  try {
    return base64urlnopad.decode(unpadded);
  } catch {
    return undefined;
  }
}

/** Encodes base64url without padding (the wire protocol's stamp and WebAuthn encoding). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes);
}

/**
 * Decodes UTF-8 strictly: invalid sequences give undefined instead of replacement characters, and a leading
 * byte-order mark is kept, so the text re-encodes to exactly the bytes that were signed (a stripped BOM
 * would let two different signed bodies share one fingerprint).
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Constant-time equality of two byte strings (length leaks, content does not). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
