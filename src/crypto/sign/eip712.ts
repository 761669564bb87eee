/**
 * `PAYLOAD_ENCODING_EIP712`: the payload is an EIP-712 typed-data JSON document
 * (`{types, primaryType, domain, message}`, the `eth_signTypedData_v4` shape that @turnkey/viem sends via
 * viem's `serializeTypedData`). The digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))` is
 * computed by `eip712-digest.ts`, which says which rules it follows and why it is not a library call.
 *
 * Compatibility notes:
 * - Members of the message or domain that their type does not declare are not signed, as viem and the hosted
 *   service hash such a document; policies read the declared members only, so they never see an unsigned value.
 * - When `types` has no `EIP712Domain`, the domain type is derived from the domain's members, as viem does.
 *
 * @module
 */
import { invalidArgument } from "../../common/errors.js";
import { type TypedDataDocument, typedDataDigest } from "./eip712-digest.js";
import { isJsonObject, parsePayloadJson } from "./json.js";
import { signSecp256k1Recovered } from "./secp256k1-ecdsa.js";
import { fromRecoveredSecp256k1, type RawPayloadSignature } from "./signature.js";

const WHAT = "an EIP-712 typed-data document {types, primaryType, domain, message}";

/** Parses an EIP-712 payload and checks its outer shape, or throws `INVALID_ARGUMENT` naming `field`. */
export function parseTypedData(text: string, field: string): TypedDataDocument {
  const doc = parsePayloadJson(text, field, WHAT);
  if (!isJsonObject(doc)) throw invalidArgument(`${field} must be ${WHAT}`, field);
  const { types, primaryType, domain } = doc;
  if (!isJsonObject(types)) throw invalidArgument(`${field} must have an object "types"`, field);
  if (typeof primaryType !== "string" || !Object.hasOwn(types, primaryType)) {
    throw invalidArgument(`${field} must have a "primaryType" that names one of its "types"`, field);
  }
  if (!isJsonObject(domain)) throw invalidArgument(`${field} must have an object "domain"`, field);
  // viem's serializeTypedData drops `message` when the primary type is the domain itself: the digest then
  // covers the domain separator alone, and the message is an (unused) empty object.
  const message = doc.message === undefined && primaryType === "EIP712Domain" ? {} : doc.message;
  if (!isJsonObject(message)) throw invalidArgument(`${field} must have an object "message"`, field);
  return { types, primaryType, domain, message };
}

/**
 * Hashes `typedData` per EIP-712 and signs the digest with a secp256k1 key: deterministic (RFC 6979), low-S,
 * with the recovery id. A document that cannot be hashed gives `INVALID_ARGUMENT` naming `field`. The key
 * must already be a valid secp256k1 scalar, so every failure here is the document's.
 */
export function signTypedData(
  typedData: TypedDataDocument,
  privateKey: Uint8Array,
  field: string,
): RawPayloadSignature {
  const digest = typedDataDigest(typedData, field);
  return fromRecoveredSecp256k1(signSecp256k1Recovered(digest, privateKey));
}
