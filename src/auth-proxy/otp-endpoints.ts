/**
 * The proxy's one-time-code endpoints: `otp_init` sends a code in the parent organization's name,
 * `otp_verify` trades it for a verification token, and `otp_login` spends the token on a session in the
 * sub-organization where its contact is verified.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import type { CustodyEngine } from "../engine/engine.js";
import { parseWith } from "../engine/pipeline/validate.js";
import {
  type AuthProxy,
  activityResult,
  type Body,
  contactOfClaims,
  optionalStr,
  otpTypeOf,
  peekClaims,
  str,
} from "./context.js";
import type { RequestContact } from "./options.js";

const initOtpRequest = v.object({ otpType: str, contact: str });

/** The contact an `otp_init` sends to, for the per-contact limit and the abuse check. */
export function otpInitContact(body: Body): RequestContact | undefined {
  const { otpType, contact } = body;
  if ((otpType !== "OTP_TYPE_EMAIL" && otpType !== "OTP_TYPE_SMS") || typeof contact !== "string") return undefined;
  return { otpType, value: contact };
}

export async function initOtp(proxy: AuthProxy, body: Body, withTarget: boolean): Promise<Body> {
  const request = parseWith(initOtpRequest, body, "");
  const otpType = otpTypeOf(request.otpType);
  proxy.assertEnabled(otpType === "OTP_TYPE_SMS" ? "sms" : "email");
  const { otpLength, otpAlphanumeric, appName } = proxy.options;
  const response = await proxy.acting.initOtp({
    organizationId: proxy.organizationId,
    parameters: {
      otpType,
      contact: request.contact,
      appName: appName ?? "custodian",
      ...(otpLength === undefined ? {} : { otpLength }),
      ...(otpAlphanumeric === undefined ? {} : { alphanumeric: otpAlphanumeric }),
    },
  });
  const result = activityResult(response, "initOtpResultV2");
  return withTarget ? result : { otpId: result.otpId };
}

const verifyOtpV1 = v.object({ otpId: str, otpCode: str, publicKey: optionalStr });
const verifyOtpV2 = v.object({ otpId: str, encryptedOtpBundle: str });

export async function verifyOtp(proxy: AuthProxy, body: Body, version: 1 | 2): Promise<Body> {
  const parameters = version === 1 ? parseWith(verifyOtpV1, body, "") : parseWith(verifyOtpV2, body, "");
  const response = await proxy.acting.verifyOtp({
    type: version === 1 ? "ACTIVITY_TYPE_VERIFY_OTP" : "ACTIVITY_TYPE_VERIFY_OTP_V2",
    organizationId: proxy.organizationId,
    parameters,
  } as Parameters<CustodyEngine["verifyOtp"]>[0]);
  return { verificationToken: activityResult(response, "verifyOtpResult").verificationToken };
}

const clientSignature = v.optional(v.record(v.string(), v.unknown()));
const otpLoginRequest = v.object({
  verificationToken: str,
  publicKey: str,
  invalidateExisting: v.optional(v.boolean()),
  organizationId: optionalStr,
  clientSignature,
});

/** The contact an `otp_login`'s token names (unverified: the engine checks the token). */
export function otpLoginContact(body: Body): RequestContact | undefined {
  if (typeof body.verificationToken !== "string") return undefined;
  try {
    return contactOfClaims(peekClaims(body.verificationToken, "verificationToken"));
  } catch {
    return undefined;
  }
}

/**
 * Logs in where the token's contact is verified: the sub-organization the request names must be one of
 * those, and without one the first. A sub-organization that only stores the contact (someone else's sign-up,
 * or a user who typed it into their own record) is never where the contact's owner lands.
 */
export async function otpLogin(proxy: AuthProxy, body: Body, version: 1 | 2): Promise<Body> {
  const request = parseWith(otpLoginRequest, body, "");
  // The token is checked before any look-up, so a forged one learns nothing of which contacts have accounts.
  const contact = contactOfClaims(await proxy.engine.verifyVerificationToken(request.verificationToken));
  const verified = contact === undefined ? [] : await proxy.verifiedSubOrganizations(contact);
  const organizationId = request.organizationId ?? verified[0];
  if (organizationId === undefined || !verified.includes(organizationId)) {
    throw new CustodyError(
      "NOT_FOUND",
      request.organizationId === undefined
        ? "no account holds the contact this verification token verified"
        : "the contact this verification token verified is not verified in that organization",
      {
        field: request.organizationId === undefined ? "verificationToken" : "organizationId",
        reason: "ACCOUNT_NOT_FOUND",
      },
    );
  }
  const response = await proxy.acting.otpLogin({
    type: version === 1 ? "ACTIVITY_TYPE_OTP_LOGIN" : "ACTIVITY_TYPE_OTP_LOGIN_V2",
    organizationId,
    parameters: {
      verificationToken: request.verificationToken,
      publicKey: request.publicKey,
      ...(request.invalidateExisting === undefined ? {} : { invalidateExisting: request.invalidateExisting }),
      ...(request.clientSignature === undefined ? {} : { clientSignature: request.clientSignature }),
      expirationSeconds: proxy.options.sessionExpirationSeconds ?? "900",
    },
  } as Parameters<CustodyEngine["otpLogin"]>[0]);
  return { session: activityResult(response, "otpLoginResult").session };
}
