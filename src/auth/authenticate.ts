/**
 * Request authentication: from a stamp header and the exact body bytes to a {@link Principal}. The stamp
 * crypto is pure (`crypto/stamp`, `crypto/webauthn`); this module adds the credential look-up: in the
 * organization the request names, then its parent, then (for look-ups through a parent, as `whoami` does)
 * its sub-organizations.
 *
 * @module
 */
import { parseApiKeyStamp, schemeMatchesCurve, verifyApiKeySignature } from "../crypto/stamp/index.js";
import { credentialScope, type DataReader } from "../engine/data.js";
import type { Principal } from "../engine/principal.js";
import type { CredentialLocationRecord } from "../engine/records.js";
import { CustodyError } from "../errors.js";

/** The stamp headers of a request, each present at most once. */
export interface RequestStamps {
  /** `X-Stamp` (API key). */
  apiKey?: string;
  /** `X-Stamp-Webauthn` (passkey). */
  webauthn?: string;
}

export interface AuthenticationInput {
  stamps: RequestStamps;
  /** The raw body bytes, exactly as received. */
  body: Uint8Array;
  /** The `organizationId` the body names. */
  organizationId: string;
  now: number;
}

function unauthenticated(message: string, reason: string): CustodyError {
  return new CustodyError("UNAUTHENTICATED", message, { reason });
}

/**
 * Finds the record of a credential that applies to a request naming `organizationId`: the named
 * organization's own, else its parent's, else one of its sub-organizations' (refused when the credential
 * sits in several, since the request would not say which).
 */
async function locate(
  data: DataReader,
  scope: string,
  organizationId: string,
): Promise<CredentialLocationRecord | undefined> {
  const named = await data.get("organizations", organizationId);
  if (!named) return undefined;
  const locations = await data.list("credentialLocations", scope, { limit: 1000 });
  const own = locations.find((location) => location.organizationId === named.id);
  if (own) return own;
  const parent = locations.find((location) => location.organizationId === named.parentOrganizationId);
  if (parent) return parent;
  const inChildren: CredentialLocationRecord[] = [];
  for (const location of locations) {
    const organization = await data.get("organizations", location.organizationId);
    if (organization?.parentOrganizationId === named.id) inChildren.push(location);
  }
  if (inChildren.length > 1) {
    throw unauthenticated("more than one sub-organization is associated with this credential", "CREDENTIAL_CONFLICT");
  }
  return inChildren[0];
}

async function authenticateApiKey(data: DataReader, header: string, input: AuthenticationInput): Promise<Principal> {
  const stamp = parseApiKeyStamp(header);
  const location = await locate(data, credentialScope("apiKey", stamp.publicKey), input.organizationId);
  const key = location && (await data.get("apiKeys", location.credentialRecordId));
  if (!key) {
    throw unauthenticated(
      "could not find public key in organization or its parent organization",
      "PUBLIC_KEY_NOT_FOUND",
    );
  }
  if (!schemeMatchesCurve(stamp.scheme, key.curveType)) {
    throw unauthenticated(
      `stamp scheme ${stamp.scheme} does not match the key's curve ${key.curveType}`,
      "SIGNATURE_SCHEME_MISMATCH",
    );
  }
  if (!verifyApiKeySignature({ ...stamp, body: input.body })) {
    throw unauthenticated("could not verify api key signature", "SIGNATURE_INVALID");
  }
  if (key.expirationSeconds !== null && input.now >= key.createdAtMs + Number(key.expirationSeconds) * 1000) {
    throw unauthenticated("expired api key", "API_KEY_EXPIRED");
  }
  return {
    userId: key.userId,
    organizationId: key.organizationId,
    credential: {
      kind: "apiKey",
      id: key.id,
      publicKey: key.publicKey,
      scheme: stamp.scheme,
      signature: stamp.signature,
      type: key.credentialType,
    },
  };
}

/** Authenticates a request by its stamp. Every refusal is `UNAUTHENTICATED` with a Turnkey reason. */
export async function authenticate(data: DataReader, input: AuthenticationInput): Promise<Principal> {
  const { apiKey, webauthn } = input.stamps;
  if (apiKey !== undefined && webauthn !== undefined) {
    throw unauthenticated("a request carries one stamp: X-Stamp or X-Stamp-Webauthn, not both", "MALFORMED_STAMP");
  }
  if (apiKey !== undefined) return authenticateApiKey(data, apiKey, input);
  if (webauthn !== undefined) {
    throw unauthenticated("passkey stamps need a registered authenticator", "CREDENTIAL_NOT_FOUND");
  }
  throw unauthenticated(
    "cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)",
    "MISSING_STAMP",
  );
}
