/**
 * WebAuthn for passkey authenticators: verifying registrations (attestations) and `X-Stamp-Webauthn`
 * assertions over a request body. Pure: the caller supplies the relying party, the allowed origins and the
 * stored credential.
 *
 * @module
 */
export { COSE_ALGORITHMS, type CoseAlgorithm, type CosePublicKey, importCosePublicKey } from "./cose-key.js";
export {
  type AttestationType,
  parseRegistration,
  type RegistrationInput,
  type WebauthnAttestation,
  type WebauthnRegistration,
} from "./parse-registration.js";
export { parseWebauthnStamp, type WebauthnStamp } from "./parse-webauthn-stamp.js";
export { WebauthnRefusal, type WebauthnRefusalReason } from "./refusal.js";
export { verifyCoseSignature } from "./verify-cose-signature.js";
export {
  verifyWebauthnAssertion,
  type WebauthnAssertionInput,
  type WebauthnAssertionResult,
} from "./verify-webauthn-assertion.js";
