/**
 * Users and the credentials registered with them, shared by every operation that creates users
 * (`create_sub_organization` root users, the host bootstrap, `create_users`) or adds credentials.
 *
 * @module
 */
import * as v from "valibot";
import { encodeBase64Url } from "../crypto/bytes.js";
import { validateApiPublicKey } from "../crypto/stamp/index.js";
import { parseRegistration } from "../crypto/webauthn/index.js";
import { credentialScope, type DataReader, type DataWriter, INDEX } from "../engine/data.js";
import type {
  ApiKeyCurve,
  ApiKeyRecord,
  AuthenticatorRecord,
  OauthProviderRecord,
  OrganizationRecord,
  UserRecord,
} from "../engine/records.js";
import type { EngineServices } from "../engine/services.js";
import { CustodyError, invalidArgument, notFound } from "../errors.js";
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

/** A user's email address. */
export const userEmail = v.pipe(v.string(), v.maxLength(320), v.email("must be an email address"));

/** A user's phone number, in E.164 form. */
export const userPhoneNumber = v.pipe(v.string(), v.regex(/^\+[1-9][0-9]{6,14}$/, "must be in E.164 format"));

const userContact = {
  userName: name,
  userEmail: v.optional(userEmail),
  userPhoneNumber: v.optional(userPhoneNumber),
};

/** Per-user limits of the wire spec (resource limits). */
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

/** What user creation needs from its caller. */
export interface CredentialWriteContext {
  readonly data: DataWriter;
  readonly now: number;
  readonly newId: () => string;
  readonly services: EngineServices;
  /**
   * The organization the request names, when there is one. Passkeys of an organization created by the same
   * request (a sub-organization's root users) take their allowed origins from it.
   */
  readonly organization?: OrganizationRecord;
}

/** A user of `organizationId`, or NOT_FOUND naming `field` (a user of another organization is not found). */
export async function requireUser(
  data: DataReader,
  organizationId: string,
  userId: string,
  field: string,
): Promise<UserRecord> {
  const user = await data.get("users", userId);
  if (!user || user.organizationId !== organizationId) throw notFound("user", userId, field);
  return user;
}

/** The id of the record saying that `credential` lives in `organizationId`. */
function credentialLocationId(kind: "apiKey" | "authenticator", credential: string, organizationId: string): string {
  return `${credentialScope(kind, credential)}@${organizationId}`;
}

const CREDENTIAL_TYPE: Record<ApiKeyCurve, string> = {
  API_KEY_CURVE_P256: "CREDENTIAL_TYPE_API_KEY_P256",
  API_KEY_CURVE_SECP256K1: "CREDENTIAL_TYPE_API_KEY_SECP256K1",
  API_KEY_CURVE_ED25519: "CREDENTIAL_TYPE_API_KEY_ED25519",
};

function isExpired(key: ApiKeyRecord, now: number): boolean {
  return key.expirationSeconds !== null && now >= key.createdAtMs + Number(key.expirationSeconds) * 1000;
}

/**
 * Keeps a user within 10 long-lived and 10 expiring API keys before one more is added. A long-lived key over
 * the limit is refused; an expiring one makes room by deleting an expired key, else the oldest expiring one
 * (the wire spec's resource limits).
 */
async function makeRoomForApiKey(
  context: CredentialWriteContext,
  user: UserRecord,
  expiring: boolean,
  field: string,
): Promise<void> {
  const keys = await context.data.listAll("apiKeys", user.id);
  const sameKind = keys.filter((key) => (key.expirationSeconds !== null) === expiring);
  const limit = expiring ? LIMITS.expiringApiKeysPerUser : LIMITS.longLivedApiKeysPerUser;
  if (sameKind.length < limit) return;
  if (!expiring) {
    throw new CustodyError("RESOURCE_EXHAUSTED", `a user holds at most ${limit} long-lived API keys`, {
      field,
      reason: "API_KEY_LIMIT_EXCEEDED",
      limit,
    });
  }
  // Listed in creation order, so the first expired key is the oldest expired one.
  const evicted = sameKind.find((key) => isExpired(key, context.now)) ?? sameKind[0];
  if (evicted !== undefined) await removeApiKey(context.data, evicted);
}

/**
 * Registers several API keys for a user. A request that alone holds more keys of one kind than the limit
 * is refused, rather than evicting keys it has just created.
 */
export async function addApiKeys(
  context: CredentialWriteContext,
  user: UserRecord,
  keys: readonly ApiKeyParams[],
  field: string,
): Promise<ApiKeyRecord[]> {
  const expiring = keys.filter((key) => key.expirationSeconds !== undefined).length;
  const longLived = keys.length - expiring;
  if (expiring > LIMITS.expiringApiKeysPerUser || longLived > LIMITS.longLivedApiKeysPerUser) {
    throw new CustodyError(
      "RESOURCE_EXHAUSTED",
      `a user holds at most ${LIMITS.longLivedApiKeysPerUser} long-lived and ${LIMITS.expiringApiKeysPerUser} expiring API keys`,
      { field, reason: "API_KEY_LIMIT_EXCEEDED" },
    );
  }
  const added: ApiKeyRecord[] = [];
  for (const [i, key] of keys.entries()) added.push(await addApiKey(context, user, key, `${field}[${i}]`));
  return added;
}

/** Deletes an API key and the record of where it lives. */
export async function removeApiKey(data: DataWriter, key: ApiKeyRecord): Promise<void> {
  await data.delete("apiKeys", key.id);
  await data.delete("credentialLocations", credentialLocationId("apiKey", key.publicKey, key.organizationId));
}

/**
 * Registers an API key for a user, refusing a key that is off its curve or already in the organization.
 * Over the per-user limit, a long-lived key is refused and an expiring one replaces an older one.
 */
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
  await makeRoomForApiKey(context, user, params.expirationSeconds !== undefined, field);
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
    id: credentialLocationId("apiKey", publicKey, user.organizationId),
    organizationId: user.organizationId,
    kind: "apiKey",
    credential: publicKey,
    credentialRecordId: record.id,
  });
  return record;
}

/** OAuth provider parameters of either version: V1 carries a token, V2 a token or the claims themselves. */
export type OauthProviderParams = v.InferOutput<typeof oauthProviderParamsV2>;

/**
 * Registers an OAuth provider for a user under the (iss, aud, sub) of a verified OIDC token, or of explicit
 * claims (V2's `oidcClaims`, vouched for by whoever the policy lets submit them). One (iss, aud, sub) names
 * at most one provider per organization, and a user holds at most 10 providers.
 */
export async function addOauthProvider(
  context: CredentialWriteContext,
  user: UserRecord,
  params: OauthProviderParams,
  field: string,
): Promise<OauthProviderRecord> {
  const claims = await oauthProviderClaims(context, params, field);
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
  const held = await context.data.listAll("oauthProviders", user.id);
  if (held.length >= LIMITS.oauthProvidersPerUser) {
    throw new CustodyError(
      "RESOURCE_EXHAUSTED",
      `a user holds at most ${LIMITS.oauthProvidersPerUser} OAuth providers`,
      {
        field,
        reason: "OAUTH_PROVIDER_LIMIT_EXCEEDED",
        limit: LIMITS.oauthProvidersPerUser,
      },
    );
  }
  const record: OauthProviderRecord = {
    id: context.newId(),
    organizationId: user.organizationId,
    userId: user.id,
    providerName: params.providerName,
    issuer: claims.iss,
    audience: claims.aud,
    subject: claims.sub,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("oauthProviders", record);
  return record;
}

/**
 * The (iss, aud, sub) an OAuth provider is registered under: explicit claims as given, or those of an OIDC
 * token verified against its issuer's keys (an issuer the host has not configured is FAILED_PRECONDITION).
 * Registration does not check a nonce: the token proves the identity, not a session key.
 */
async function oauthProviderClaims(
  context: CredentialWriteContext,
  params: OauthProviderParams,
  field: string,
): Promise<{ iss: string; sub: string; aud: string }> {
  if (params.oidcToken !== undefined && params.oidcClaims) {
    throw invalidArgument("give either oidcToken or oidcClaims, not both", field);
  }
  if (params.oidcClaims) return params.oidcClaims;
  if (params.oidcToken !== undefined) {
    const token = await context.services.oidc.verify(params.oidcToken, context.now, `${field}.oidcToken`);
    return { iss: token.issuer, aud: token.audience, sub: token.subject };
  }
  throw invalidArgument("an OAuth provider needs oidcToken or oidcClaims", field);
}

/** `v1AuthenticatorParamsV2` as parsed. */
export type AuthenticatorParams = v.InferOutput<typeof authenticatorParams>;

/**
 * Registers a passkey for a user: the attestation must verify for the engine's relying-party id and an
 * origin the organization allows; a credential id already in the organization is refused; a user holds at
 * most 10 passkeys.
 */
export async function addAuthenticator(
  context: CredentialWriteContext,
  user: UserRecord,
  params: AuthenticatorParams,
  field: string,
): Promise<AuthenticatorRecord> {
  const { data, services } = context;
  const organization = (await data.get("organizations", user.organizationId)) ?? context.organization;
  const registration = parseRegistration({
    attestation: params.attestation,
    challenge: params.challenge,
    rpId: services.webauthn.rpId,
    origins: await services.webauthn.originsFor(data, organization),
    path: field,
  });
  const key = INDEX.authenticatorByCredentialId(user.organizationId, registration.credentialId);
  if ((await data.lookup("authenticatorByCredentialId", key)) !== undefined) {
    throw new CustodyError("ALREADY_EXISTS", "this passkey is already registered in the organization", {
      field: `${field}.attestation.credentialId`,
      reason: "AUTHENTICATOR_ALREADY_EXISTS",
    });
  }
  const held = await data.listAll("authenticators", user.id);
  if (held.length >= LIMITS.authenticatorsPerUser) {
    throw new CustodyError("RESOURCE_EXHAUSTED", `a user holds at most ${LIMITS.authenticatorsPerUser} passkeys`, {
      field,
      reason: "AUTHENTICATOR_LIMIT_EXCEEDED",
      limit: LIMITS.authenticatorsPerUser,
    });
  }
  const record: AuthenticatorRecord = {
    id: context.newId(),
    organizationId: user.organizationId,
    userId: user.id,
    authenticatorName: params.authenticatorName,
    credentialId: registration.credentialId,
    publicKeyCose: encodeBase64Url(registration.publicKeyCose),
    alg: registration.alg,
    aaguid: encodeBase64Url(registration.aaguid),
    attestationType: registration.attestationType,
    transports: registration.transports,
    model: authenticatorModel(registration.transports),
    signCount: registration.signCount,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await data.put("authenticators", record);
  await data.put("credentialLocations", {
    id: credentialLocationId("authenticator", record.credentialId, user.organizationId),
    organizationId: user.organizationId,
    kind: "authenticator",
    credential: record.credentialId,
    credentialRecordId: record.id,
  });
  return record;
}

/** Deletes a passkey and the record of where it lives. */
export async function removeAuthenticator(data: DataWriter, authenticator: AuthenticatorRecord): Promise<void> {
  await data.delete("authenticators", authenticator.id);
  await data.delete(
    "credentialLocations",
    credentialLocationId("authenticator", authenticator.credentialId, authenticator.organizationId),
  );
}

/**
 * `v1Authenticator.model`. custodian keeps no AAGUID metadata (a trust decision it does not make), so the
 * description goes by the transports the browser reported.
 */
function authenticatorModel(transports: readonly string[]): string {
  if (transports.includes("AUTHENTICATOR_TRANSPORT_INTERNAL")) return "Platform authenticator";
  if (transports.includes("AUTHENTICATOR_TRANSPORT_HYBRID")) return "Phone or tablet";
  const external = ["AUTHENTICATOR_TRANSPORT_USB", "AUTHENTICATOR_TRANSPORT_NFC", "AUTHENTICATOR_TRANSPORT_BLE"];
  if (transports.some((transport) => external.includes(transport))) return "Security key";
  return "Passkey";
}

/**
 * Deletes a user with every credential it holds and the records of where they live. Its tag memberships
 * live on the user record and go with it; the tags stay.
 */
export async function removeUser(data: DataWriter, user: UserRecord): Promise<void> {
  for (const key of await data.listAll("apiKeys", user.id)) await removeApiKey(data, key);
  for (const authenticator of await data.listAll("authenticators", user.id)) {
    await removeAuthenticator(data, authenticator);
  }
  for (const provider of await data.listAll("oauthProviders", user.id)) {
    await data.delete("oauthProviders", provider.id);
  }
  // Pending import handshakes belong to the user: a target nobody can complete must not linger.
  for (const kind of ["wallet", "privateKey"] as const) await data.delete("importTargets", `${kind}:${user.id}`);
  await data.delete("users", user.id);
}

/** Creates a user with its API keys, passkeys and OAuth providers in `organizationId`. */
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
  await addApiKeys(context, user, params.apiKeys, `${field}.apiKeys`);
  for (const [i, authenticator] of params.authenticators.entries()) {
    await addAuthenticator(context, user, authenticator, `${field}.authenticators[${i}]`);
  }
  for (const [i, provider] of params.oauthProviders.entries()) {
    await addOauthProvider(context, user, provider, `${field}.oauthProviders[${i}]`);
  }
  return user;
}
