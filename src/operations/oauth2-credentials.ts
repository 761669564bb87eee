/**
 * OAuth 2.0 credentials: `create_oauth2_credential`, `update_oauth2_credential`, `delete_oauth2_credential`,
 * `oauth2_authenticate`, and the queries `get_oauth2_credential` and `list_oauth2_credentials`.
 *
 * A credential is an organization's OAuth 2.0 client at a provider: its client id and client secret. The
 * secret arrives encrypted to the engine's key (`encryptOauth2ClientSecret` of `@turnkey/crypto`), is sealed
 * for the store at once, and never appears in an activity. `oauth2_authenticate` exchanges an end user's
 * authorization code at the provider's token endpoint, which only the host names (engine option
 * `oauth2Providers`), and answers the provider's OIDC id token once it verifies against the trusted issuers
 * and carries the request's `nonce`: the token `oauth_login` (or `create_sub_organization`) then takes.
 *
 * @module
 */
import * as v from "valibot";
import { OAUTH2_PROVIDERS, type Oauth2Provider } from "../auth/oauth2.js";
import { CustodyError } from "../common/errors.js";
import type { ActivityContext, PolicyTargetContext } from "../contract/operation.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, withoutNul } from "../contract/schema.js";
import { utf8ToBytes } from "../crypto/bytes.js";
import type { Oauth2CredentialRecord } from "../model/records.js";
import { timestamp } from "../model/render.js";
import type { Timestamp } from "../model/wire-types.js";

/** The most OAuth 2.0 credentials an organization holds. */
export const MAX_OAUTH2_CREDENTIALS_PER_ORGANIZATION = 16;
/** A client secret of a few hundred bytes, in its hex envelope (81 bytes of header). */
const MAX_ENCRYPTED_SECRET_LENGTH = 4096;

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.minLength(1, "must not be empty"),
    v.maxLength(max, `must be at most ${max} characters`),
    withoutNul,
  );
const provider = v.picklist(OAUTH2_PROVIDERS);
const clientId = text(512);
const encryptedClientSecret = text(MAX_ENCRYPTED_SECRET_LENGTH);

const secretContext = (credentialId: string) => `oauth2Credential:${credentialId}:clientSecret`;

/** `v1Oauth2Credential`. */
export interface Oauth2CredentialData {
  oauth2CredentialId: string;
  organizationId: string;
  provider: string;
  clientId: string;
  encryptedClientSecret: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

function render(record: Oauth2CredentialRecord): Oauth2CredentialData {
  return {
    oauth2CredentialId: record.id,
    organizationId: record.organizationId,
    provider: record.provider,
    clientId: record.clientId,
    encryptedClientSecret: record.encryptedClientSecret,
    createdAt: timestamp(record.createdAtMs),
    updatedAt: timestamp(record.updatedAtMs),
  };
}

function requireCredential(
  context: Pick<PolicyTargetContext, "data" | "organization">,
  credentialId: string,
  field: string,
): Promise<Oauth2CredentialRecord> {
  return context.data.requireInOrganization(
    "oauth2Credentials",
    credentialId,
    context.organization.id,
    "OAuth 2.0 credential",
    field,
  );
}

/** The secret sealed for the store, from the client's envelope (checked for the provider's endpoint first). */
function sealClientSecret(
  context: ActivityContext,
  params: { provider: Oauth2Provider; encryptedClientSecret: string },
  credentialId: string,
): string {
  const { oauth2, secrets } = context.services;
  oauth2.requireConfigured(params.provider, "parameters.provider");
  const secret = utf8ToBytes(oauth2.openClientSecret(params.encryptedClientSecret));
  try {
    return secrets.seal(secret, secretContext(credentialId));
  } finally {
    secret.fill(0);
  }
}

export const createOauth2Credential = defineActivity({
  method: "createOauth2Credential",
  path: "create_oauth2_credential",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
      intent: "createOauth2CredentialIntent",
      result: "createOauth2CredentialResult",
      parameters: v.object({ provider, clientId, encryptedClientSecret }),
      secretParameters: ["encryptedClientSecret"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  async handler(context, params) {
    const { data, organization } = context;
    const held = await data.list("oauth2Credentials", organization.id, {
      limit: MAX_OAUTH2_CREDENTIALS_PER_ORGANIZATION,
    });
    if (held.length >= MAX_OAUTH2_CREDENTIALS_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${MAX_OAUTH2_CREDENTIALS_PER_ORGANIZATION} OAuth 2.0 credentials`,
        { field: "parameters.provider", limit: MAX_OAUTH2_CREDENTIALS_PER_ORGANIZATION },
      );
    }
    const credentialId = context.newId();
    const record: Oauth2CredentialRecord = {
      id: credentialId,
      organizationId: organization.id,
      provider: params.provider,
      clientId: params.clientId,
      sealedClientSecret: sealClientSecret(context, params, credentialId),
      encryptedClientSecret: params.encryptedClientSecret,
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await data.put("oauth2Credentials", record);
    return { oauth2CredentialId: credentialId };
  },
});

export const updateOauth2Credential = defineActivity({
  method: "updateOauth2Credential",
  path: "update_oauth2_credential",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL",
      intent: "updateOauth2CredentialIntent",
      result: "updateOauth2CredentialResult",
      parameters: v.object({ oauth2CredentialId: id, provider, clientId, encryptedClientSecret }),
      secretParameters: ["encryptedClientSecret"],
    },
  ],
  policy: { resource: "AUTH", action: "UPDATE" },
  async handler(context, params) {
    const record = await requireCredential(context, params.oauth2CredentialId, "parameters.oauth2CredentialId");
    await context.data.put("oauth2Credentials", {
      ...record,
      provider: params.provider,
      clientId: params.clientId,
      sealedClientSecret: sealClientSecret(context, params, record.id),
      encryptedClientSecret: params.encryptedClientSecret,
      updatedAtMs: context.now,
    });
    return { oauth2CredentialId: record.id };
  },
});

export const deleteOauth2Credential = defineActivity({
  method: "deleteOauth2Credential",
  path: "delete_oauth2_credential",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL",
      intent: "deleteOauth2CredentialIntent",
      result: "deleteOauth2CredentialResult",
      parameters: v.object({ oauth2CredentialId: id }),
    },
  ],
  policy: { resource: "AUTH", action: "DELETE" },
  async handler(context, params) {
    const record = await requireCredential(context, params.oauth2CredentialId, "parameters.oauth2CredentialId");
    await context.data.delete("oauth2Credentials", record.id);
    return { oauth2CredentialId: record.id };
  },
});

export const oauth2Authenticate = defineActivity({
  method: "oauth2Authenticate",
  path: "oauth2_authenticate",
  versions: [
    {
      type: "ACTIVITY_TYPE_OAUTH2_AUTHENTICATE",
      intent: "oauth2AuthenticateIntent",
      result: "oauth2AuthenticateResult",
      parameters: v.object({
        oauth2CredentialId: id,
        authCode: text(2048),
        redirectUri: text(2048),
        codeVerifier: text(256),
        nonce: text(256),
        bearerTokenTargetPublicKey: v.optional(text(256)),
      }),
      secretParameters: ["authCode", "codeVerifier"],
      secretResults: ["oidcToken"],
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  async handler(context, params) {
    if (params.bearerTokenTargetPublicKey !== undefined) {
      throw new CustodyError(
        "UNIMPLEMENTED",
        "custodian answers the provider's own OIDC token, which cannot carry an encrypted bearer token: leave bearerTokenTargetPublicKey out",
        { field: "parameters.bearerTokenTargetPublicKey", reason: "OAUTH2_BEARER_TOKEN_UNSUPPORTED" },
      );
    }
    const record = await requireCredential(context, params.oauth2CredentialId, "parameters.oauth2CredentialId");
    const secret = context.services.secrets.unseal(record.sealedClientSecret, secretContext(record.id));
    const clientSecret = new TextDecoder().decode(secret);
    secret.fill(0);
    const { oauth2, oidc } = context.services;
    // The exchange waits on the provider: it runs with the transaction closed, and the credential must
    // still be there when the activity is recorded.
    const oidcToken = await context.outsideTransaction(
      async () => {
        const token = await oauth2.exchange({
          provider: record.provider as Oauth2Provider,
          clientId: record.clientId,
          clientSecret,
          authCode: params.authCode,
          redirectUri: params.redirectUri,
          codeVerifier: params.codeVerifier,
        });
        const verified = await oidc.verify(token, context.now, "parameters.authCode");
        const audiences = [verified.payload.aud ?? []].flat();
        if (!audiences.includes(record.clientId)) {
          throw new CustodyError(
            "INVALID_ARGUMENT",
            "the provider's id token was issued to another client than this credential's clientId",
            { field: "parameters.oauth2CredentialId", reason: "OAUTH2_AUDIENCE_MISMATCH" },
          );
        }
        if (verified.payload.nonce !== params.nonce) {
          throw new CustodyError(
            "INVALID_ARGUMENT",
            "the provider's id token carries another nonce: the authorization request was made for another key",
            { field: "parameters.nonce", reason: "OAUTH2_NONCE_MISMATCH" },
          );
        }
        return token;
      },
      async (data) => {
        const still = await data.get("oauth2Credentials", record.id);
        if (still?.organizationId !== record.organizationId) {
          throw new CustodyError("NOT_FOUND", `OAuth 2.0 credential ${record.id} was deleted meanwhile`, {
            field: "parameters.oauth2CredentialId",
          });
        }
      },
    );
    return { oidcToken };
  },
});

export const getOauth2Credential = defineQuery({
  method: "getOauth2Credential",
  path: "get_oauth2_credential",
  request: v.object({ organizationId: id, oauth2CredentialId: id }),
  async handler(context, request) {
    const record = await requireCredential(context, request.oauth2CredentialId, "oauth2CredentialId");
    return { oauth2Credential: render(record) };
  },
});

export const listOauth2Credentials = defineQuery({
  method: "listOauth2Credentials",
  path: "list_oauth2_credentials",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const records = await context.data.listAll("oauth2Credentials", context.organization.id);
    return { oauth2Credentials: records.map(render) };
  },
});
