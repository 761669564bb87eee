/**
 * What OTP verification tokens prove and how they are spent: a token names a contact (email or phone) of
 * the organization that sent the code and the client key bound at verification; each token can sign up
 * once and log in once (`USAGE_TYPE_SIGNUP`, `USAGE_TYPE_LOGIN`), and spending it marks the contact as
 * verified for `list_verified_suborgs`. Client signatures (`v1ClientSignature`) prove that the holder of
 * the bound key asked for this very use.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { parseHex, utf8ToBytes } from "../crypto/bytes.js";
import { sameContact, userHoldingContact, verifiedContactId } from "../model/contacts.js";
import type { DataReader, DataWriter } from "../model/data.js";
import type { VerificationClaims } from "../model/principal.js";
import type { OrganizationRecord, OtpType, UserRecord } from "../model/records.js";

/** The two uses a verification token allows, once each. */
export type TokenUsage = "USAGE_TYPE_SIGNUP" | "USAGE_TYPE_LOGIN";

/** `v1ClientSignature`. */
export const clientSignature = v.object({
  publicKey: v.pipe(v.string(), v.maxLength(200)),
  scheme: v.picklist(["CLIENT_SIGNATURE_SCHEME_API_P256"]),
  message: v.pipe(v.string(), v.maxLength(65_536)),
  signature: v.pipe(v.string(), v.maxLength(200)),
});

export type ClientSignature = v.InferOutput<typeof clientSignature>;

/** A verification token as parameters carry it. */
export const verificationTokenParam = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(8192));

/**
 * The claims of a verification token this engine issued, unexpired, for an OTP sent by `organization` or
 * its parent (a parent's auth proxy verifies contacts for its sub-organizations).
 */
export function verifyTokenFor(
  context: Pick<ActivityContext, "services" | "now">,
  organization: OrganizationRecord,
  token: string,
  field: string,
): VerificationClaims {
  const claims = context.services.tokens.verifyVerification(token, context.now, field);
  if (claims.organization_id !== organization.id && claims.organization_id !== organization.parentOrganizationId) {
    throw new CustodyError("PERMISSION_DENIED", "the verification token was issued for another organization", {
      field,
      reason: "VERIFICATION_TOKEN_ORGANIZATION_MISMATCH",
    });
  }
  return claims;
}

/** The contact kind a token verified. */
export function otpTypeOf(claims: VerificationClaims): OtpType {
  return claims.verification_type === "OTP_TYPE_SMS" ? "OTP_TYPE_SMS" : "OTP_TYPE_EMAIL";
}

/** The first user of `organizationId` whose email (or phone) is the token's contact, verified or not. */
export async function userWithContact(
  data: DataReader,
  organizationId: string,
  claims: VerificationClaims,
): Promise<UserRecord | undefined> {
  return userHoldingContact(data, organizationId, otpTypeOf(claims), claims.contact);
}

/**
 * Spends `claims` for `usage` in `organizationId`: refused if the token was already used that way; else
 * recorded, with the contact marked verified in that organization.
 */
export async function consumeToken(
  data: DataWriter,
  claims: VerificationClaims,
  usage: TokenUsage,
  organizationId: string,
  now: number,
  field: string,
): Promise<void> {
  const id = `${claims.id}:${usage}`;
  if ((await data.get("verificationTokenUses", id)) !== undefined) {
    throw new CustodyError("FAILED_PRECONDITION", "this verification token was already used", {
      field,
      reason: "VERIFICATION_TOKEN_USED",
    });
  }
  await data.put("verificationTokenUses", {
    id,
    tokenId: claims.id,
    usage,
    tokenExpiresAtMs: Number(claims.exp),
    createdAtMs: now,
  });
  const otpType = otpTypeOf(claims);
  await data.put("verifiedContacts", {
    id: verifiedContactId(organizationId, otpType, claims.contact),
    organizationId,
    otpType,
    contact: claims.contact,
    createdAtMs: now,
  });
}

/**
 * Checks a client signature: by the key the token bound, with the P-256 scheme, over `message` whose JSON
 * `accept` approves (its `tokenId` and usage), DER or raw r‖s hex over SHA-256 of the message text.
 */
export function assertClientSignature(
  claims: VerificationClaims,
  signature: ClientSignature | undefined,
  accept: (message: Record<string, unknown>) => boolean,
  field: string,
): void {
  if (signature === undefined) {
    throw invalidArgument("a client signature by the key bound to the verification token is required", field);
  }
  if (claims.public_key === "" || signature.publicKey.toLowerCase() !== claims.public_key.toLowerCase()) {
    throw new CustodyError("UNAUTHENTICATED", "the client signature is not by the key the verification token binds", {
      field: `${field}.publicKey`,
      reason: "CLIENT_SIGNATURE_INVALID",
    });
  }
  let message: unknown;
  try {
    message = JSON.parse(signature.message);
  } catch {
    throw invalidArgument("the client signature's message is not JSON", `${field}.message`);
  }
  if (
    message === null ||
    typeof message !== "object" ||
    (message as Record<string, unknown>).tokenId !== claims.id ||
    !accept(message as Record<string, unknown>)
  ) {
    throw new CustodyError(
      "UNAUTHENTICATED",
      "the client signature's message does not authorize this use of the token",
      {
        field: `${field}.message`,
        reason: "CLIENT_SIGNATURE_INVALID",
      },
    );
  }
  const signatureBytes = parseHex(signature.signature, `${field}.signature`);
  const publicKey = parseHex(signature.publicKey, `${field}.publicKey`);
  const digest = sha256(utf8ToBytes(signature.message));
  let valid = false;
  try {
    const format = signatureBytes.length === 64 ? "compact" : "der";
    valid = p256.verify(signatureBytes, digest, publicKey, { prehash: false, lowS: false, format });
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new CustodyError("UNAUTHENTICATED", "the client signature does not verify", {
      field: `${field}.signature`,
      reason: "CLIENT_SIGNATURE_INVALID",
    });
  }
}

/** The contacts a sign-up names for its root users, in the shape a signup client signature lists them. */
export interface SignupContacts {
  emails: string[];
  phoneNumbers: string[];
}

/**
 * Checks a sign-up's verification token before its organization is created: issued for (a parent of) the
 * organization, for a contact one of the root users holds, and, when the token bound a key, with a client
 * signature by that key over this sign-up (`USAGE_TYPE_SIGNUP`). Returns the claims to spend once the
 * organization exists.
 */
export function verifySignupToken(
  context: Pick<ActivityContext, "services" | "now">,
  organization: OrganizationRecord,
  token: string,
  signature: ClientSignature | undefined,
  contacts: SignupContacts,
): VerificationClaims {
  const field = "parameters.verificationToken";
  const claims = verifyTokenFor(context, organization, token, field);
  const otpType = otpTypeOf(claims);
  const held = otpType === "OTP_TYPE_SMS" ? contacts.phoneNumbers : contacts.emails;
  if (!held.some((contact) => sameContact(otpType, contact, claims.contact))) {
    throw new CustodyError("PERMISSION_DENIED", "the verification token verified a contact no root user holds", {
      field,
      reason: "VERIFICATION_TOKEN_CONTACT_MISMATCH",
    });
  }
  if (signature !== undefined || claims.public_key !== "") {
    assertClientSignature(
      claims,
      signature,
      (message) => message.type === "USAGE_TYPE_SIGNUP",
      "parameters.clientSignature",
    );
  }
  return claims;
}
