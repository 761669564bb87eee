/**
 * The wire enums raw-payload signing reads, spelled as the public API spells them (`v1PayloadEncoding`,
 * `v1HashFunction`, and the `v1Curve` values this module can sign with), with guards that name the field at fault.
 *
 * @module
 */
import { invalidArgument } from "../../common/errors.js";

/** Every `v1PayloadEncoding` value: how the `payload` string becomes the bytes (or document) to sign. */
export const PAYLOAD_ENCODINGS = [
  "PAYLOAD_ENCODING_HEXADECIMAL",
  "PAYLOAD_ENCODING_TEXT_UTF8",
  "PAYLOAD_ENCODING_EIP712",
  "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
] as const;

/** A `v1PayloadEncoding` value. */
export type PayloadEncoding = (typeof PAYLOAD_ENCODINGS)[number];

/** Every `v1HashFunction` value: what is done to the payload bytes before the curve's signing algorithm. */
export const HASH_FUNCTIONS = [
  "HASH_FUNCTION_NO_OP",
  "HASH_FUNCTION_SHA256",
  "HASH_FUNCTION_KECCAK256",
  "HASH_FUNCTION_NOT_APPLICABLE",
] as const;

/** A `v1HashFunction` value. */
export type HashFunction = (typeof HASH_FUNCTIONS)[number];

/** The `v1Curve` values raw payloads can be signed with (P-256 only as a standalone private key). */
export const SIGNING_CURVES = ["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"] as const;

/** A curve raw payloads can be signed with. */
export type SigningCurve = (typeof SIGNING_CURVES)[number];

/** Throws `INVALID_ARGUMENT` naming `field` unless `value` is a `v1PayloadEncoding` value. */
export function assertPayloadEncoding(value: unknown, field: string): asserts value is PayloadEncoding {
  if (!(PAYLOAD_ENCODINGS as readonly unknown[]).includes(value)) {
    throw invalidArgument(`${field} must be one of ${PAYLOAD_ENCODINGS.join(", ")}`, field);
  }
}

/** Throws `INVALID_ARGUMENT` naming `field` unless `value` is a `v1HashFunction` value. */
export function assertHashFunction(value: unknown, field: string): asserts value is HashFunction {
  if (!(HASH_FUNCTIONS as readonly unknown[]).includes(value)) {
    throw invalidArgument(`${field} must be one of ${HASH_FUNCTIONS.join(", ")}`, field);
  }
}
