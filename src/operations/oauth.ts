/**
 * `oauth`: sign-in with an OIDC token. The token must verify against an issuer the host trusts, name a
 * provider (iss, aud, sub) registered for a user of the organization, and carry the client's key in its
 * `nonce` (or `tknonce`) claim; the user then gets a session key in a credential bundle (docs/spec/wire-protocol.md
 * §9).
 *
 * The parent organization submits it for its sub-organizations (as Turnkey's auth proxies do), so the row
 * admits the parent's credentials.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { type ActivityContext, defineActivity } from "../contract/operation.js";
import { name } from "../contract/schema.js";
import { bytesToHex, utf8ToBytes } from "../crypto/bytes.js";
import { requireUser } from "../domain/credentials/index.js";
import { INDEX } from "../model/data.js";
import type { UserRecord } from "../model/records.js";
import {
  DEFAULT_SESSION_SECONDS,
  defaultKeyName,
  issueSessionKey,
  sessionSeconds,
  targetPublicKey,
} from "./sessions.js";

const TOKEN_FIELD = "parameters.oidcToken";

/**
 * The nonce that binds a token to a client key: lowercase hex SHA-256 of the key's hex string as sent
 * (Turnkey hashes the text, not the key bytes; the docs' example reproduces only that way).
 */
export function oidcNonceFor(publicKeyHex: string): string {
  return bytesToHex(sha256(utf8ToBytes(publicKeyHex)));
}

/**
 * The user an OIDC token signs in: the token is verified against the trusted issuers, its `nonce` or `tknonce`
 * must bind it to the client key (`keyName` is that key's parameter, for the message), and its issuer, audience
 * and subject must be an OAuth provider of a user of `organization`. Shared by `oauth` and `oauth_login`.
 */
export async function oauthProviderUser(
  context: Pick<ActivityContext, "data" | "organization" | "services" | "now">,
  oidcToken: string,
  publicKey: string,
  keyName: string,
): Promise<UserRecord> {
  const { data, organization } = context;
  const token = await context.services.oidc.verify(oidcToken, context.now, TOKEN_FIELD);
  const expected = oidcNonceFor(publicKey);
  const { nonce, tknonce } = token.payload;
  if (nonce !== expected && tknonce !== expected) {
    throw invalidToken(
      `neither nonce nor tknonce is the SHA-256 (hex) of ${keyName}: the token was issued for another key`,
    );
  }
  const key = INDEX.oauthProviderByClaims(organization.id, token.issuer, token.audience, token.subject);
  const providerId = await data.lookup("oauthProviderByClaims", key);
  const provider = providerId === undefined ? undefined : await data.get("oauthProviders", providerId);
  if (!provider) {
    throw new CustodyError(
      "NOT_FOUND",
      `no user of organization ${organization.id} has an OAuth provider for this token's issuer, audience and subject`,
      { field: TOKEN_FIELD, reason: "OAUTH_PROVIDER_NOT_FOUND" },
    );
  }
  return requireUser(data, organization.id, provider.userId, TOKEN_FIELD);
}

function invalidToken(message: string): CustodyError {
  return new CustodyError("INVALID_ARGUMENT", `invalid OIDC token: ${message}`, {
    field: TOKEN_FIELD,
    reason: "INVALID_OIDC_TOKEN",
  });
}

export const oauth = defineActivity({
  method: "oauth",
  path: "oauth",
  versions: [
    {
      type: "ACTIVITY_TYPE_OAUTH",
      intent: "oauthIntent",
      result: "oauthResult",
      parameters: v.object({
        oidcToken: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(16_384)),
        targetPublicKey,
        apiKeyName: v.optional(name),
        expirationSeconds: v.optional(sessionSeconds),
        invalidateExisting: v.optional(v.boolean()),
      }),
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const user = await oauthProviderUser(context, params.oidcToken, params.targetPublicKey, "targetPublicKey");
    const session = await issueSessionKey(context, user, {
      targetPublicKey: params.targetPublicKey,
      apiKeyName: params.apiKeyName ?? defaultKeyName("Oauth", context.now),
      expirationSeconds: params.expirationSeconds ?? DEFAULT_SESSION_SECONDS,
      invalidateExisting: params.invalidateExisting ?? false,
      credentialType: "CREDENTIAL_TYPE_OAUTH_KEY_P256",
    });
    return { userId: user.id, ...session };
  },
});
