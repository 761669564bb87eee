import { type DecodeOptions, decode, decodeFirst } from "cborg";
import { WebauthnRefusal, type WebauthnRefusalReason } from "./refusal.js";

/**
 * Maps stay Maps (COSE keys are integers, and no member can reach an object prototype). No tags, no
 * indefinite lengths, no `undefined` and no repeated map keys: WebAuthn data has none of them, and a
 * duplicate key would let two parsers read one credential differently.
 */
const lenient: DecodeOptions = {
  useMaps: true,
  allowIndefinite: false,
  allowUndefined: false,
  rejectDuplicateMapKeys: true,
};
/** WebAuthn requires credential public keys in CTAP2 canonical CBOR: shortest integer and length forms too. */
const canonical: DecodeOptions = { ...lenient, strict: true };

/** Decodes `bytes` that must hold exactly one CBOR item, refusing with `reason` otherwise. */
export function decodeCbor(bytes: Uint8Array, reason: WebauthnRefusalReason, what: string): unknown {
  try {
    return decode(bytes, lenient);
  } catch (error) {
    throw new WebauthnRefusal(reason, `${what} is not a single well-formed CBOR item`, undefined, { cause: error });
  }
}

/**
 * Splits off the first CBOR item of `bytes`: its value and how many bytes it took. Authenticator data puts the
 * credential public key and the extensions map back to back with no length, and the stored key must be the
 * authenticator's exact bytes.
 *
 * @throws WebauthnRefusal with `reason` when `bytes` does not start with a well-formed CBOR item, or when that
 *   item is not in CTAP2 canonical form.
 */
export function decodeFirstCbor(
  bytes: Uint8Array,
  reason: WebauthnRefusalReason,
  what: string,
): { value: unknown; length: number } {
  let decoded: [unknown, Uint8Array];
  try {
    decoded = decodeFirst(bytes, canonical);
  } catch (error) {
    // cborg names its strict-mode refusals (an integer or length written longer than needed).
    const message =
      error instanceof Error && /strict/.test(error.message) ? "in CTAP2 canonical CBOR form" : "well-formed CBOR";
    throw new WebauthnRefusal(reason, `${what} is not ${message}`, undefined, { cause: error });
  }
  const [value, rest] = decoded;
  return { value, length: bytes.length - rest.length };
}

/** `value` as a CBOR map, or undefined. */
export function asMap(value: unknown): Map<unknown, unknown> | undefined {
  return value instanceof Map ? value : undefined;
}

/** `value` as a CBOR byte string (copied out of the decoder's buffer view), or undefined. */
export function asBytes(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? Uint8Array.from(value) : undefined;
}
