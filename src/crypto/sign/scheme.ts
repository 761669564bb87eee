/**
 * Which (curve, encoding, hash function) triples can be signed, and what exactly is signed for each.
 *
 * | curve     | encoding               | hash function  | what is signed                       |
 * |-----------|------------------------|----------------|--------------------------------------|
 * | secp256k1 | HEXADECIMAL, TEXT_UTF8 | NO_OP          | the payload, which must be 32 bytes  |
 * | secp256k1 | HEXADECIMAL, TEXT_UTF8 | SHA256         | sha256(payload)                      |
 * | secp256k1 | HEXADECIMAL, TEXT_UTF8 | KECCAK256      | keccak256(payload)                   |
 * | secp256k1 | EIP712                 | NO_OP          | the EIP-712 digest of the document   |
 * | secp256k1 | EIP7702_AUTHORIZATION  | NO_OP          | the EIP-7702 authorization digest    |
 * | ed25519   | HEXADECIMAL, TEXT_UTF8 | NOT_APPLICABLE | the payload bytes (RFC 8032 Ed25519) |
 * | P-256     | HEXADECIMAL, TEXT_UTF8 | NO_OP          | the payload, which must be 32 bytes  |
 * | P-256     | HEXADECIMAL, TEXT_UTF8 | SHA256         | sha256(payload) (ECDSA P-256/SHA-256) |
 *
 * Everything else is refused with `INVALID_ARGUMENT`:
 * - secp256k1 with NOT_APPLICABLE (`hashFunction`): ECDSA signs a digest, so one must be chosen.
 * - EIP712 / EIP7702 with anything but NO_OP (`hashFunction`): these encodings define their own keccak-based
 *   digest, and @turnkey/viem sends NO_OP with them (docs/spec/wire-protocol.md §4, "What @turnkey/viem sends").
 *   Hashing that digest again would sign something no verifier checks, and accepting KECCAK256 as a synonym would give
 *   one request two meanings.
 * - ed25519 with NO_OP, SHA256 or KECCAK256 (`hashFunction`): the swagger says of `hashFunction` "This field
 *   must be set to HASH_FUNCTION_NOT_APPLICABLE for EdDSA/ed25519 signature requests; configurable payload
 *   hashing is not supported by RFC 8032" (`v1SignRawPayloadIntentV2`); Turnkey's raw-payload guide says
 *   "Use HASH_FUNCTION_NOT_APPLICABLE with Ed25519 keys. Ed25519 performs hashing as part of the signature
 *   algorithm itself" (docs.turnkey.com/api-reference/overview/raw-payload-signing); @turnkey/solana always
 *   sends it ("Turnkey's signer requires an explicit value ... to minimize ambiguity", tkhq/sdk
 *   `packages/solana/src/index.ts`). Signing sha256(payload) instead would give a signature no Solana or Sui
 *   verifier accepts for the payload, so refusing is the only answer that cannot mislead.
 * - ed25519 with EIP712 or EIP7702 (`encoding`): those are Ethereum (secp256k1) constructions.
 * - P-256 with EIP712 or EIP7702 (`encoding`), as for ed25519; with KECCAK256 or NOT_APPLICABLE
 *   (`hashFunction`): P-256 signatures are verified over SHA-256 (WebCrypto's ECDSA, FIPS 186), so SHA256, or
 *   NO_OP for a digest the caller hashed, are the only choices that cannot mislead a verifier.
 *
 * @module
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { CustodyError, invalidArgument } from "../../common/errors.js";
import type { TypedDataDocument } from "./eip712-digest.js";
import {
  assertHashFunction,
  assertPayloadEncoding,
  type HashFunction,
  type PayloadEncoding,
  SIGNING_CURVES,
  type SigningCurve,
} from "./enums.js";
import type { PayloadFields } from "./fields.js";
import type { EncodedPayload } from "./payload.js";

/** What a curve's signing algorithm consumes, after encoding and hashing. */
export type SigningInput =
  /** secp256k1 and P-256: a 32-byte digest, signed as is (ECDSA without prehashing). */
  | { readonly kind: "digest"; readonly digest: Uint8Array }
  /** ed25519: the message itself; Ed25519 hashes it internally (SHA-512, RFC 8032). */
  | { readonly kind: "message"; readonly message: Uint8Array }
  /** secp256k1: an EIP-712 document, hashed and signed in one step; `field` names it in errors. */
  | { readonly kind: "typedData"; readonly typedData: TypedDataDocument; readonly field: string };

const SECP256K1_DIGEST_BYTES = 32;

/**
 * Throws `INVALID_ARGUMENT` naming the field at fault unless `curve` can sign payloads of `encoding` hashed
 * with `hashFunction` (the table in this module's doc). Checked once per request, before any payload is decoded.
 */
export function assertSigningScheme(
  curve: SigningCurve,
  encoding: PayloadEncoding,
  hashFunction: HashFunction,
  fields: PayloadFields,
): void {
  assertSigningCurve(curve);
  assertPayloadEncoding(encoding, fields.encoding);
  assertHashFunction(hashFunction, fields.hashFunction);
  const ethereumEncoding =
    encoding === "PAYLOAD_ENCODING_EIP712" || encoding === "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION";
  if (curve === "CURVE_P256") {
    if (ethereumEncoding) {
      throw invalidArgument(`${fields.encoding} ${encoding} needs a secp256k1 key, not a P-256 one`, fields.encoding);
    }
    if (hashFunction !== "HASH_FUNCTION_SHA256" && hashFunction !== "HASH_FUNCTION_NO_OP") {
      throw invalidArgument(
        `${fields.hashFunction} must be HASH_FUNCTION_SHA256 or HASH_FUNCTION_NO_OP (a 32-byte digest) for a P-256 key`,
        fields.hashFunction,
      );
    }
    return;
  }
  if (curve === "CURVE_ED25519") {
    if (ethereumEncoding) {
      throw invalidArgument(
        `${fields.encoding} ${encoding} needs a secp256k1 key, not an Ed25519 one`,
        fields.encoding,
      );
    }
    if (hashFunction !== "HASH_FUNCTION_NOT_APPLICABLE") {
      throw invalidArgument(
        `${fields.hashFunction} must be HASH_FUNCTION_NOT_APPLICABLE for an Ed25519 key: Ed25519 hashes the message itself (RFC 8032)`,
        fields.hashFunction,
      );
    }
    return;
  }
  if (ethereumEncoding && hashFunction !== "HASH_FUNCTION_NO_OP") {
    throw invalidArgument(
      `${fields.hashFunction} must be HASH_FUNCTION_NO_OP with ${encoding}: the encoding defines its own digest`,
      fields.hashFunction,
    );
  }
  if (hashFunction === "HASH_FUNCTION_NOT_APPLICABLE") {
    throw invalidArgument(
      `${fields.hashFunction} HASH_FUNCTION_NOT_APPLICABLE is for Ed25519 keys; a secp256k1 key signs a digest: choose HASH_FUNCTION_NO_OP (a 32-byte payload), HASH_FUNCTION_SHA256 or HASH_FUNCTION_KECCAK256`,
      fields.hashFunction,
    );
  }
}

/**
 * Applies the hash function to a decoded payload and returns what the curve signs. The scheme must have passed
 * {@link assertSigningScheme}; a NO_OP payload that is not 32 bytes gives `INVALID_ARGUMENT` naming `payloadField`.
 */
export function toSigningInput(
  curve: SigningCurve,
  encoded: EncodedPayload,
  hashFunction: HashFunction,
  payloadField: string,
): SigningInput {
  // EIP-712 and EIP-7702 payloads are already what secp256k1 signs (the scheme allows them only with NO_OP).
  if (encoded.kind !== "bytes") return encoded;
  const { bytes } = encoded;
  if (curve === "CURVE_ED25519") return { kind: "message", message: bytes };
  switch (hashFunction) {
    case "HASH_FUNCTION_SHA256":
      return { kind: "digest", digest: sha256(bytes) };
    case "HASH_FUNCTION_KECCAK256":
      return { kind: "digest", digest: keccak_256(bytes) };
    default: // HASH_FUNCTION_NO_OP: the payload is the digest.
      if (bytes.length !== SECP256K1_DIGEST_BYTES) {
        throw invalidArgument(
          `${payloadField} must be a 32-byte digest with HASH_FUNCTION_NO_OP, got ${bytes.length} bytes`,
          payloadField,
        );
      }
      return { kind: "digest", digest: bytes };
  }
}

/** Throws unless `curve` is one raw payloads can be signed with. */
export function assertSigningCurve(curve: unknown): asserts curve is SigningCurve {
  if (!(SIGNING_CURVES as readonly unknown[]).includes(curve)) {
    throw new CustodyError("UNIMPLEMENTED", `raw payloads can be signed with ${SIGNING_CURVES.join(" or ")} keys only`);
  }
}
