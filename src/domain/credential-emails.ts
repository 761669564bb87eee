/**
 * Mailing a credential bundle (a session or recovery key sealed to the client), as `email_auth` and
 * `init_user_email_recovery` do: as a magic link when the request gives a `magicLinkTemplate`, else as the
 * bundle itself. The message is plain text; its wording alone says which flow sent it.
 *
 * @module
 */
import type { ActivityContext } from "../contract/operation.js";
import { DEFAULT_APP_NAME } from "./otp-codes.js";

/** What one credential-bundle email needs. */
export interface CredentialEmail {
  to: string;
  organizationId: string;
  credentialBundle: string;
  /** The request's `emailCustomization`: the app name the message names, and the link the bundle goes into. */
  customization?: { appName?: string; magicLinkTemplate?: string };
  /** The subject, also the words before the link: `Log in to ${appName}`. */
  headline: (appName: string) => string;
  /** What the bundle is called when it is sent bare: `login` gives "Your app login bundle: ...". */
  bundleName: string;
}

/** Sends the email; the caller sends it last, so nothing after it can fail the handler. */
export async function mailCredentialBundle(context: ActivityContext, email: CredentialEmail): Promise<void> {
  const { to, organizationId, credentialBundle, customization, headline, bundleName } = email;
  const appName = customization?.appName ?? DEFAULT_APP_NAME;
  const link = customization?.magicLinkTemplate?.replace("%s", credentialBundle);
  await context.services.messages.send(
    {
      channel: "email",
      to,
      organizationId,
      subject: headline(appName),
      text:
        link === undefined
          ? `Your ${appName} ${bundleName} bundle: ${credentialBundle}`
          : `${headline(appName)}: ${link}`,
      credentialBundle,
    },
    context.now,
  );
}
