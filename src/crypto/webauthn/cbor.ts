import { Decoder, Encoder } from "cbor-x";
import { bytesEqual } from "../bytes.js";
import { WebauthnRefusal, type WebauthnRefusalReason } from "./refusal.js";

// Maps stay Maps (COSE keys are integers, and no member can reach an object prototype); no record extension.
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
// Plain CBOR out: byte strings untagged, maps as maps, no cbor-x records.
const encoder = new Encoder({ mapsAsObjects: false, useRecords: false, tagUint8Array: false });

/** Decodes `bytes` that must hold exactly one CBOR item, refusing with `reason` otherwise. */
export function decodeCbor(bytes: Uint8Array, reason: WebauthnRefusalReason, what: string): unknown {
  try {
    return decoder.decode(freshView(bytes));
  } catch (error) {
    throw new WebauthnRefusal(reason, `${what} is not a single well-formed CBOR item`, undefined, { cause: error });
  }
}

/**
 * Splits off the first CBOR item of `bytes`: its value and how many bytes it took. Authenticator data puts the
 * credential public key and the extensions map back to back with no length, and the stored key must be the
 * authenticator's exact bytes, but cbor-x does not report its read position. WebAuthn requires the key in CTAP2
 * canonical CBOR (shortest lengths, definite lengths), which cbor-x re-encodes byte for byte, so the first
 * item's length is that of its re-encoding, once the re-encoding is checked to be exactly the bytes it came from.
 *
 * @throws WebauthnRefusal with `reason` when `bytes` is not a sequence of CBOR items or the first is not canonical.
 */
export function decodeFirstCbor(
  bytes: Uint8Array,
  reason: WebauthnRefusalReason,
  what: string,
): { value: unknown; length: number } {
  let items: unknown[];
  try {
    items = decoder.decodeMultiple(freshView(bytes)) as unknown[];
  } catch (error) {
    throw new WebauthnRefusal(reason, `${what} is not well-formed CBOR`, undefined, { cause: error });
  }
  const value = items[0];
  const encoded = encoder.encode(value);
  if (encoded.length > bytes.length || !bytesEqual(encoded, bytes.subarray(0, encoded.length))) {
    throw new WebauthnRefusal(reason, `${what} is not in CTAP2 canonical CBOR form`);
  }
  return { value, length: encoded.length };
}

/**
 * A new view of the same bytes: cbor-x caches a `dataView` property on the array it decodes, and the
 * caller's arrays should come back as they went in.
 */
function freshView(bytes: Uint8Array, length = bytes.length): Uint8Array {
  return bytes.subarray(0, length);
}

/** `value` as a CBOR map, or undefined. */
export function asMap(value: unknown): Map<unknown, unknown> | undefined {
  return value instanceof Map ? value : undefined;
}

/** `value` as a CBOR byte string (copied out of the decoder's buffer view), or undefined. */
export function asBytes(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? Uint8Array.from(value) : undefined;
}
