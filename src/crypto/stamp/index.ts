/**
 * `X-Stamp` request stamps: reading the header, checking a signature over the exact body bytes, and
 * checking API public keys before they are registered. Pure: the HTTP adapter supplies the header and body,
 * and looks the key up itself.
 *
 * @module
 */
export { malformedStampError } from "./malformed-stamp.js";
export { type ApiKeyStamp, parseApiKeyStamp } from "./parse-api-key-stamp.js";
export {
  API_KEY_CURVES,
  API_KEY_STAMP_SCHEMES,
  type ApiKeyCurve,
  type ApiKeyStampScheme,
  isApiKeyStampScheme,
  schemeMatchesCurve,
} from "./schemes.js";
export { validateApiPublicKey } from "./validate-api-public-key.js";
export {
  type ApiKeySignatureInput,
  verifyApiKeySignature,
  verifyApiKeySignatureOffThread,
} from "./verify-api-key-signature.js";
