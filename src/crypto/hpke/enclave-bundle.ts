/**
 * Enclave-signed JSON bundles, the envelope Turnkey's enclaves put around export bundles and import
 * targets. `@turnkey/crypto` checks `enclaveQuorumPublic` against a pinned key (or the caller's
 * `dangerouslyOverrideSignerPublicKey`) and the ECDSA signature over the `data` bytes before trusting them.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, utf8ToBytes } from "../bytes.js";
import { assertP256PrivateKey, p256PublicKeyHexOf } from "./p256-keys.js";

/** The only envelope version Turnkey's clients know. */
export const ENCLAVE_BUNDLE_VERSION = "v1.0.0";

const SIGNER_PRIVATE_KEY_FIELD = "signerPrivateKey";

/** The parsed form of a signed enclave bundle. */
export interface EnclaveBundle {
  version: typeof ENCLAVE_BUNDLE_VERSION;
  /** Hex of the UTF-8 JSON that was signed. */
  data: string;
  /** DER hex of ECDSA-P256-SHA256 over the `data` bytes. */
  dataSignature: string;
  /** The signer's 65-byte uncompressed public key, lowercase hex. */
  enclaveQuorumPublic: string;
}

/** Input of {@link signEnclaveBundle}. */
export interface SignEnclaveBundleInput {
  /** The payload; serialized with `JSON.stringify`, so member order is kept as given. */
  data: Readonly<Record<string, unknown>>;
  /** The engine's 32-byte P-256 bundle-signing key. */
  signerPrivateKey: Uint8Array;
}

/**
 * The signer public key as Turnkey clients expect it in `dangerouslyOverrideSignerPublicKey`: lowercase hex
 * of the 65-byte uncompressed point (the clients compare it to `enclaveQuorumPublic` as a string).
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `signerPrivateKey` when it is not a P-256 private key.
 */
export function enclaveQuorumPublicKey(signerPrivateKey: Uint8Array): string {
  assertP256PrivateKey(signerPrivateKey, SIGNER_PRIVATE_KEY_FIELD);
  return p256PublicKeyHexOf(signerPrivateKey);
}

/**
 * Signs `data` into the enclave bundle JSON
 * `{"version":"v1.0.0","data":<hex JSON>,"dataSignature":<DER hex>,"enclaveQuorumPublic":<hex>}`.
 * Signatures are RFC 6979 deterministic, so the same inputs give the same bundle.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `signerPrivateKey` when it is not a P-256 private key.
 */
export function signEnclaveBundle(input: SignEnclaveBundleInput): string {
  const enclaveQuorumPublic = enclaveQuorumPublicKey(input.signerPrivateKey);
  const dataBytes = utf8ToBytes(JSON.stringify(input.data));
  // noble hashes the message with SHA-256 before signing (its default `prehash`), matching the clients'
  // `p256.verify(sig, sha256(data), key)`.
  const signature = p256.sign(dataBytes, input.signerPrivateKey, { format: "der" });
  const bundle: EnclaveBundle = {
    version: ENCLAVE_BUNDLE_VERSION,
    data: bytesToHex(dataBytes),
    dataSignature: bytesToHex(signature),
    enclaveQuorumPublic,
  };
  return JSON.stringify(bundle);
}
