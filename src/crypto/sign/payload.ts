/**
 * Decoding of the `payload` string by its `encoding` (`v1PayloadEncoding`): hex and UTF-8 text give bytes that
 * the hash function still applies to; the Ethereum encodings give what they define to be signed.
 *
 * @module
 */
import { invalidArgument } from "../../common/errors.js";
import { parseHex, utf8ToBytes } from "../bytes.js";
import { parseTypedData } from "./eip712.js";
import type { TypedDataDocument } from "./eip712-digest.js";
import { authorizationDigest } from "./eip7702.js";
import { assertPayloadEncoding, type PayloadEncoding } from "./enums.js";
import type { PayloadFields } from "./fields.js";
import { MAX_PAYLOAD_BYTES } from "./limits.js";

/** A decoded payload. */
export type EncodedPayload =
  /** HEX and TEXT_UTF8: the payload bytes, which the hash function then applies to. */
  | { readonly kind: "bytes"; readonly bytes: Uint8Array }
  /** EIP7702_AUTHORIZATION: the 32-byte authorization digest, already hashed by the encoding. */
  | { readonly kind: "digest"; readonly digest: Uint8Array }
  /**
   * EIP712: the typed-data document, hashed per EIP-712 when it is signed (see `eip712.ts` for why the digest
   * is not computed here). `field` names the payload for errors found while hashing.
   */
  | { readonly kind: "typedData"; readonly typedData: TypedDataDocument; readonly field: string };

// A lone UTF-16 surrogate has no UTF-8 form; TextEncoder would silently sign U+FFFD in its place.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Decodes `payload` by `encoding`, or throws `INVALID_ARGUMENT` naming `fields.payload` (bad or empty or
 * oversized payload) or `fields.encoding` (unknown encoding).
 *
 * - `PAYLOAD_ENCODING_HEXADECIMAL`: hex digits, with or without `0x`, any case, an even number of them.
 * - `PAYLOAD_ENCODING_TEXT_UTF8`: the UTF-8 bytes of the string.
 * - `PAYLOAD_ENCODING_EIP712`: an EIP-712 typed-data JSON document (see `eip712.ts`).
 * - `PAYLOAD_ENCODING_EIP7702_AUTHORIZATION`: JSON `{address, chainId, nonce}` (see `eip7702.ts`).
 *
 * Every payload must be non-empty and at most {@link MAX_PAYLOAD_BYTES} bytes once decoded (JSON documents
 * count their UTF-8 bytes).
 */
export function encodePayload(payload: string, encoding: PayloadEncoding, fields: PayloadFields): EncodedPayload {
  assertPayloadEncoding(encoding, fields.encoding);
  const field = fields.payload;
  if (typeof payload !== "string") throw invalidArgument(`${field} must be a string`, field);
  if (encoding === "PAYLOAD_ENCODING_HEXADECIMAL") {
    const digits = payload.startsWith("0x") || payload.startsWith("0X") ? payload.length - 2 : payload.length;
    // Measured before decoding, so an oversized payload costs nothing.
    if (digits > 2 * MAX_PAYLOAD_BYTES) throw tooLarge(field);
    const bytes = parseHex(payload, field);
    if (bytes.length === 0) throw empty(field);
    return { kind: "bytes", bytes };
  }
  checkTextSize(payload, field);
  switch (encoding) {
    case "PAYLOAD_ENCODING_TEXT_UTF8":
      if (LONE_SURROGATE.test(payload)) {
        throw invalidArgument(`${field} contains a lone UTF-16 surrogate, which has no UTF-8 encoding`, field);
      }
      return { kind: "bytes", bytes: utf8ToBytes(payload) };
    case "PAYLOAD_ENCODING_EIP712":
      return { kind: "typedData", typedData: parseTypedData(payload, field), field };
    case "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION":
      return { kind: "digest", digest: authorizationDigest(payload, field) };
  }
}

/** Refuses an empty text or JSON payload, or one over the limit in UTF-8 bytes. */
function checkTextSize(payload: string, field: string): void {
  if (payload.length === 0) throw empty(field);
  // UTF-8 never takes fewer bytes than UTF-16 code units, so this bound holds before measuring.
  if (payload.length > MAX_PAYLOAD_BYTES || Buffer.byteLength(payload, "utf8") > MAX_PAYLOAD_BYTES) {
    throw tooLarge(field);
  }
}

function empty(field: string) {
  return invalidArgument(`${field} is empty`, field);
}

function tooLarge(field: string) {
  return invalidArgument(`${field} is larger than ${MAX_PAYLOAD_BYTES} bytes`, field, { limit: MAX_PAYLOAD_BYTES });
}
