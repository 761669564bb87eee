import { decodeBase64Url, decodeUtf8Strict } from "../bytes.js";
import { ownString } from "./json-members.js";
import { malformedStampError } from "./malformed-stamp.js";

/** The three members of an `X-Stamp` that verification needs. */
export interface ApiKeyStamp {
  /** The signer's public key as hex, echoed verbatim from the header (the storage lookup key). */
  publicKey: string;
  /** The signature scheme, not yet checked against the known ones. */
  scheme: string;
  /** The signature as hex: DER for the ECDSA schemes, 64 raw bytes for Ed25519. */
  signature: string;
}

/**
 * Reads an `X-Stamp` header value: base64url (padded or not) of UTF-8 JSON
 * `{"publicKey","scheme","signature"}`. Unknown members are ignored and member order does not matter
 * (ApiKeyStamper and the Go SDK order them differently).
 *
 * @throws CustodyError `UNAUTHENTICATED` with reason `MALFORMED_STAMP` ("malformed activity stamp") when the
 * value is not base64url, not UTF-8 JSON, not an object, or lacks one of the three members as a non-empty string.
 */
export function parseApiKeyStamp(headerValue: string): ApiKeyStamp {
  const bytes = decodeBase64Url(headerValue);
  const text = bytes === undefined ? undefined : decodeUtf8Strict(bytes);
  if (text === undefined) throw malformedStampError();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw malformedStampError(error);
  }
  const publicKey = ownString(json, "publicKey");
  const scheme = ownString(json, "scheme");
  const signature = ownString(json, "signature");
  if (publicKey === undefined || scheme === undefined || signature === undefined) throw malformedStampError();
  return { publicKey, scheme, signature };
}
