/**
 * Session log-ins as `@turnkey/core` and `@turnkey/sdk-server` do them: the client makes its own P-256 key,
 * a proof of who the user is (a stamp, an OIDC token, an OTP verification token) registers that key on the
 * user as an expiring `CREDENTIAL_TYPE_LOGIN` API key, and the answer is a session JWT signed by the
 * engine's token key (`stamp_login`, `oauth_login`, `otp_login`). `create_read_only_session` answers with a
 * read-only session JWT that `X-Session` carries for queries; it registers no key.
 *
 * @module
 */
import * as v from "valibot";
import type { SessionClaims } from "../auth/token-signer.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { type ActivityContext, defineActivity } from "../contract/operation.js";
import { id, int64String } from "../contract/schema.js";
import { addApiKey, removeApiKey, requireUser } from "../domain/credentials/index.js";
import { requireSessionProfile, sessionLifetime } from "../domain/session-profiles.js";
import {
  assertClientSignature,
  clientSignature,
  consumeToken,
  userWithContact,
  verificationTokenParam,
  verifyTokenFor,
} from "../domain/verification.js";
import type { UserRecord } from "../model/records.js";
import { oauthProviderUser } from "./oauth.js";

/** Sessions last 15 minutes unless the request says otherwise (the intents' documented default). */
const DEFAULT_SESSION_SECONDS = 900;
/** Read-only sessions last an hour. */
const READ_ONLY_SESSION_SECONDS = 3600;
/** The longest session this engine issues: one year. */
export const MAX_SESSION_SECONDS = 365 * 24 * 3600;
const LOGIN_CREDENTIAL = "CREDENTIAL_TYPE_LOGIN";

/** A client's compressed P-256 public key in hex: the session key. */
const sessionPublicKey = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(200));

const loginOptions = {
  expirationSeconds: v.optional(int64String),
  invalidateExisting: v.optional(v.boolean()),
  sessionProfileId: v.optional(id),
};

/** What one log-in asks for. */
interface LoginRequest {
  publicKey: string;
  expirationSeconds?: string;
  invalidateExisting?: boolean;
  sessionProfileId?: string;
}

function assertLifetime(seconds: number): void {
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_SESSION_SECONDS) {
    throw invalidArgument(
      `expirationSeconds must be between 1 and ${MAX_SESSION_SECONDS}`,
      "parameters.expirationSeconds",
    );
  }
}

/**
 * Registers `request.publicKey` on `user` as an expiring log-in key and returns a read-write session JWT for
 * it. The same key logging in again replaces its earlier registration (a refreshed lifetime);
 * `invalidateExisting` removes the user's other log-in keys first. Under a session profile (the user's
 * organization's or its parent's) the key remembers the profile, lasts no longer than the profile allows,
 * and the JWT carries the profile's id, scope and name as its `session_type` (Turnkey docs, "Session
 * Profiles").
 */
export async function openSession(
  context: ActivityContext,
  user: UserRecord,
  request: LoginRequest,
): Promise<{ session: string }> {
  const profile =
    request.sessionProfileId === undefined
      ? undefined
      : await requireSessionProfile(
          context.data,
          await context.data.require("organizations", user.organizationId, "organization"),
          request.sessionProfileId,
          "parameters.sessionProfileId",
        );
  const requested = request.expirationSeconds === undefined ? undefined : Number(request.expirationSeconds);
  if (requested !== undefined) assertLifetime(requested);
  const seconds = sessionLifetime(requested, profile, DEFAULT_SESSION_SECONDS);
  const publicKey = request.publicKey.toLowerCase();
  const keys = await context.data.listAll("apiKeys", user.id);
  for (const key of keys) {
    const replaced = key.publicKey === publicKey && key.credentialType === LOGIN_CREDENTIAL;
    if (replaced || (request.invalidateExisting && key.credentialType === LOGIN_CREDENTIAL)) {
      await removeApiKey(context.data, key);
    }
  }
  await addApiKey(
    context,
    user,
    {
      apiKeyName: `Session Key ${new Date(context.now).toISOString()}`,
      publicKey,
      curveType: "API_KEY_CURVE_P256",
      expirationSeconds: String(seconds),
    },
    "parameters",
    LOGIN_CREDENTIAL,
    profile?.id,
  );
  const claims: SessionClaims = {
    exp: Math.floor(context.now / 1000) + seconds,
    public_key: publicKey,
    session_type: profile === undefined ? "SESSION_TYPE_READ_WRITE" : profile.sessionProfileName,
    user_id: user.id,
    organization_id: user.organizationId,
    ...(profile === undefined ? {} : { session_profile_id: profile.id, scope: profile.scope }),
  };
  return { session: context.services.tokens.signSession(claims) };
}

export const stampLogin = defineActivity({
  method: "stampLogin",
  path: "stamp_login",
  versions: [
    {
      type: "ACTIVITY_TYPE_STAMP_LOGIN",
      intent: "stampLoginIntent",
      result: "stampLoginResult",
      parameters: v.object({ publicKey: sessionPublicKey, ...loginOptions }),
      secretResults: ["session"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  // @turnkey/core stamps it with the session's key, a passkey, or an attested token, naming the parent
  // organization it was configured with; the session is the stamping user's, in their own organization.
  access: "ownViaParent",
  acceptsAttestedStamp: true,
  async handler(context, params) {
    const { data, principal, organization } = context;
    const user = await requireUser(data, organization.id, principal.userId, "organizationId");
    if (principal.credential.kind === "attested") {
      // A token proves the key it binds: only that key may become the session key.
      if (params.publicKey.toLowerCase() !== principal.credential.publicKey.toLowerCase()) {
        throw invalidArgument("publicKey must be the key the attested stamp is signed with", "parameters.publicKey");
      }
      const claims = principal.credential.verification;
      if (claims)
        await consumeToken(data, claims, "USAGE_TYPE_LOGIN", organization.id, context.now, "X-Stamp-Attested");
    }
    return openSession(context, user, params);
  },
});

export const oauthLogin = defineActivity({
  method: "oauthLogin",
  path: "oauth_login",
  versions: [
    {
      type: "ACTIVITY_TYPE_OAUTH_LOGIN",
      intent: "oauthLoginIntent",
      result: "oauthLoginResult",
      parameters: v.object({
        oidcToken: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(16_384)),
        publicKey: sessionPublicKey,
        ...loginOptions,
      }),
      secretParameters: ["oidcToken"],
      secretResults: ["session"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const user = await oauthProviderUser(context, params.oidcToken, params.publicKey, "publicKey");
    return openSession(context, user, params);
  },
});

const TOKEN_FIELD = "parameters.verificationToken";
const otpLoginParams = {
  verificationToken: verificationTokenParam,
  publicKey: sessionPublicKey,
  ...loginOptions,
};

export const otpLogin = defineActivity({
  method: "otpLogin",
  path: "otp_login",
  versions: [
    {
      type: "ACTIVITY_TYPE_OTP_LOGIN_V2",
      intent: "otpLoginIntentV2",
      result: "otpLoginResult",
      parameters: v.object({ ...otpLoginParams, clientSignature }),
      secretParameters: ["verificationToken"],
      secretResults: ["session"],
    },
    {
      // What the generated @turnkey/core client sends.
      type: "ACTIVITY_TYPE_OTP_LOGIN",
      intent: "otpLoginIntent",
      result: "otpLoginResult",
      parameters: v.object({ ...otpLoginParams, clientSignature: v.optional(clientSignature) }),
      secretParameters: ["verificationToken"],
      secretResults: ["session"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  access: "ownOrSubOrganization",
  async handler(context, params) {
    const { data, organization } = context;
    const claims = verifyTokenFor(context, organization, params.verificationToken, TOKEN_FIELD);
    // V1 needs no client signature only for tokens that bound no key at verification.
    if (params.clientSignature !== undefined || claims.public_key !== "") {
      assertClientSignature(
        claims,
        params.clientSignature,
        (message) =>
          message.type === "USAGE_TYPE_LOGIN" &&
          typeof message.login === "object" &&
          message.login !== null &&
          String((message.login as Record<string, unknown>).publicKey).toLowerCase() === params.publicKey.toLowerCase(),
        "parameters.clientSignature",
      );
    }
    const user = await userWithContact(data, organization.id, claims);
    if (!user) {
      throw new CustodyError(
        "NOT_FOUND",
        `no user of organization ${organization.id} has the contact this verification token verified`,
        { field: TOKEN_FIELD, reason: "USER_NOT_FOUND" },
      );
    }
    await consumeToken(data, claims, "USAGE_TYPE_LOGIN", organization.id, context.now, TOKEN_FIELD);
    return openSession(context, user, params);
  },
});

export const createReadOnlySession = defineActivity({
  method: "createReadOnlySession",
  path: "create_read_only_session",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION",
      intent: "createReadOnlySessionIntent",
      result: "createReadOnlySessionResult",
      parameters: v.object({}),
      secretResults: ["session"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  // sdk-browser's `login()` names the parent organization it was configured with.
  access: "ownViaParent",
  async handler(context) {
    const { data, principal, organization } = context;
    const user = await requireUser(data, organization.id, principal.userId, "organizationId");
    const exp = Math.floor(context.now / 1000) + READ_ONLY_SESSION_SECONDS;
    const session = context.services.tokens.signSession({
      exp,
      // The credential that opened it; an in-process caller has no key, so the claim names that instead
      // (`parseSession` needs one).
      public_key: principal.credential.publicKey || principal.credential.scheme,
      session_type: "SESSION_TYPE_READ_ONLY",
      user_id: user.id,
      organization_id: organization.id,
    });
    return {
      organizationId: organization.id,
      organizationName: organization.name,
      userId: user.id,
      username: user.userName,
      session,
      sessionExpiry: String(exp),
    };
  },
});
