import { decodeBase64Url, encodeBase64Url } from "../bytes.js";
import { ownString } from "../stamp/json-members.js";
import { malformedStampError } from "../stamp/malformed-stamp.js";

/** A decoded `X-Stamp-Webauthn`: one WebAuthn assertion over the request body. */
export interface WebauthnStamp {
  /** base64url (no padding) of the raw credential id: the storage lookup key. */
  credentialId: string;
  authenticatorData: Uint8Array;
  clientDataJson: Uint8Array;
  signature: Uint8Array;
}

const MEMBERS = ["authenticatorData", "clientDataJson", "credentialId", "signature"] as const;

/**
 * Reads an `X-Stamp-Webauthn` header value: plain JSON (not base64, unlike `X-Stamp`)
 * `{"authenticatorData","clientDataJson","credentialId","signature"}`, each base64url as webauthn-json emits
 * it (padding tolerated). Unknown members are ignored. The credential id comes back re-encoded without padding,
 * so it compares equal to the id stored at registration.
 *
 * @throws CustodyError `UNAUTHENTICATED` with reason `MALFORMED_STAMP` ("malformed activity stamp").
 */
export function parseWebauthnStamp(headerValue: string): WebauthnStamp {
  let json: unknown;
  try {
    json = JSON.parse(headerValue);
  } catch (error) {
    throw malformedStampError(error);
  }
  const decoded: Partial<Record<(typeof MEMBERS)[number], Uint8Array>> = {};
  for (const member of MEMBERS) {
    const text = ownString(json, member);
    const bytes = text === undefined ? undefined : decodeBase64Url(text);
    if (bytes === undefined || bytes.length === 0) throw malformedStampError();
    decoded[member] = bytes;
  }
  const { authenticatorData, clientDataJson, credentialId, signature } = decoded as Record<
    (typeof MEMBERS)[number],
    Uint8Array
  >;
  return { credentialId: encodeBase64Url(credentialId), authenticatorData, clientDataJson, signature };
}
