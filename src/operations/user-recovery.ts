/**
 * Email recovery, the older flow email auth supersedes: `init_user_email_recovery` mails a user a recovery
 * credential (an expiring P-256 API key of type `CREDENTIAL_TYPE_RECOVER_USER_KEY_P256`, sealed to the
 * client's `targetPublicKey` as a credential bundle, the way `email_auth` mails its session key), and
 * `recover_user`, stamped with that credential, registers the user's new passkey. A recovery credential serves
 * one recovery: once a passkey is added with it, the user's recovery credentials are deleted (the hosted
 * service's own example notes that polling with the credential fails as soon as the activity completes).
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { type ActivityContext, defineActivity } from "../contract/operation.js";
import { id } from "../contract/schema.js";
import { mailCredentialBundle } from "../domain/credential-emails.js";
import {
  addAuthenticator,
  authenticatorParams,
  removeApiKey,
  requireUser,
  userEmail,
} from "../domain/credentials/index.js";
import { emailCustomization, emailSender } from "../domain/otp-codes.js";
import type { UserRecord } from "../model/records.js";
import { userHolding } from "./otp-auth.js";
import { defaultKeyName, issueSessionKey, sessionSeconds, targetPublicKey } from "./sessions.js";

/** The credential type of a recovery credential. */
export const RECOVERY_CREDENTIAL_TYPE = "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256";
/** The intent's documented default lifetime of a recovery credential: 15 minutes. */
const DEFAULT_RECOVERY_SECONDS = "900";

const recoveryCommon = {
  email: userEmail,
  targetPublicKey,
  expirationSeconds: v.optional(sessionSeconds),
  ...emailSender,
};

export const initUserEmailRecovery = defineActivity({
  method: "initUserEmailRecovery",
  path: "init_user_email_recovery",
  versions: [
    {
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
      intent: "initUserEmailRecoveryIntentV2",
      result: "initUserEmailRecoveryResult",
      parameters: v.object({
        ...recoveryCommon,
        emailCustomization: v.object({
          ...emailCustomization.entries,
          appName: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(256)),
        }),
      }),
    },
    {
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY",
      intent: "initUserEmailRecoveryIntent",
      result: "initUserEmailRecoveryResult",
      parameters: v.object({ ...recoveryCommon, emailCustomization: v.optional(emailCustomization) }),
    },
  ],
  policy: { resource: "RECOVERY", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const { organization } = context;
    if (organization.settings.disableEmailRecovery === true) {
      throw new CustodyError("FAILED_PRECONDITION", "email recovery is disabled for this organization", {
        field: "parameters.email",
        reason: "EMAIL_RECOVERY_DISABLED",
      });
    }
    const user = await userHolding(context, organization, "OTP_TYPE_EMAIL", params.email, "parameters.email");
    // Only the newest recovery credential opens: an earlier email's bundle stops working.
    const { credentialBundle } = await issueSessionKey(context, user, {
      targetPublicKey: params.targetPublicKey,
      apiKeyName: defaultKeyName("Recovery", context.now),
      expirationSeconds: params.expirationSeconds ?? DEFAULT_RECOVERY_SECONDS,
      invalidateExisting: true,
      credentialType: RECOVERY_CREDENTIAL_TYPE,
    });
    // Sent last: nothing after it can fail the handler.
    await mailCredentialBundle(context, {
      to: params.email,
      organizationId: organization.id,
      credentialBundle,
      customization: params.emailCustomization,
      headline: (appName) => `Recover your ${appName} account`,
      bundleName: "recovery",
    });
    return { userId: user.id };
  },
});

/**
 * Deletes `user`'s recovery credentials when the activity was stamped with one of them: the recovery it
 * opened is done.
 */
export async function retireRecoveryCredentials(context: ActivityContext, user: UserRecord): Promise<void> {
  const { credential, userId } = context.principal;
  if (credential.type !== RECOVERY_CREDENTIAL_TYPE || userId !== user.id) return;
  for (const key of await context.data.listAll("apiKeys", user.id)) {
    if (key.credentialType === RECOVERY_CREDENTIAL_TYPE) await removeApiKey(context.data, key);
  }
}

export const recoverUser = defineActivity({
  method: "recoverUser",
  path: "recover_user",
  versions: [
    {
      type: "ACTIVITY_TYPE_RECOVER_USER",
      intent: "recoverUserIntent",
      result: "recoverUserResult",
      parameters: v.object({ authenticator: authenticatorParams, userId: id }),
    },
  ],
  // The description's table maps no resource to RECOVER_USER; it adds a credential, as create_authenticators
  // does, so it is judged as one (and a user recovering themselves needs no policy).
  policy: { resource: "CREDENTIAL", action: "CREATE" },
  async handler(context, params) {
    const user = await requireUser(context.data, context.organization.id, params.userId, "parameters.userId");
    const added = await addAuthenticator(context, user, params.authenticator, "parameters.authenticator");
    await retireRecoveryCredentials(context, user);
    return { authenticatorId: [added.id] };
  },
});
