/**
 * The older credential-bundle sign-ins: `init_otp_auth` sends a code to a user's email or phone, `otp_auth`
 * trades the right code for a session key sealed to the client (`credentialBundle`), and `email_auth`
 * mails the bundle itself (the magic link). The user must already hold the contact in the organization.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { type ActivityContext, defineActivity } from "../contract/operation.js";
import { id, int64String, name } from "../contract/schema.js";
import { mailCredentialBundle } from "../domain/credential-emails.js";
import { userEmail } from "../domain/credentials/index.js";
import {
  DEFAULT_APP_NAME,
  emailCustomization,
  emailCustomizationV2,
  emailSender,
  openOtp,
  otpDelivery,
  otpDeliveryV1,
  otpLifetime,
  redeemOtp,
  sendOtp,
} from "../domain/otp-codes.js";
import { sameContact } from "../model/contacts.js";
import type { OrganizationRecord, OtpType, UserRecord } from "../model/records.js";
import { DEFAULT_SESSION_SECONDS, defaultKeyName, issueSessionKey, targetPublicKey } from "./sessions.js";

/** The user of `organization` who holds `contact`, or NOT_FOUND naming `field` (email recovery finds its user so too). */
export async function userHolding(
  context: ActivityContext,
  organization: OrganizationRecord,
  otpType: OtpType,
  contact: string,
  field: string,
): Promise<UserRecord> {
  const users = await context.data.listAll("users", organization.id);
  const user = users.find((candidate) =>
    sameContact(otpType, otpType === "OTP_TYPE_SMS" ? candidate.userPhoneNumber : candidate.userEmail, contact),
  );
  if (!user) {
    throw new CustodyError("NOT_FOUND", `no user of organization ${organization.id} has this contact`, {
      field,
      reason: "USER_NOT_FOUND",
    });
  }
  return user;
}

const initOtpAuthV3 = v.object({
  ...otpDelivery,
  appName: name,
  emailCustomization: v.optional(emailCustomizationV2),
  expirationSeconds: otpLifetime,
});
const initOtpAuthV2 = v.object({ ...otpDelivery, emailCustomization: v.optional(emailCustomization) });
const initOtpAuthV1 = v.object({ ...otpDeliveryV1, emailCustomization: v.optional(emailCustomization) });

export const initOtpAuth = defineActivity({
  method: "initOtpAuth",
  path: "init_otp_auth",
  versions: [
    {
      type: "ACTIVITY_TYPE_INIT_OTP_AUTH_V3",
      intent: "initOtpAuthIntentV3",
      result: "initOtpAuthResultV2",
      parameters: initOtpAuthV3,
    },
    {
      type: "ACTIVITY_TYPE_INIT_OTP_AUTH_V2",
      intent: "initOtpAuthIntentV2",
      result: "initOtpAuthResultV2",
      parameters: initOtpAuthV2,
    },
    {
      type: "ACTIVITY_TYPE_INIT_OTP_AUTH",
      intent: "initOtpAuthIntent",
      result: "initOtpAuthResult",
      parameters: initOtpAuthV1,
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    await userHolding(context, context.organization, params.otpType, params.contact, "parameters.contact");
    const { otpId } = await sendOtp(context, context.organization, {
      purpose: "auth",
      otpType: params.otpType,
      contact: params.contact,
      appName: "appName" in params ? params.appName : (params.emailCustomization?.appName ?? DEFAULT_APP_NAME),
      otpLength: "otpLength" in params ? params.otpLength : undefined,
      alphanumeric: "alphanumeric" in params ? params.alphanumeric : undefined,
      expirationSeconds: "expirationSeconds" in params ? params.expirationSeconds : undefined,
      smsTemplate: params.smsCustomization?.template,
      withTarget: false,
    });
    return { otpId };
  },
});

export const otpAuth = defineActivity({
  method: "otpAuth",
  path: "otp_auth",
  versions: [
    {
      type: "ACTIVITY_TYPE_OTP_AUTH",
      intent: "otpAuthIntent",
      result: "otpAuthResult",
      parameters: v.object({
        otpId: id,
        otpCode: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(64)),
        targetPublicKey,
        apiKeyName: v.optional(name),
        expirationSeconds: v.optional(int64String),
        invalidateExisting: v.optional(v.boolean()),
      }),
      secretParameters: ["otpCode"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const otp = await openOtp(context, context.organization, params.otpId, "auth");
    const user = await userHolding(context, context.organization, otp.otpType, otp.contact, "parameters.otpId");
    await redeemOtp(context, otp, params.otpCode, "parameters.otpCode");
    const session = await issueSessionKey(context, user, {
      targetPublicKey: params.targetPublicKey,
      apiKeyName: params.apiKeyName ?? defaultKeyName("OTP Auth", context.now),
      expirationSeconds: params.expirationSeconds ?? DEFAULT_SESSION_SECONDS,
      invalidateExisting: params.invalidateExisting ?? false,
      credentialType: "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256",
    });
    return { userId: user.id, ...session };
  },
});

const emailAuthCommon = {
  email: userEmail,
  targetPublicKey,
  apiKeyName: v.optional(name),
  expirationSeconds: v.optional(int64String),
  invalidateExisting: v.optional(v.boolean()),
  ...emailSender,
};

export const emailAuth = defineActivity({
  method: "emailAuth",
  path: "email_auth",
  versions: [
    {
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V3",
      intent: "emailAuthIntentV3",
      result: "emailAuthResult",
      parameters: v.object({
        ...emailAuthCommon,
        emailCustomization: v.object({ ...emailCustomization.entries, appName: name }),
      }),
    },
    {
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V2",
      intent: "emailAuthIntentV2",
      result: "emailAuthResult",
      parameters: v.object({ ...emailAuthCommon, emailCustomization: v.optional(emailCustomization) }),
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const { organization } = context;
    const user = await userHolding(context, organization, "OTP_TYPE_EMAIL", params.email, "parameters.email");
    const { apiKeyId, credentialBundle } = await issueSessionKey(context, user, {
      targetPublicKey: params.targetPublicKey,
      apiKeyName: params.apiKeyName ?? defaultKeyName("Email Auth", context.now),
      expirationSeconds: params.expirationSeconds ?? DEFAULT_SESSION_SECONDS,
      invalidateExisting: params.invalidateExisting ?? false,
      credentialType: "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256",
    });
    await mailCredentialBundle(context, {
      to: params.email,
      organizationId: organization.id,
      credentialBundle,
      customization: params.emailCustomization,
      headline: (appName) => `Log in to ${appName}`,
      bundleName: "login",
    });
    return { userId: user.id, apiKeyId };
  },
});
