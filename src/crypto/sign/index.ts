/**
 * Raw-payload signing (`sign_raw_payload`, `sign_raw_payloads`): payload decoding, hashing, and secp256k1 /
 * Ed25519 signatures in the wire `{r, s, v}` form. Pure: no storage, clock or I/O.
 *
 * @module
 */
export { parseTypedData } from "./eip712.js";
export type { TypedDataDocument } from "./eip712-digest.js";
export { type Authorization, parseAuthorization } from "./eip7702.js";
export {
  HASH_FUNCTIONS,
  type HashFunction,
  PAYLOAD_ENCODINGS,
  type PayloadEncoding,
  SIGNING_CURVES,
  type SigningCurve,
} from "./enums.js";
export { type PayloadFields, payloadFields } from "./fields.js";
export { MAX_EIP712_HASH_BLOCKS, MAX_JSON_DEPTH, MAX_PAYLOAD_BYTES, MAX_PAYLOADS_PER_REQUEST } from "./limits.js";
export { type EncodedPayload, encodePayload } from "./payload.js";
export {
  type PlannedInput,
  planRawPayload,
  planRawPayloads,
  planRawPayloadsInSlices,
  type SigningKey,
  type SigningParameters,
  type SigningPlan,
  type SignRawPayloadRequest,
  type SignRawPayloadsRequest,
  signPlan,
  signRawPayload,
  signRawPayloads,
  signRawPayloadsInSlices,
} from "./raw-payload.js";
export { assertSigningScheme, type SigningInput, toSigningInput } from "./scheme.js";
export type { RawPayloadSignature } from "./signature.js";
export { type PreparedSigner, prepareSigner, type TaprootKeySigner } from "./signer.js";
