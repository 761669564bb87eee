/**
 * Request authentication: from a stamp header and the exact body bytes to a {@link Principal}. The stamp
 * crypto is pure (`crypto/stamp`, `crypto/webauthn`); this module adds the credential look-up: in the
 * organization the request names, then its parent, then (for look-ups through a parent, as `whoami` does)
 * its sub-organizations.
 *
 * @module
 */

import { CustodyError } from "../common/errors.js";
import { decodeBase64Url, encodeBase64Url } from "../crypto/bytes.js";
import {
  parseApiKeyStamp,
  schemeMatchesCurve,
  verifyApiKeySignature,
  verifyApiKeySignatureOffThread,
} from "../crypto/stamp/index.js";
import { parseWebauthnStamp, verifyWebauthnAssertion, type WebauthnRefusalReason } from "../crypto/webauthn/index.js";
import { credentialScope, type DataReader, type DataWriter, invariant } from "../model/data.js";
import type { Principal } from "../model/principal.js";
import type { CredentialLocationRecord } from "../model/records.js";
import { authenticateAttested, authenticateSession } from "./attested.js";
import { isApiKeyExpired } from "./credential-state.js";
import type { OidcVerifier } from "./oidc.js";
import type { WebauthnRelyingParty } from "./relying-party.js";
import type { TokenSigner } from "./token-signer.js";

/** The stamp headers of a request, each present at most once. */
export interface RequestStamps {
  /** `X-Stamp` (API key). */
  apiKey?: string;
  /** `X-Stamp-Webauthn` (passkey). */
  webauthn?: string;
  /** `X-Stamp-Attested` (a key vouched for by a verification or OIDC token). */
  attested?: string;
  /** `X-Session` (a read-only session JWT; used only when no stamp is present). */
  session?: string;
}

export interface AuthenticationInput {
  stamps: RequestStamps;
  /** The raw body bytes, exactly as received. */
  body: Uint8Array;
  /** The `organizationId` the body names. */
  organizationId: string;
  now: number;
  /** Where passkeys are scoped: the relying-party id and each organization's allowed origins. */
  relyingParty: WebauthnRelyingParty;
  /** Checks verification tokens and session JWTs. */
  tokens: TokenSigner;
  /** Checks OIDC tokens of attested stamps. */
  oidc: OidcVerifier;
}

/**
 * A passkey's new sign counter, to be recorded in a transaction before the request proceeds (the
 * authentication itself runs in a read view).
 */
export interface SignCountUpdate {
  authenticatorId: string;
  signCount: number;
}

/**
 * A request whose credential was found in the read view: who it is once {@link Authentication.confirm} resolves,
 * and the passkey counter to record when a passkey signed it.
 */
export interface Authentication {
  /**
   * Runs the checks left for after the read view closes and resolves with the principal, or rejects as the
   * refusal. An API key's signature is checked here, on libuv's thread pool, so the read (and the commits
   * waiting for readers to leave) never waits for OpenSSL. Only what `confirm` resolves with is authenticated.
   */
  confirm: () => Promise<Principal>;
  signCountUpdate?: SignCountUpdate;
  /**
   * Whose credential the stamp names, known before `confirm` (so what depends on it, such as the IP allow-list in
   * effect, is read in the same read view); nothing may be concluded from it until `confirm` resolves.
   */
  holder: CredentialHolder;
}

/** The organization holding a credential, and the API key's public key when the credential is one. */
export interface CredentialHolder {
  organizationId: string;
  apiKeyPublicKey: string | null;
}

/** The {@link Authentication} of a principal every check has already passed. */
function confirmed(principal: Principal): () => Promise<Principal> {
  return () => Promise.resolve(principal);
}

/** An {@link Authentication} settled in the read: an attested stamp's or a session's, which name no API key. */
function settled(principal: Principal): Authentication {
  return { holder: { organizationId: principal.organizationId, apiKeyPublicKey: null }, confirm: confirmed(principal) };
}

const CREDENTIAL_NOT_FOUND_MESSAGE = "credential ID could not be found in organization or its parent organization";
const SIGN_COUNT_MESSAGE = "the authenticator's sign counter did not increase: the passkey may have been cloned";

function unauthenticated(message: string, reason: string): CustodyError {
  return new CustodyError("UNAUTHENTICATED", message, { reason });
}

/**
 * Finds the record of a credential that applies to a request naming `organizationId`: the named
 * organization's own, else its parent's, else one of its sub-organizations'. Registrations elsewhere never
 * change the answer for the organization that holds the credential. When several sub-organizations hold it
 * (one registered a sibling's public key or credential id), the first registration is the owner's: a later
 * one could only have copied it, so it neither takes the credential over nor locks its owner out (the hosted
 * service answers `CREDENTIAL_CONFLICT` there, which lets any sibling deny its neighbours the log-in
 * through the parent).
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
  let first: { location: CredentialLocationRecord; createdAtMs: number; id: string } | undefined;
  for (const location of locations) {
    const organization = await data.get("organizations", location.organizationId);
    if (organization?.parentOrganizationId !== named.id) continue;
    const registered = await registrationOf(data, location);
    if (!registered) continue;
    if (
      first === undefined ||
      registered.createdAtMs < first.createdAtMs ||
      (registered.createdAtMs === first.createdAtMs && registered.id < first.id)
    ) {
      first = { location, ...registered };
    }
  }
  return first?.location;
}

/** When the credential a location names was registered (ids are time-ordered, so they break ties). */
async function registrationOf(
  data: DataReader,
  location: CredentialLocationRecord,
): Promise<{ createdAtMs: number; id: string } | undefined> {
  const record =
    location.kind === "apiKey"
      ? await data.get("apiKeys", location.credentialRecordId)
      : await data.get("authenticators", location.credentialRecordId);
  return record && { createdAtMs: record.createdAtMs, id: record.id };
}

/**
 * The refusal of a key the named organization does not know. When the key is registered elsewhere and the
 * stamp is valid (the caller holds the key, so may learn where it lives), it says so and names
 * `organizationId` as the field at fault: the usual cause is a wrong organization id, not a wrong key.
 * The code and reason stay those of the hosted service.
 */
async function apiKeyNotInOrganization(
  data: DataReader,
  scope: string,
  stamp: ReturnType<typeof parseApiKeyStamp>,
  input: AuthenticationInput,
): Promise<CustodyError> {
  const elsewhere = await data.list("credentialLocations", scope, { limit: 5 });
  if (elsewhere.length === 0 || !verifyApiKeySignature({ ...stamp, body: input.body })) {
    return unauthenticated(
      "could not find public key in organization or its parent organization",
      "PUBLIC_KEY_NOT_FOUND",
    );
  }
  const owners = elsewhere.map((location) => location.organizationId).join(", ");
  return new CustodyError(
    "UNAUTHENTICATED",
    `could not find public key in organization or its parent organization: organization ${input.organizationId} is unknown to this credential, whose API key belongs to organization ${owners}; check organizationId`,
    { reason: "PUBLIC_KEY_NOT_FOUND", field: "organizationId" },
  );
}

/**
 * Finds the API key and checks its stamp's scheme in the read view; its signature and then its expiry are
 * checked by `confirm`, in that order, so the refusals come in the same order as when all ran in the view.
 */
async function authenticateApiKey(
  data: DataReader,
  header: string,
  input: AuthenticationInput,
): Promise<Authentication> {
  const stamp = parseApiKeyStamp(header);
  const scope = credentialScope("apiKey", stamp.publicKey);
  const location = await locate(data, scope, input.organizationId);
  const key = location && (await data.get("apiKeys", location.credentialRecordId));
  if (!key) throw await apiKeyNotInOrganization(data, scope, stamp, input);
  if (!schemeMatchesCurve(stamp.scheme, key.curveType)) {
    throw unauthenticated(
      `stamp scheme ${stamp.scheme} does not match the key's curve ${key.curveType}`,
      "SIGNATURE_SCHEME_MISMATCH",
    );
  }
  const principal: Principal = {
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
  const signed = { scheme: stamp.scheme, publicKey: stamp.publicKey, signature: stamp.signature, body: input.body };
  return {
    holder: { organizationId: key.organizationId, apiKeyPublicKey: key.publicKey },
    confirm: async () => {
      if (!(await verifyApiKeySignatureOffThread(signed))) {
        throw unauthenticated("could not verify api key signature", "SIGNATURE_INVALID");
      }
      if (isApiKeyExpired(key, input.now)) throw unauthenticated("expired api key", "API_KEY_EXPIRED");
      return principal;
    },
  };
}

/** What each assertion refusal tells the caller; the reason code says the rest. */
const ASSERTION_REFUSALS: Partial<Record<WebauthnRefusalReason, string>> = {
  SIGNATURE_INVALID: "could not verify WebAuthN signature",
  SIGN_COUNT_REGRESSION: SIGN_COUNT_MESSAGE,
  CHALLENGE_MISMATCH: "the WebAuthn challenge is not the SHA-256 of this request body",
  ORIGIN_NOT_ALLOWED: "the WebAuthn assertion comes from an origin this organization does not allow",
  RP_ID_MISMATCH: "the WebAuthn assertion is scoped to another relying party",
};

async function authenticateWebauthn(
  data: DataReader,
  header: string,
  input: AuthenticationInput,
): Promise<Authentication> {
  const stamp = parseWebauthnStamp(header);
  const location = await locate(data, credentialScope("authenticator", stamp.credentialId), input.organizationId);
  const authenticator = location && (await data.get("authenticators", location.credentialRecordId));
  if (!authenticator) throw unauthenticated(CREDENTIAL_NOT_FOUND_MESSAGE, "CREDENTIAL_NOT_FOUND");
  const organization = await data.get("organizations", authenticator.organizationId);
  const publicKeyCose = decodeBase64Url(authenticator.publicKeyCose);
  invariant(publicKeyCose, `authenticator ${authenticator.id} holds a malformed public key`);
  const result = verifyWebauthnAssertion({
    stamp,
    body: input.body,
    publicKeyCose,
    rpId: input.relyingParty.rpId,
    origins: await input.relyingParty.originsFor(data, organization),
    previousSignCount: authenticator.signCount,
  });
  if (!result.ok) {
    throw unauthenticated(
      ASSERTION_REFUSALS[result.reason] ?? `WebAuthn assertion refused (${result.reason})`,
      result.reason,
    );
  }
  return {
    holder: { organizationId: authenticator.organizationId, apiKeyPublicKey: null },
    confirm: confirmed({
      userId: authenticator.userId,
      organizationId: authenticator.organizationId,
      credential: {
        kind: "authenticator",
        id: authenticator.id,
        publicKey: authenticator.credentialId,
        scheme: "SIGNATURE_SCHEME_TK_WEBAUTHN",
        signature: encodeBase64Url(stamp.signature),
        type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
      },
    }),
    ...(result.signCount === authenticator.signCount
      ? {}
      : { signCountUpdate: { authenticatorId: authenticator.id, signCount: result.signCount } }),
  };
}

/**
 * Records a passkey's new sign counter. Run in the transaction that follows authentication: if another
 * request with the same passkey was accepted in between, its counter must still be behind this one, else
 * the two assertions could be one replayed or a clone's, and this request is refused.
 */
export async function recordSignCount(data: DataWriter, update: SignCountUpdate): Promise<void> {
  const authenticator = await data.get("authenticators", update.authenticatorId);
  if (!authenticator) throw unauthenticated(CREDENTIAL_NOT_FOUND_MESSAGE, "CREDENTIAL_NOT_FOUND");
  if (update.signCount <= authenticator.signCount) {
    throw unauthenticated(SIGN_COUNT_MESSAGE, "SIGN_COUNT_REGRESSION");
  }
  await data.put("authenticators", { ...authenticator, signCount: update.signCount });
}

/** Authenticates a request by its stamp. Every refusal is `UNAUTHENTICATED` with a Turnkey reason. */
export async function authenticate(data: DataReader, input: AuthenticationInput): Promise<Authentication> {
  const { apiKey, webauthn, attested, session } = input.stamps;
  if ([apiKey, webauthn, attested].filter((stamp) => stamp !== undefined).length > 1) {
    throw unauthenticated(
      "a request carries one stamp: X-Stamp, X-Stamp-Webauthn or X-Stamp-Attested",
      "MALFORMED_STAMP",
    );
  }
  if (apiKey !== undefined) return authenticateApiKey(data, apiKey, input);
  if (webauthn !== undefined) return authenticateWebauthn(data, webauthn, input);
  if (attested !== undefined) return settled(await authenticateAttested(data, attested, input));
  // sdk-browser sends X-Session beside a stamp when it has both; the stamp then speaks for the request.
  if (session !== undefined) return settled(await authenticateSession(data, session, input));
  throw unauthenticated(
    "cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)",
    "MISSING_STAMP",
  );
}
