/**
 * Contact verification by one-time code, as the embedded-wallet kits use it: `init_otp` sends a code to an
 * email address or phone number, `verify_otp` trades the right code for a verification token (a JWT signed
 * by the engine's token key) that names the contact and, optionally, a client key. The token then signs a
 * user up (`create_sub_organization`), logs them in (`otp_login`, or `stamp_login` under an attested stamp)
 * and proves the contact for `list_verified_suborgs`.
 *
 * V2 verification carries the code sealed to the `otpEncryptionTargetBundle` of `init_otp` (HPKE, as
 * `encryptOtpCodeToBundle` of `@turnkey/crypto` makes it), together with the client key to bind.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument, isCustodyError } from "../common/errors.js";
import { defineActivity } from "../contract/operation.js";
import { id, int64String, name } from "../contract/schema.js";
import { decodeUtf8Strict } from "../crypto/bytes.js";
import { decryptImportBundle } from "../crypto/hpke/index.js";
import { validateApiPublicKey } from "../crypto/stamp/index.js";
import {
  DEFAULT_APP_NAME,
  emailCustomization,
  emailCustomizationV2,
  openOtp,
  otpDelivery,
  otpLifetime,
  redeemOtp,
  sendOtp,
} from "../domain/otp-codes.js";

/** Verification tokens last an hour unless asked otherwise, at most a day (the intent's documented bounds). */
const DEFAULT_TOKEN_SECONDS = 3600;
const MAX_TOKEN_SECONDS = 86_400;

const initOtpV3 = v.object({
  ...otpDelivery,
  appName: name,
  emailCustomization: v.optional(emailCustomizationV2),
  expirationSeconds: otpLifetime,
});
const initOtpV1 = v.object({
  ...otpDelivery,
  emailCustomization: v.optional(emailCustomization),
  expirationSeconds: otpLifetime,
});

export const initOtp = defineActivity({
  method: "initOtp",
  path: "init_otp",
  versions: [
    { type: "ACTIVITY_TYPE_INIT_OTP_V3", intent: "initOtpIntentV3", result: "initOtpResultV2", parameters: initOtpV3 },
    { type: "ACTIVITY_TYPE_INIT_OTP_V2", intent: "initOtpIntentV2", result: "initOtpResult", parameters: initOtpV3 },
    { type: "ACTIVITY_TYPE_INIT_OTP", intent: "initOtpIntent", result: "initOtpResult", parameters: initOtpV1 },
  ],
  policy: { resource: "OTP", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params, version) {
    const sent = await sendOtp(context, context.organization, {
      purpose: "verification",
      otpType: params.otpType,
      contact: params.contact,
      appName: "appName" in params ? params.appName : (params.emailCustomization?.appName ?? DEFAULT_APP_NAME),
      otpLength: params.otpLength,
      alphanumeric: params.alphanumeric,
      expirationSeconds: params.expirationSeconds,
      smsTemplate: params.smsCustomization?.template,
      withTarget: version.type === "ACTIVITY_TYPE_INIT_OTP_V3",
    });
    return sent;
  },
});

const verifyOtpOptions = { otpId: id, expirationSeconds: v.optional(int64String) };
const ENCRYPTED_FIELD = "parameters.encryptedOtpBundle";

/** What a V2 bundle holds once opened: `{"otp_code": ..., "public_key": ...}`. */
const otpBundlePlaintext = v.object({ otp_code: v.pipe(v.string(), v.maxLength(64)), public_key: v.string() });

export const verifyOtp = defineActivity({
  method: "verifyOtp",
  path: "verify_otp",
  versions: [
    {
      type: "ACTIVITY_TYPE_VERIFY_OTP_V2",
      intent: "verifyOtpIntentV2",
      result: "verifyOtpResult",
      parameters: v.object({
        ...verifyOtpOptions,
        encryptedOtpBundle: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(4096)),
      }),
      secretResults: ["verificationToken"],
    },
    {
      type: "ACTIVITY_TYPE_VERIFY_OTP",
      intent: "verifyOtpIntent",
      result: "verifyOtpResult",
      parameters: v.object({
        ...verifyOtpOptions,
        otpCode: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(64)),
        publicKey: v.optional(v.pipe(v.string(), v.maxLength(200))),
      }),
      secretParameters: ["otpCode"],
      secretResults: ["verificationToken"],
    },
  ],
  policy: { resource: "OTP", action: "VERIFY" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const { organization } = context;
    const seconds = Number(params.expirationSeconds ?? DEFAULT_TOKEN_SECONDS);
    if (seconds < 1 || seconds > MAX_TOKEN_SECONDS) {
      throw invalidArgument(
        `expirationSeconds must be between 1 and ${MAX_TOKEN_SECONDS}`,
        "parameters.expirationSeconds",
      );
    }
    const otp = await openOtp(context, organization, params.otpId, "verification");
    let code: string;
    let publicKey: string;
    let field: string;
    if ("encryptedOtpBundle" in params) {
      ({ code, publicKey } = await openOtpBundle(context, otp.sealedTargetKey, otp.id, params.encryptedOtpBundle));
      field = ENCRYPTED_FIELD;
    } else {
      code = params.otpCode;
      publicKey = params.publicKey ?? "";
      field = "parameters.otpCode";
    }
    if (publicKey !== "")
      validateApiPublicKey(
        publicKey,
        "API_KEY_CURVE_P256",
        field === ENCRYPTED_FIELD ? ENCRYPTED_FIELD : "parameters.publicKey",
      );
    await redeemOtp(context, otp, code, field);
    const verificationToken = context.services.tokens.signVerification({
      id: context.newId(),
      verification_type: otp.otpType,
      contact: otp.contact,
      organization_id: organization.id,
      public_key: publicKey.toLowerCase(),
      exp: String(context.now + seconds * 1000),
    });
    return { verificationToken };
  },
});

/** Opens a V2 `encryptedOtpBundle` with the OTP's target key. */
async function openOtpBundle(
  context: Parameters<NonNullable<typeof verifyOtp.handler>>[0],
  sealedTargetKey: string | null,
  otpId: string,
  bundle: string,
): Promise<{ code: string; publicKey: string }> {
  if (sealedTargetKey === null) {
    throw new CustodyError("FAILED_PRECONDITION", "this OTP was sent without an encryption target: verify it with V1", {
      field: ENCRYPTED_FIELD,
      reason: "OTP_TARGET_MISSING",
    });
  }
  const targetPrivateKey = context.services.secrets.unseal(sealedTargetKey, `otp:${otpId}:target`);
  let plaintext: Uint8Array;
  try {
    plaintext = await decryptImportBundle({ bundle, targetPrivateKey });
  } catch (error) {
    const message = isCustodyError(error) ? error.message.replace("parameters.encryptedBundle", ENCRYPTED_FIELD) : "";
    throw invalidArgument(message || `${ENCRYPTED_FIELD} does not open with this OTP's target`, ENCRYPTED_FIELD);
  } finally {
    targetPrivateKey.fill(0);
  }
  let members: unknown;
  try {
    members = JSON.parse(decodeUtf8Strict(plaintext) ?? "");
  } catch {
    members = undefined;
  } finally {
    plaintext.fill(0);
  }
  const parsed = v.safeParse(otpBundlePlaintext, members);
  if (!parsed.success) {
    throw invalidArgument(`${ENCRYPTED_FIELD} must seal {"otp_code","public_key"}`, ENCRYPTED_FIELD);
  }
  return { code: parsed.output.otp_code, publicKey: parsed.output.public_key };
}
