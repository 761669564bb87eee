/**
 * Users and the credentials registered with them, shared by every operation that creates users
 * (`create_sub_organization` root users, the host bootstrap, `create_users`) or adds credentials.
 *
 * @module
 */
import * as v from "valibot";
import { validateApiPublicKey } from "../crypto/stamp/index.js";
import { credentialScope, type DataWriter, INDEX } from "../engine/data.js";
import type { ApiKeyCurve, ApiKeyRecord, UserRecord } from "../engine/records.js";
import { CustodyError, invalidArgument } from "../errors.js";
import { int64String, list, name } from "./schema.js";

export const API_KEY_CURVES = ["API_KEY_CURVE_P256", "API_KEY_CURVE_SECP256K1", "API_KEY_CURVE_ED25519"] as const;

/** `v1ApiKeyParamsV2`. */
export const apiKeyParams = v.object({
  apiKeyName: name,
  publicKey: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(200)),
  curveType: v.picklist(API_KEY_CURVES),
  expirationSeconds: v.optional(int64String),
});

/** `v1OidcClaims`. */
const oidcClaims = v.object({
  iss: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  sub: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  aud: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
});

const oidcToken = v.pipe(v.string(), v.minLength(1), v.maxLength(16_384));

/** `v1OauthProviderParams` (older versions: a token is required). */
export const oauthProviderParamsV1 = v.object({ providerName: name, oidcToken });

/** `v1OauthProviderParamsV2`: a token, or the claims themselves. */
export const oauthProviderParamsV2 = v.object({
  providerName: name,
  oidcToken: v.optional(oidcToken),
  oidcClaims: v.optional(oidcClaims),
});

/** `v1AuthenticatorParamsV2`. */
export const authenticatorParams = v.object({
  authenticatorName: name,
  challenge: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  attestation: v.object({
    credentialId: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
    clientDataJson: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)),
    attestationObject: v.pipe(v.string(), v.minLength(1), v.maxLength(65_536)),
    transports: list(
      v.picklist([
        "AUTHENTICATOR_TRANSPORT_BLE",
        "AUTHENTICATOR_TRANSPORT_INTERNAL",
        "AUTHENTICATOR_TRANSPORT_NFC",
        "AUTHENTICATOR_TRANSPORT_USB",
        "AUTHENTICATOR_TRANSPORT_HYBRID",
      ]),
      8,
    ),
  }),
});

const userContact = {
  userName: name,
  userEmail: v.optional(v.pipe(v.string(), v.maxLength(320), v.email("must be an email address"))),
  userPhoneNumber: v.optional(v.pipe(v.string(), v.regex(/^\+[1-9][0-9]{6,14}$/, "must be in E.164 format"))),
};

/** Per-user limits of the wire spec (resource limits). */
export const LIMITS = { apiKeysPerUser: 20, authenticatorsPerUser: 10, oauthProvidersPerUser: 10 } as const;

/** `v1RootUserParamsV5` (V8) and `v1RootUserParamsV4` (V7). */
export const rootUserParamsV5 = v.object({
  ...userContact,
  apiKeys: list(apiKeyParams, LIMITS.apiKeysPerUser),
  authenticators: list(authenticatorParams, LIMITS.authenticatorsPerUser),
  oauthProviders: list(oauthProviderParamsV2, LIMITS.oauthProvidersPerUser),
});
export const rootUserParamsV4 = v.object({
  ...userContact,
  apiKeys: list(apiKeyParams, LIMITS.apiKeysPerUser),
  authenticators: list(authenticatorParams, LIMITS.authenticatorsPerUser),
  oauthProviders: list(oauthProviderParamsV1, LIMITS.oauthProvidersPerUser),
});

export type ApiKeyParams = v.InferOutput<typeof apiKeyParams>;
export type UserParams = v.InferOutput<typeof rootUserParamsV5> | v.InferOutput<typeof rootUserParamsV4>;

/** What user creation needs from its caller. */
export interface CredentialWriteContext {
  readonly data: DataWriter;
  readonly now: number;
  readonly newId: () => string;
}

const CREDENTIAL_TYPE: Record<ApiKeyCurve, string> = {
  API_KEY_CURVE_P256: "CREDENTIAL_TYPE_API_KEY_P256",
  API_KEY_CURVE_SECP256K1: "CREDENTIAL_TYPE_API_KEY_SECP256K1",
  API_KEY_CURVE_ED25519: "CREDENTIAL_TYPE_API_KEY_ED25519",
};

/** Registers an API key for a user, refusing a key that is off its curve or already in the organization. */
export async function addApiKey(
  context: CredentialWriteContext,
  user: UserRecord,
  params: ApiKeyParams,
  field: string,
  credentialType: string = CREDENTIAL_TYPE[params.curveType],
): Promise<ApiKeyRecord> {
  validateApiPublicKey(params.publicKey, params.curveType, `${field}.publicKey`);
  const publicKey = params.publicKey.toLowerCase();
  const holder = await context.data.lookup(
    "apiKeyByPublicKey",
    INDEX.apiKeyByPublicKey(user.organizationId, publicKey),
  );
  if (holder !== undefined) {
    throw new CustodyError("ALREADY_EXISTS", "this public key is already registered in the organization", {
      field: `${field}.publicKey`,
      reason: "API_KEY_ALREADY_EXISTS",
    });
  }
  const record: ApiKeyRecord = {
    id: context.newId(),
    organizationId: user.organizationId,
    userId: user.id,
    apiKeyName: params.apiKeyName,
    publicKey,
    curveType: params.curveType,
    credentialType,
    expirationSeconds: params.expirationSeconds ?? null,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("apiKeys", record);
  await context.data.put("credentialLocations", {
    id: `${credentialScope("apiKey", publicKey)}@${user.organizationId}`,
    organizationId: user.organizationId,
    kind: "apiKey",
    credential: publicKey,
    credentialRecordId: record.id,
  });
  return record;
}

/** Registers an OAuth provider from explicit claims; tokens need a trusted issuer (see `oauthProviderClaims`). */
async function addOauthProvider(
  context: CredentialWriteContext,
  user: UserRecord,
  params: v.InferOutput<typeof oauthProviderParamsV2>,
  field: string,
): Promise<void> {
  const claims = oauthProviderClaims(params, field);
  const key = INDEX.oauthProviderByClaims(user.organizationId, claims.iss, claims.aud, claims.sub);
  if ((await context.data.lookup("oauthProviderByClaims", key)) !== undefined) {
    throw new CustodyError(
      "ALREADY_EXISTS",
      "an OAuth provider with this issuer, audience and subject already exists",
      {
        field,
        reason: "OAUTH_PROVIDER_ALREADY_EXISTS",
      },
    );
  }
  await context.data.put("oauthProviders", {
    id: context.newId(),
    organizationId: user.organizationId,
    userId: user.id,
    providerName: params.providerName,
    issuer: claims.iss,
    audience: claims.aud,
    subject: claims.sub,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  });
}

/**
 * The (iss, aud, sub) an OAuth provider is registered under. Explicit claims are taken as given; an OIDC
 * token must be verified against its issuer's keys, and this engine has no trusted issuers configured yet,
 * so a token is refused rather than trusted unverified.
 */
function oauthProviderClaims(
  params: { oidcToken?: string | undefined; oidcClaims?: { iss: string; sub: string; aud: string } | undefined },
  field: string,
): { iss: string; sub: string; aud: string } {
  if (params.oidcClaims && params.oidcToken === undefined) return params.oidcClaims;
  if (params.oidcToken !== undefined && params.oidcClaims) {
    throw invalidArgument("give either oidcToken or oidcClaims, not both", field);
  }
  if (params.oidcToken !== undefined) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      "OIDC token verification needs a trusted issuer; pass oidcClaims instead",
      {
        field: `${field}.oidcToken`,
        reason: "INVALID_OIDC_TOKEN",
      },
    );
  }
  throw invalidArgument("an OAuth provider needs oidcToken or oidcClaims", field);
}

/**
 * Creates a user with its API keys and OAuth providers in `organizationId`. Authenticators are refused
 * until WebAuthn registration lands in this build (see `authenticators`).
 */
export async function createUserWithCredentials(
  context: CredentialWriteContext,
  organizationId: string,
  params: UserParams,
  field: string,
): Promise<UserRecord> {
  const user: UserRecord = {
    id: context.newId(),
    organizationId,
    userName: params.userName,
    userEmail: params.userEmail ?? null,
    userPhoneNumber: params.userPhoneNumber ?? null,
    tagIds: [],
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("users", user);
  for (const [i, key] of params.apiKeys.entries()) await addApiKey(context, user, key, `${field}.apiKeys[${i}]`);
  for (const [i, provider] of params.oauthProviders.entries()) {
    await addOauthProvider(context, user, provider, `${field}.oauthProviders[${i}]`);
  }
  if (params.authenticators.length > 0) {
    throw new CustodyError("FAILED_PRECONDITION", "passkey registration is not available in this build", {
      field: `${field}.authenticators`,
    });
  }
  return user;
}
