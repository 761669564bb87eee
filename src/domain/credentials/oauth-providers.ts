/**
 * Registering OAuth providers from verified OIDC tokens or explicit claims.
 *
 * @module
 */

import type * as v from "valibot";
import { CustodyError, invalidArgument } from "../../common/errors.js";
import { INDEX } from "../../model/data.js";
import type { OauthProviderRecord, UserRecord } from "../../model/records.js";
import type { CredentialWriteContext } from "./common.js";
import { LIMITS, type oauthProviderParamsV2 } from "./params.js";

/** OAuth provider parameters of either version: V1 carries a token, V2 a token or the claims themselves. */
export type OauthProviderParams = v.InferOutput<typeof oauthProviderParamsV2>;

/**
 * Registers a user's OAuth providers in request order, those with a token first, so that claims given
 * alongside the token that proves their identity are accepted whatever their place in the list. Returns
 * the records in request order.
 */
export async function addOauthProviders(
  context: CredentialWriteContext,
  user: UserRecord,
  providers: readonly OauthProviderParams[],
  field: string,
): Promise<OauthProviderRecord[]> {
  const added: OauthProviderRecord[] = [];
  const order = [...providers.keys()].sort(
    (a, b) => Number(providers[a]?.oidcToken === undefined) - Number(providers[b]?.oidcToken === undefined),
  );
  for (const i of order) {
    added[i] = await addOauthProvider(context, user, providers[i] as OauthProviderParams, `${field}[${i}]`);
  }
  return added;
}

/**
 * Registers an OAuth provider for a user under the (iss, aud, sub) of a verified OIDC token, or of explicit
 * claims (V2's `oidcClaims`). Claims without a token follow the hosted service's "verified by association"
 * rule (its cross-platform OAuth example and `addOauthProvider`): they only add an audience to an identity
 * (iss, sub) the same user already proved with a token, so nobody can claim an identity that is another
 * user's, in this organization or any other. One (iss, aud, sub) names at most one provider per
 * organization, and a user holds at most 10 providers.
 */
async function addOauthProvider(
  context: CredentialWriteContext,
  user: UserRecord,
  params: OauthProviderParams,
  field: string,
): Promise<OauthProviderRecord> {
  const claims = await oauthProviderClaims(context, params, field);
  const held = await context.data.listAll("oauthProviders", user.id);
  if (params.oidcToken === undefined) assertIdentityHeld(held, claims, `${field}.oidcClaims`);
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
 * Refuses claims whose (iss, sub) none of the user's providers has: claims carry no proof, so they may only
 * extend an identity the user already holds (whose first provider came from a verified token).
 */
function assertIdentityHeld(
  held: readonly OauthProviderRecord[],
  claims: { iss: string; sub: string },
  field: string,
): void {
  if (held.some((provider) => provider.issuer === claims.iss && provider.subject === claims.sub)) return;
  throw new CustodyError(
    "FAILED_PRECONDITION",
    "oidcClaims without an oidcToken only add an audience to an identity (iss and sub) the user already proved with a token; give the token in the same request or first",
    { field, reason: "OAUTH_CLAIMS_UNVERIFIED" },
  );
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
