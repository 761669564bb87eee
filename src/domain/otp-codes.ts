/**
 * One-time codes: made from the engine's randomness, sent through the message port, kept sealed, checked
 * once. A wrong code counts as an attempt even though the activity fails (the count is written with the
 * FAILED record), and after {@link MAX_OTP_ATTEMPTS} wrong codes the OTP is spent. Codes never appear in
 * activities, errors or logs: only the message to the user carries one.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { int32, int64String } from "../contract/schema.js";
import { bytesEqual, utf8ToBytes } from "../crypto/bytes.js";
import type { OutgoingMessage } from "../messages/outbox.js";
import type { OrganizationRecord, OtpRecord, OtpType } from "../model/records.js";
import { userEmail, userPhoneNumber } from "./credentials/index.js";

/** Wrong codes accepted before an OTP is spent. */
export const MAX_OTP_ATTEMPTS = 5;
const DEFAULT_OTP_LENGTH = 9;
const DEFAULT_OTP_SECONDS = 300;
const MAX_OTP_SECONDS = 600;
/** Crockford's Base32 (no I, L, O, U), as the hosted service's alphanumeric codes. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const DIGITS = "0123456789";

/** `OTP_TYPE_EMAIL` or `OTP_TYPE_SMS` (a plain string on the wire, its values listed in the description). */
const otpType = v.pipe(
  v.string(),
  v.check((value) => value === "OTP_TYPE_EMAIL" || value === "OTP_TYPE_SMS", "must be OTP_TYPE_EMAIL or OTP_TYPE_SMS"),
  v.transform((value) => value as OtpType),
);

/** The app name a message names when the request names none. */
export const DEFAULT_APP_NAME = "custodian";

/** The sender members every emailing intent accepts; custodian's messages come from the engine's own sender. */
export const emailSender = {
  sendFromEmailAddress: v.optional(v.pipe(v.string(), v.maxLength(320))),
  sendFromEmailSenderName: v.optional(v.pipe(v.string(), v.maxLength(256))),
  replyToEmailAddress: v.optional(v.pipe(v.string(), v.maxLength(320))),
};

/** The members of the oldest OTP-sending intent (`v1InitOtpAuthIntent`). */
export const otpDeliveryV1 = {
  otpType,
  contact: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(320)),
  smsCustomization: v.optional(v.object({ template: v.optional(v.pipe(v.string(), v.maxLength(1024))) })),
  userIdentifier: v.optional(v.pipe(v.string(), v.maxLength(256))),
  ...emailSender,
};

/** The members later OTP-sending intents share (`v1InitOtpIntentV3`, `v1InitOtpAuthIntentV3`, ...). */
export const otpDelivery = {
  ...otpDeliveryV1,
  otpLength: v.optional(int32),
  alphanumeric: v.optional(v.boolean()),
};

/** `v1EmailCustomizationParamsV2`: accepted, not used (custodian's messages are plain text). */
export const emailCustomizationV2 = v.object({
  logoUrl: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  magicLinkTemplate: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  templateVariables: v.optional(v.pipe(v.string(), v.maxLength(16_384))),
  templateId: v.optional(v.pipe(v.string(), v.maxLength(256))),
});

/** `v1EmailCustomizationParams`: the V2 members and the app name the message names. */
export const emailCustomization = v.object({
  ...emailCustomizationV2.entries,
  appName: v.optional(v.pipe(v.string(), v.maxLength(256))),
});

export const otpLifetime = v.optional(int64String);

/** What sending one OTP needs. */
export interface OtpRequest {
  purpose: OtpRecord["purpose"];
  otpType: OtpType;
  contact: string;
  appName: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: string;
  smsTemplate?: string;
  /** Make a signed encryption target for V2 verification (`otpEncryptionTargetBundle`). */
  withTarget: boolean;
}

/** Checks a contact against its kind: an email address, or an E.164 phone number. */
function assertContact(otpType: OtpType, contact: string): void {
  const result = v.safeParse(otpType === "OTP_TYPE_EMAIL" ? userEmail : userPhoneNumber, contact);
  if (!result.success) {
    throw invalidArgument(
      otpType === "OTP_TYPE_EMAIL" ? "contact must be an email address" : "contact must be an E.164 phone number",
      "parameters.contact",
    );
  }
}

/** A code of `length` symbols of `alphabet`, by rejection sampling (no modulo bias). */
function generateCode(context: ActivityContext, length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let code = "";
  while (code.length < length) {
    for (const byte of context.random(length * 2)) {
      if (byte < limit && code.length < length) code += alphabet[byte % alphabet.length];
    }
  }
  return code;
}

function messageOf(request: OtpRequest, code: string, organizationId: string): OutgoingMessage {
  const channel = request.otpType === "OTP_TYPE_EMAIL" ? "email" : "sms";
  const text =
    request.smsTemplate !== undefined && channel === "sms"
      ? request.smsTemplate.replaceAll("{{.OtpCode}}", code)
      : `Your ${request.appName} verification code is ${code}`;
  return {
    channel,
    to: request.contact,
    organizationId,
    subject: channel === "email" ? `Your ${request.appName} verification code` : "",
    text,
    otpCode: code,
  };
}

/**
 * Creates an OTP in `organization`, stores it sealed and sends its code. Returns the `otpId` and, when asked,
 * the signed `otpEncryptionTargetBundle` the client seals its code to (`encryptOtpCodeToBundle`).
 */
export async function sendOtp(
  context: ActivityContext,
  organization: OrganizationRecord,
  request: OtpRequest,
): Promise<{ otpId: string; otpEncryptionTargetBundle?: string }> {
  assertContact(request.otpType, request.contact);
  const length = request.otpLength ?? DEFAULT_OTP_LENGTH;
  if (!Number.isInteger(length) || length < 6 || length > 9) {
    throw invalidArgument("otpLength must be between 6 and 9", "parameters.otpLength");
  }
  const seconds = Number(request.expirationSeconds ?? DEFAULT_OTP_SECONDS);
  if (seconds < 1 || seconds > MAX_OTP_SECONDS) {
    throw invalidArgument(`expirationSeconds must be between 1 and ${MAX_OTP_SECONDS}`, "parameters.expirationSeconds");
  }
  const otpId = context.newId();
  const code = generateCode(context, length, request.alphanumeric === false ? DIGITS : CROCKFORD);
  const { secrets, enclaveSigner } = context.services;
  let sealedTargetKey: string | null = null;
  let otpEncryptionTargetBundle: string | undefined;
  if (request.withTarget) {
    const target = enclaveSigner.importTarget({
      organizationId: organization.id,
      userId: otpId,
      randomBytes: context.random,
    });
    sealedTargetKey = secrets.seal(target.targetPrivateKey, `otp:${otpId}:target`);
    target.targetPrivateKey.fill(0);
    otpEncryptionTargetBundle = target.importBundle;
  }
  await context.data.put("otps", {
    id: otpId,
    organizationId: organization.id,
    purpose: request.purpose,
    otpType: request.otpType,
    contact: request.contact,
    sealedCode: secrets.seal(utf8ToBytes(code), `otp:${otpId}:code`),
    sealedTargetKey,
    attempts: 0,
    expiresAtMs: context.now + seconds * 1000,
    consumed: false,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  });
  // Sent last: nothing after it can fail the handler.
  await context.services.messages.send(messageOf(request, code, organization.id), context.now);
  return { otpId, ...(otpEncryptionTargetBundle === undefined ? {} : { otpEncryptionTargetBundle }) };
}

function otpRefused(code: "FAILED_PRECONDITION" | "RESOURCE_EXHAUSTED", message: string, reason: string) {
  return new CustodyError(code, message, { field: "parameters.otpId", reason });
}

/** The OTP `otpId` of `organization` for `purpose`, still open (unspent, unexpired, attempts left). */
export async function openOtp(
  context: ActivityContext,
  organization: OrganizationRecord,
  otpId: string,
  purpose: OtpRecord["purpose"],
): Promise<OtpRecord> {
  const otp = await context.data.get("otps", otpId);
  if (!otp || otp.organizationId !== organization.id || otp.purpose !== purpose) {
    throw new CustodyError("NOT_FOUND", `no OTP ${otpId} in organization ${organization.id}`, {
      field: "parameters.otpId",
      reason: "OTP_NOT_FOUND",
    });
  }
  if (otp.consumed) throw otpRefused("FAILED_PRECONDITION", "this OTP was already used", "OTP_ALREADY_USED");
  if (context.now >= otp.expiresAtMs) throw otpRefused("FAILED_PRECONDITION", "this OTP has expired", "OTP_EXPIRED");
  if (otp.attempts >= MAX_OTP_ATTEMPTS) {
    throw otpRefused("RESOURCE_EXHAUSTED", "too many wrong codes: request a new OTP", "OTP_ATTEMPTS_EXHAUSTED");
  }
  return otp;
}

/**
 * Checks `code` against the open `otp`. A right code spends the OTP; a wrong one is counted (kept even though
 * the activity fails) and refused with "Invalid OTP code", the message `@turnkey/core` recognizes.
 */
export async function redeemOtp(context: ActivityContext, otp: OtpRecord, code: string, field: string): Promise<void> {
  const sealed = context.services.secrets.unseal(otp.sealedCode, `otp:${otp.id}:code`);
  const given = utf8ToBytes(code.trim().toUpperCase());
  const right = bytesEqual(sealed, given);
  sealed.fill(0);
  if (!right) {
    context.keepOnFailure(async (data) => {
      const current = await data.get("otps", otp.id);
      if (current) await data.put("otps", { ...current, attempts: current.attempts + 1, updatedAtMs: context.now });
    });
    const left = MAX_OTP_ATTEMPTS - otp.attempts - 1;
    throw new CustodyError("INVALID_ARGUMENT", `Invalid OTP code (${left} attempts left)`, {
      field,
      reason: "INVALID_OTP_CODE",
    });
  }
  await context.data.put("otps", { ...otp, consumed: true, updatedAtMs: context.now });
}
