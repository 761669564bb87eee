/**
 * Request schemas of users and their credentials (`v1ApiKeyParamsV2`, `v1AuthenticatorParamsV2`,
 * `v1OauthProviderParamsV2`, root users), and the per-user limits.
 *
 * @module
 */
import * as v from "valibot";
import { int64String, list, name } from "../../contract/schema.js";

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

/** A user's email address. */
export const userEmail = v.pipe(v.string(), v.maxLength(320), v.email("must be an email address"));

/** A user's phone number, in E.164 form. */
export const userPhoneNumber = v.pipe(v.string(), v.regex(/^\+[1-9][0-9]{6,14}$/, "must be in E.164 format"));

const userContact = {
  userName: name,
  userEmail: v.optional(userEmail),
  userPhoneNumber: v.optional(userPhoneNumber),
};

/** Per-user limits (docs/spec/wire-protocol.md §7, resource limits). */
export const LIMITS = {
  apiKeysPerUser: 20,
  longLivedApiKeysPerUser: 10,
  expiringApiKeysPerUser: 10,
  authenticatorsPerUser: 10,
  oauthProvidersPerUser: 10,
} as const;

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
