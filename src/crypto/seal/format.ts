/**
 * Byte layouts of sealed values and wrapped data keys. Both start with a format version byte so a later
 * build can migrate old records; version 1 is AES-256-GCM with a 96-bit random nonce.
 *
 * ```
 * wrapped data key v1: 01 ‖ nonce[12] ‖ AES-256-GCM_kek(data key[32]) ‖ tag[16]
 * sealed value v1:     01 ‖ key id[8] ‖ nonce[12] ‖ AES-256-GCM_dataKey(plaintext) ‖ tag[16]
 * ```
 *
 * Both travel as unpadded base64url strings, which every store adapter (JSON journal, SQL text) keeps as is.
 *
 * @module
 */
import { CustodyError, invalidArgument } from "../../common/errors.js";
import { decodeBase64Url, encodeBase64Url } from "../bytes.js";

/** The format version this build writes and reads. */
export const SEAL_FORMAT_VERSION = 1;

/** AES-256 key length, for data keys and key-encryption keys alike. */
export const KEY_LENGTH = 32;
/** AES-GCM nonce length. */
export const NONCE_LENGTH = 12;
/** AES-GCM tag length. */
const TAG_LENGTH = 16;
/** Length of the data-key identifier stored with every sealed value. */
export const KEY_ID_LENGTH = 8;

const WRAPPED_KEY_LENGTH = 1 + NONCE_LENGTH + KEY_LENGTH + TAG_LENGTH;
/** Everything a sealed value carries before its ciphertext; authenticated as part of the AAD. */
const SEALED_HEADER_LENGTH = 1 + KEY_ID_LENGTH + NONCE_LENGTH;

/** The parts of a wrapped data key. */
export interface WrappedDataKeyParts {
  nonce: Uint8Array;
  /** The encrypted data key followed by its GCM tag. */
  ciphertext: Uint8Array;
}

/** The parts of a sealed value. */
export interface SealedValueParts {
  /** The version byte, key id and nonce, as stored: the AAD prefix. */
  header: Uint8Array;
  keyId: Uint8Array;
  nonce: Uint8Array;
  /** The encrypted plaintext followed by its GCM tag. */
  ciphertext: Uint8Array;
}

/** Encodes a version 1 wrapped data key. */
export function encodeWrappedDataKey(parts: WrappedDataKeyParts): string {
  const bytes = new Uint8Array(WRAPPED_KEY_LENGTH);
  bytes[0] = SEAL_FORMAT_VERSION;
  bytes.set(parts.nonce, 1);
  bytes.set(parts.ciphertext, 1 + NONCE_LENGTH);
  return encodeBase64Url(bytes);
}

/**
 * Decodes a wrapped data key. Malformed input is `INVALID_ARGUMENT` naming `wrappedDataKey`; a version this
 * build does not read is `FAILED_PRECONDITION`.
 */
export function decodeWrappedDataKey(value: string): WrappedDataKeyParts {
  const bytes = decodeBase64Url(value);
  if (bytes === undefined || bytes.length === 0) {
    throw invalidArgument("wrappedDataKey is not a base64url wrapped data key", "wrappedDataKey");
  }
  assertSupportedVersion(bytes[0] as number, "wrappedDataKey");
  if (bytes.length !== WRAPPED_KEY_LENGTH) {
    throw invalidArgument(`wrappedDataKey must be ${WRAPPED_KEY_LENGTH} bytes, got ${bytes.length}`, "wrappedDataKey");
  }
  return { nonce: bytes.subarray(1, 1 + NONCE_LENGTH), ciphertext: bytes.subarray(1 + NONCE_LENGTH) };
}

/** Encodes a version 1 sealed value from its header and ciphertext. */
export function encodeSealedValue(header: Uint8Array, ciphertext: Uint8Array): string {
  const bytes = new Uint8Array(header.length + ciphertext.length);
  bytes.set(header, 0);
  bytes.set(ciphertext, header.length);
  return encodeBase64Url(bytes);
}

/** Builds the version 1 header of a sealed value. */
export function sealedValueHeader(keyId: Uint8Array, nonce: Uint8Array): Uint8Array {
  const header = new Uint8Array(SEALED_HEADER_LENGTH);
  header[0] = SEAL_FORMAT_VERSION;
  header.set(keyId, 1);
  header.set(nonce, 1 + KEY_ID_LENGTH);
  return header;
}

/**
 * Decodes a sealed value. Sealed values come back from storage, so a malformed one means damage, not a bad
 * request: `INTERNAL`. A version this build does not read is `FAILED_PRECONDITION`.
 */
export function decodeSealedValue(value: string): SealedValueParts {
  const bytes = decodeBase64Url(value);
  if (bytes === undefined || bytes.length === 0) {
    throw new CustodyError("INTERNAL", "sealed value is not base64url; the stored record is damaged", {
      reason: "SEALED_VALUE_MALFORMED",
    });
  }
  assertSupportedVersion(bytes[0] as number, "sealed value");
  if (bytes.length < SEALED_HEADER_LENGTH + TAG_LENGTH) {
    throw new CustodyError(
      "INTERNAL",
      `sealed value is truncated (${bytes.length} bytes); the stored record is damaged`,
      {
        reason: "SEALED_VALUE_MALFORMED",
      },
    );
  }
  return {
    header: bytes.subarray(0, SEALED_HEADER_LENGTH),
    keyId: bytes.subarray(1, 1 + KEY_ID_LENGTH),
    nonce: bytes.subarray(1 + KEY_ID_LENGTH, SEALED_HEADER_LENGTH),
    ciphertext: bytes.subarray(SEALED_HEADER_LENGTH),
  };
}

function assertSupportedVersion(version: number, what: string): void {
  if (version !== SEAL_FORMAT_VERSION) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      `${what} uses seal format version ${version}; this build reads version ${SEAL_FORMAT_VERSION}`,
      { reason: "UNSUPPORTED_SEAL_FORMAT", version },
    );
  }
}
