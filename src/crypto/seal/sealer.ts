/**
 * Envelope encryption for secrets at rest. Records are sealed with AES-256-GCM under one random data key;
 * the data key is stored only wrapped (AES-256-GCM) by the host's key-encryption key (KEK). Rotating the
 * KEK re-wraps the data key and leaves every sealed record as it is.
 *
 * @module
 */
import { gcm } from "@noble/ciphers/aes.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes as systemRandomBytes } from "@noble/hashes/utils.js";
import { CustodyError, invalidArgument } from "../../common/errors.js";
import { bytesEqual, concatBytes, utf8ToBytes } from "../bytes.js";
import type { RandomBytes } from "../hpke/index.js";
import {
  decodeSealedValue,
  decodeWrappedDataKey,
  encodeSealedValue,
  encodeWrappedDataKey,
  KEY_ID_LENGTH,
  KEY_LENGTH,
  NONCE_LENGTH,
  sealedValueHeader,
} from "./format.js";

/** Binds a wrapped data key to its purpose and format version, so it cannot pass for anything else. */
const WRAP_AAD = utf8ToBytes("custodian/seal/v1/data-key");
/** HMAC label of the data-key identifier; a PRF output reveals nothing about the key. */
const KEY_ID_LABEL = utf8ToBytes("custodian/seal/v1/key-id");

/** Options of {@link createSealer}. */
export interface SealerOptions {
  /** The host's 32-byte key-encryption key. The sealer does not keep it. */
  keyEncryptionKey: Uint8Array;
  /** The data key from an earlier {@link Sealer.wrappedDataKey}; omit it to create a new data key. */
  wrappedDataKey?: string;
  /** Randomness for the data key and nonces; defaults to the system CSPRNG. */
  randomBytes?: RandomBytes;
}

/** Seals and opens secrets under one data key. */
export interface Sealer {
  /** The data key wrapped by the current KEK. Store it next to the sealed records; it is not secret. */
  readonly wrappedDataKey: string;
  /**
   * Encrypts `plaintext` for the record named by `context` (e.g. `wallet:<walletId>:mnemonic`). The context
   * is authenticated, not stored: the same context is needed to open, so sealed values cannot be moved
   * between records. Nonces are random 96-bit values, so keep one data key under roughly 2^32 seals.
   *
   * @throws `CustodyError` `INVALID_ARGUMENT` naming `context` when it is empty.
   */
  seal(plaintext: Uint8Array, context: string): string;
  /**
   * Decrypts a value sealed for `context`.
   *
   * @throws `CustodyError` `FAILED_PRECONDITION` when the value was sealed under another data key or in a
   *   format version this build does not read; `INTERNAL` when it is damaged, altered, or belongs to another
   *   record (its context does not match).
   */
  open(sealed: string, context: string): Uint8Array;
  /**
   * Wraps the same data key under `newKeyEncryptionKey`, for KEK rotation: store the result in place of
   * {@link wrappedDataKey} and create the next sealer from it; records sealed before stay readable.
   *
   * @throws `CustodyError` `INVALID_ARGUMENT` naming `newKeyEncryptionKey` when it is not 32 bytes.
   */
  rewrap(newKeyEncryptionKey: Uint8Array): string;
}

/**
 * Creates a sealer: unwraps `wrappedDataKey` with `keyEncryptionKey`, or creates and wraps a new data key.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `keyEncryptionKey` or `wrappedDataKey` when one is
 *   malformed; `FAILED_PRECONDITION` (reason `KEY_ENCRYPTION_KEY_MISMATCH`) when the KEK does not unwrap the
 *   data key, which is what a wrong KEK looks like.
 */
export function createSealer(options: SealerOptions): Sealer {
  const randomBytes = options.randomBytes ?? systemRandomBytes;
  assertKeyLength(options.keyEncryptionKey, "keyEncryptionKey");
  const dataKey =
    options.wrappedDataKey === undefined
      ? randomBytes(KEY_LENGTH)
      : unwrapDataKey(options.wrappedDataKey, options.keyEncryptionKey);
  const wrappedDataKey = options.wrappedDataKey ?? wrapDataKey(dataKey, options.keyEncryptionKey, randomBytes);
  const keyId = hmac(sha256, dataKey, KEY_ID_LABEL).subarray(0, KEY_ID_LENGTH);

  return {
    wrappedDataKey,
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_LENGTH);
      const header = sealedValueHeader(keyId, nonce);
      const ciphertext = gcm(dataKey, nonce, sealAad(header, context)).encrypt(plaintext);
      return encodeSealedValue(header, ciphertext);
    },
    open(sealed, context) {
      const parts = decodeSealedValue(sealed);
      if (!bytesEqual(parts.keyId, keyId)) {
        throw new CustodyError(
          "FAILED_PRECONDITION",
          "sealed value was sealed under a different data key than this sealer's; check the wrapped data key the host configured",
          { reason: "DATA_KEY_MISMATCH" },
        );
      }
      try {
        return gcm(dataKey, parts.nonce, sealAad(parts.header, context)).decrypt(parts.ciphertext);
      } catch {
        throw new CustodyError(
          "INTERNAL",
          "sealed value failed authentication: it was altered, or it belongs to another record",
          { reason: "SEALED_VALUE_AUTHENTICATION_FAILED" },
        );
      }
    },
    rewrap(newKeyEncryptionKey) {
      assertKeyLength(newKeyEncryptionKey, "newKeyEncryptionKey");
      return wrapDataKey(dataKey, newKeyEncryptionKey, randomBytes);
    },
  };
}

function wrapDataKey(dataKey: Uint8Array, keyEncryptionKey: Uint8Array, randomBytes: RandomBytes): string {
  const nonce = randomBytes(NONCE_LENGTH);
  return encodeWrappedDataKey({ nonce, ciphertext: gcm(keyEncryptionKey, nonce, WRAP_AAD).encrypt(dataKey) });
}

function unwrapDataKey(wrappedDataKey: string, keyEncryptionKey: Uint8Array): Uint8Array {
  const { nonce, ciphertext } = decodeWrappedDataKey(wrappedDataKey);
  try {
    return gcm(keyEncryptionKey, nonce, WRAP_AAD).decrypt(ciphertext);
  } catch {
    // GCM cannot tell a wrong key from a damaged wrapped key; a wrong KEK is by far the likelier cause.
    throw new CustodyError(
      "FAILED_PRECONDITION",
      "keyEncryptionKey does not unwrap wrappedDataKey: it is not the key the data key was wrapped with, or the wrapped key is damaged",
      { field: "keyEncryptionKey", reason: "KEY_ENCRYPTION_KEY_MISMATCH" },
    );
  }
}

function sealAad(header: Uint8Array, context: string): Uint8Array {
  if (context.length === 0) throw invalidArgument("context must name the record the value belongs to", "context");
  // The header has a fixed length, so header ‖ context is unambiguous.
  return concatBytes(header, utf8ToBytes(context));
}

function assertKeyLength(key: Uint8Array, field: string): void {
  if (!(key instanceof Uint8Array) || key.length !== KEY_LENGTH) {
    throw invalidArgument(`${field} must be ${KEY_LENGTH} bytes`, field);
  }
}
