/**
 * HPKE bundles in the formats Turnkey's official clients read and write (docs/spec/wire-protocol.md §3): credential
 * bundles, enclave-signed export bundles, and the import target handshake. Pure: no storage, no clock; randomness
 * is injectable.
 *
 * @module
 */
export { type EncryptCredentialBundleInput, encryptCredentialBundle } from "./credential-bundle.js";
export {
  ENCLAVE_BUNDLE_VERSION,
  type EnclaveBundle,
  enclaveQuorumPublicKey,
  type SignEnclaveBundleInput,
  signEnclaveBundle,
} from "./enclave-bundle.js";
export { type EncryptExportBundleInput, encryptExportBundle } from "./export-bundle.js";
export {
  type CreateImportTargetInput,
  createImportTarget,
  type DecryptImportBundleInput,
  decryptImportBundle,
  type ImportTarget,
} from "./import-bundle.js";
export { openQuorumEnvelope, QuorumEnvelopeError } from "./quorum-envelope.js";
export { type RandomBytes, TURNKEY_HPKE_INFO } from "./suite.js";
