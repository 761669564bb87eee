/**
 * The proxy's account endpoints: `account` (which sub-organization is this user's), `signup` (a new
 * sub-organization) and `oauth_login`. Strangers call them, so none answers which organization holds a
 * contact to anyone who has not proved that contact, and a sign-up stores no contact its token did not prove.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { CustodyEngine } from "../engine/engine.js";
import { parseWith } from "../engine/pipeline/validate.js";
import { sameContact } from "../model/contacts.js";
import { type AuthProxy, activityResult, type Body, contactOfClaims, optionalStr, peekClaims, str } from "./context.js";
import type { RequestContact } from "./options.js";

const clientSignature = v.optional(v.record(v.string(), v.unknown()));

const oauthLoginRequest = v.object({
  oidcToken: str,
  publicKey: str,
  invalidateExisting: v.optional(v.boolean()),
  organizationId: optionalStr,
});

export async function oauthLogin(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(oauthLoginRequest, body, "");
  const organizationId =
    request.organizationId ??
    (
      await proxy.acting.getSubOrgIds({
        organizationId: proxy.organizationId,
        filterType: "OIDC_TOKEN",
        filterValue: request.oidcToken,
      })
    ).organizationIds[0];
  if (organizationId === undefined) {
    throw new CustodyError("NOT_FOUND", "no account has an OAuth provider for this token", {
      field: "oidcToken",
      reason: "ACCOUNT_NOT_FOUND",
    });
  }
  const response = await proxy.acting.oauthLogin({
    organizationId,
    parameters: {
      oidcToken: request.oidcToken,
      publicKey: request.publicKey,
      ...(request.invalidateExisting === undefined ? {} : { invalidateExisting: request.invalidateExisting }),
      expirationSeconds: proxy.options.sessionExpirationSeconds ?? "900",
    },
  });
  return { session: activityResult(response, "oauthLoginResult").session };
}

const accountRequest = v.object({
  filterType: str,
  filterValue: str,
  verificationToken: optionalStr,
  oidcToken: optionalStr,
});

const CONTACT_FILTERS: Readonly<Record<string, RequestContact["otpType"]>> = {
  EMAIL: "OTP_TYPE_EMAIL",
  PHONE_NUMBER: "OTP_TYPE_SMS",
};
/** Filters whose value proves itself (a token) or names no person (a key, a passkey's credential id). */
const PROOF_FILTERS = ["PUBLIC_KEY", "CREDENTIAL_ID", "OIDC_TOKEN"] as const;

/** The contact an `account` look-up names, for the per-contact limit and the abuse check. */
export function accountContact(body: Body): RequestContact | undefined {
  const otpType = typeof body.filterType === "string" ? CONTACT_FILTERS[body.filterType] : undefined;
  return otpType === undefined || typeof body.filterValue !== "string"
    ? undefined
    : { otpType, value: body.filterValue };
}

export async function account(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(accountRequest, body, "");
  const contactType = CONTACT_FILTERS[request.filterType];
  let organizationId: string | undefined;
  if (contactType !== undefined) {
    // Contacts are personal data: only someone who proved the contact may learn which account holds it.
    if (request.verificationToken === undefined) {
      throw invalidArgument("looking an account up by email or phone needs a verificationToken", "verificationToken");
    }
    const claims = await proxy.engine.verifyVerificationToken(request.verificationToken);
    if (claims.verification_type !== contactType || !sameContact(contactType, claims.contact, request.filterValue)) {
      throw new CustodyError("PERMISSION_DENIED", "the verification token is for another contact", {
        field: "verificationToken",
        reason: "VERIFICATION_TOKEN_CONTACT_MISMATCH",
      });
    }
    [organizationId] = await proxy.verifiedSubOrganizations({ otpType: contactType, value: request.filterValue });
  } else if ((PROOF_FILTERS as readonly string[]).includes(request.filterType)) {
    const { organizationIds } = await proxy.acting.getSubOrgIds({
      organizationId: proxy.organizationId,
      filterType: request.filterType as (typeof PROOF_FILTERS)[number],
      filterValue: request.filterValue,
    });
    organizationId = organizationIds[0];
  } else {
    // NAME and USERNAME carry no proof, and the kits name users and their sub-organizations after their email
    // address: answering them would tell anyone which address has an account.
    throw invalidArgument(
      `filterType must be one of EMAIL, PHONE_NUMBER (with a verificationToken), ${PROOF_FILTERS.join(", ")}; NAME and USERNAME look-ups are not offered to unauthenticated callers`,
      "filterType",
    );
  }
  // proto3 JSON leaves an unset string out: the kits read a missing organizationId as "sign up".
  return organizationId === undefined ? {} : { organizationId };
}

const signupRequest = v.object({
  userEmail: optionalStr,
  userPhoneNumber: optionalStr,
  userTag: optionalStr,
  userName: optionalStr,
  organizationName: optionalStr,
  verificationToken: optionalStr,
  apiKeys: v.array(v.unknown()),
  authenticators: v.array(v.unknown()),
  oauthProviders: v.array(v.unknown()),
  wallet: v.optional(v.unknown()),
  clientSignature,
});

/** The contact a sign-up names (its email address, else its phone number). */
export function signupContact(body: Body): RequestContact | undefined {
  if (typeof body.userEmail === "string") return { otpType: "OTP_TYPE_EMAIL", value: body.userEmail };
  if (typeof body.userPhoneNumber === "string") return { otpType: "OTP_TYPE_SMS", value: body.userPhoneNumber };
  return undefined;
}

/**
 * A sign-up's email address and phone number, each of which its verification token must prove: one token
 * proves one contact, so a sign-up names at most one. (The hosted service also takes a second, unproven
 * contact and keeps it unverified; here it would only be someone's address copied into a stranger's account.)
 */
function assertContactsProven(request: v.InferOutput<typeof signupRequest>): void {
  const named: RequestContact[] = [];
  if (request.userEmail !== undefined) named.push({ otpType: "OTP_TYPE_EMAIL", value: request.userEmail });
  if (request.userPhoneNumber !== undefined) named.push({ otpType: "OTP_TYPE_SMS", value: request.userPhoneNumber });
  if (named.length === 0) return;
  if (!request.verificationToken) {
    throw invalidArgument(
      "signing up with an email address or phone number needs the verificationToken that proves it",
      "verificationToken",
    );
  }
  const proven = contactOfClaims(peekClaims(request.verificationToken, "verificationToken"));
  for (const contact of named) {
    if (proven?.otpType !== contact.otpType || !sameContact(contact.otpType, proven.value, contact.value)) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        "a sign-up names only the contact its verificationToken proves; add another once it is verified",
        {
          field: contact.otpType === "OTP_TYPE_EMAIL" ? "userEmail" : "userPhoneNumber",
          reason: "CONTACT_NOT_VERIFIED",
        },
      );
    }
  }
}

export async function signup(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(signupRequest, body, "");
  if (request.userEmail !== undefined) proxy.assertEnabled("email");
  if (request.userPhoneNumber !== undefined) proxy.assertEnabled("sms");
  assertContactsProven(request);
  const userName = request.userName ?? request.userEmail ?? request.userPhoneNumber ?? "user";
  const response = await proxy.acting.createSubOrganization({
    organizationId: proxy.organizationId,
    parameters: {
      subOrganizationName: request.organizationName ?? userName,
      rootUsers: [
        {
          userName,
          ...(request.userEmail === undefined ? {} : { userEmail: request.userEmail }),
          ...(request.userPhoneNumber === undefined ? {} : { userPhoneNumber: request.userPhoneNumber }),
          apiKeys: request.apiKeys,
          authenticators: request.authenticators,
          oauthProviders: request.oauthProviders,
        },
      ],
      rootQuorumThreshold: 1,
      ...(request.wallet === undefined ? {} : { wallet: request.wallet }),
      ...(request.verificationToken === undefined ? {} : { verificationToken: request.verificationToken }),
      ...(request.clientSignature === undefined ? {} : { clientSignature: request.clientSignature }),
    },
  } as Parameters<CustodyEngine["createSubOrganization"]>[0]);
  const result = activityResult(response, "createSubOrganizationResultV8");
  return {
    organizationId: result.subOrganizationId,
    userId: (result.rootUserIds as string[])[0],
    ...(result.wallet === undefined ? {} : { wallet: result.wallet }),
    appProofs: [],
  };
}
