/**
 * `X-Stamp-Attested`: a stamp whose key is vouched for by a token instead of being registered. The header is
 * base64url JSON `{publicKeyAttestation, scheme, publicKey, signature}` (`@turnkey/core`'s attested
 * stamper): the signature is the API-key P-256 signature over the body by `publicKey`, and the attestation
 * binds that key to a user:
 *
 * - `STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN`: a verification token of this engine whose `public_key`
 *   is the stamp's key; the user is the one holding the token's contact.
 * - `STAMP_ATTESTED_SCHEME_P256_OIDC`: an OIDC token of a trusted issuer whose `nonce` (or `tknonce`) is
 *   SHA-256 of the key; the user is the one with that OAuth provider.
 *
 * The user is looked up in the organization the request names, then in its sub-organizations (the kits
 * name the parent they were configured with); a token's contact counts only where it is verified (see
 * `model/contacts.ts`). Such a principal may only log in (`stamp_login`).
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { CustodyError, isCustodyError } from "../common/errors.js";
import { bytesToHex, decodeBase64Url, decodeUtf8Strict, utf8ToBytes } from "../crypto/bytes.js";
import { verifyApiKeySignature } from "../crypto/stamp/index.js";
import { userWithVerifiedContact } from "../model/contacts.js";
import { type DataReader, INDEX } from "../model/data.js";
import type { Principal, VerificationClaims } from "../model/principal.js";
import type { OrganizationRecord, UserRecord } from "../model/records.js";
import type { OidcVerifier } from "./oidc.js";
import type { TokenSigner } from "./token-signer.js";

const FIELD = "X-Stamp-Attested";
const VERIFICATION_TOKEN = "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN";
const OIDC = "STAMP_ATTESTED_SCHEME_P256_OIDC";

/** What checking an attested stamp needs. */
export interface AttestedInput {
  body: Uint8Array;
  organizationId: string;
  now: number;
  tokens: TokenSigner;
  oidc: OidcVerifier;
}

interface AttestedStamp {
  publicKeyAttestation: string;
  scheme: string;
  publicKey: string;
  signature: string;
}

function refused(message: string, reason: string): CustodyError {
  return new CustodyError("UNAUTHENTICATED", message, { field: FIELD, reason });
}

function parseAttestedStamp(header: string): AttestedStamp {
  const bytes = decodeBase64Url(header);
  const text = bytes && decodeUtf8Strict(bytes);
  let json: unknown;
  try {
    json = text === undefined ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const members = ["publicKeyAttestation", "scheme", "publicKey", "signature"] as const;
  if (
    json === null ||
    typeof json !== "object" ||
    members.some((member) => typeof (json as Record<string, unknown>)[member] !== "string")
  ) {
    throw refused("malformed attested stamp", "MALFORMED_STAMP");
  }
  return json as AttestedStamp;
}

/** The organization named and its sub-organizations, the named one first. */
async function candidateOrganizations(data: DataReader, organizationId: string): Promise<OrganizationRecord[]> {
  const named = await data.get("organizations", organizationId);
  if (!named) throw refused(`unknown organization ${organizationId}`, "ORGANIZATION_NOT_FOUND");
  return [named, ...(await data.listAll("organizations", named.id))];
}

/** The one user that `match` finds: in the named organization, else in exactly one sub-organization. */
async function singleUser(
  organizations: OrganizationRecord[],
  match: (organization: OrganizationRecord) => Promise<UserRecord | undefined>,
): Promise<UserRecord> {
  const [named, ...subs] = organizations;
  const own = named && (await match(named));
  if (own) return own;
  const found: UserRecord[] = [];
  for (const sub of subs) {
    const user = await match(sub);
    if (user) found.push(user);
  }
  if (found.length > 1) {
    throw refused("more than one sub-organization has a user this token names", "CREDENTIAL_CONFLICT");
  }
  const [user] = found;
  if (!user) throw refused("no user of this organization or its sub-organizations matches the token", "USER_NOT_FOUND");
  return user;
}

/**
 * The user a verification token logs in: the holder of its contact where a spent token verified it, in the
 * named organization, else in the first of its sub-organizations (creation order) where it is verified, the
 * sub-organization the proxy's `account` look-up names. An unverified copy of the contact elsewhere (a
 * stranger's sign-up, a user editing their own record) is neither a match nor a conflict.
 */
async function userOfVerificationToken(
  data: DataReader,
  organizations: OrganizationRecord[],
  claims: VerificationClaims,
): Promise<UserRecord> {
  const named = organizations[0] as OrganizationRecord;
  if (claims.organization_id !== named.id && claims.organization_id !== named.parentOrganizationId) {
    throw refused("the verification token was issued for another organization", "ATTESTATION_MISMATCH");
  }
  const otpType = claims.verification_type === "OTP_TYPE_SMS" ? "OTP_TYPE_SMS" : "OTP_TYPE_EMAIL";
  for (const organization of organizations) {
    const user = await userWithVerifiedContact(data, organization.id, otpType, claims.contact);
    if (user) return user;
  }
  throw refused(
    "no user of this organization or its sub-organizations holds the token's contact verified",
    "USER_NOT_FOUND",
  );
}

/** Authenticates an `X-Stamp-Attested` request. Every refusal is `UNAUTHENTICATED` naming the header. */
export async function authenticateAttested(data: DataReader, header: string, input: AttestedInput): Promise<Principal> {
  const stamp = parseAttestedStamp(header);
  if (stamp.scheme !== VERIFICATION_TOKEN && stamp.scheme !== OIDC) {
    throw refused(`unsupported attested stamp scheme ${stamp.scheme}`, "MALFORMED_STAMP");
  }
  const signed = verifyApiKeySignature({
    publicKey: stamp.publicKey,
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    signature: stamp.signature,
    body: input.body,
  });
  if (!signed) throw refused("could not verify the attested stamp's signature", "SIGNATURE_INVALID");
  const organizations = await candidateOrganizations(data, input.organizationId);
  const publicKey = stamp.publicKey.toLowerCase();
  let user: UserRecord;
  let verification: VerificationClaims | undefined;
  if (stamp.scheme === VERIFICATION_TOKEN) {
    verification = input.tokens.verifyVerification(stamp.publicKeyAttestation, input.now, FIELD);
    if (verification.public_key.toLowerCase() !== publicKey) {
      throw refused("the verification token binds another key than the one that signed", "ATTESTATION_MISMATCH");
    }
    user = await userOfVerificationToken(data, organizations, verification);
  } else {
    let token: Awaited<ReturnType<OidcVerifier["verify"]>>;
    try {
      token = await input.oidc.verify(stamp.publicKeyAttestation, input.now, FIELD);
    } catch (error) {
      throw new CustodyError(
        "UNAUTHENTICATED",
        isCustodyError(error) ? error.message : "invalid OIDC token",
        { field: FIELD, reason: "INVALID_OIDC_TOKEN" },
        { cause: error },
      );
    }
    const nonce = bytesToHex(sha256(utf8ToBytes(stamp.publicKey)));
    if (token.payload.nonce !== nonce && token.payload.tknonce !== nonce) {
      throw refused("the OIDC token's nonce is not SHA-256 of the key that signed", "ATTESTATION_MISMATCH");
    }
    user = await singleUser(organizations, async (organization) => {
      const key = INDEX.oauthProviderByClaims(organization.id, token.issuer, token.audience, token.subject);
      const providerId = await data.lookup("oauthProviderByClaims", key);
      const provider = providerId === undefined ? undefined : await data.get("oauthProviders", providerId);
      return provider && (await data.get("users", provider.userId));
    });
  }
  return {
    userId: user.id,
    organizationId: user.organizationId,
    credential: {
      kind: "attested",
      id: verification?.id ?? null,
      publicKey,
      scheme: stamp.scheme,
      signature: stamp.signature,
      type: "CREDENTIAL_TYPE_LOGIN",
      ...(verification ? { verification } : {}),
    },
  };
}

/**
 * Authenticates an `X-Session` request: a read-only session JWT of this engine, unexpired, whose user still
 * exists. A read-write session is not a bearer credential (its key stamps), so it is refused here.
 */
export async function authenticateSession(
  data: DataReader,
  token: string,
  input: Pick<AttestedInput, "now" | "tokens">,
): Promise<Principal> {
  const claims = input.tokens.verifySession(token, input.now, "X-Session");
  if (claims.session_type !== "SESSION_TYPE_READ_ONLY") {
    throw new CustodyError("UNAUTHENTICATED", "X-Session carries read-only sessions only", {
      field: "X-Session",
      reason: "SESSION_INVALID",
    });
  }
  const user = await data.get("users", claims.user_id);
  if (!user || user.organizationId !== claims.organization_id) {
    throw new CustodyError("UNAUTHENTICATED", "the session's user no longer exists", {
      field: "X-Session",
      reason: "USER_NOT_FOUND",
    });
  }
  return {
    userId: user.id,
    organizationId: user.organizationId,
    credential: {
      kind: "session",
      id: null,
      publicKey: claims.public_key,
      scheme: "SESSION_TYPE_READ_ONLY",
      signature: "",
      type: "CREDENTIAL_TYPE_READ_ONLY_SESSION",
    },
  };
}
