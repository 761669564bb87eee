/**
 * OAuth providers: `create_oauth_providers`, `delete_oauth_providers`, and the query `get_oauth_providers`.
 * A provider is the (issuer, audience, subject) of an OIDC identity that may later log a user in.
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument, notFound } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list } from "../contract/schema.js";
import {
  addOauthProviders,
  LIMITS,
  oauthProviderParamsV1,
  oauthProviderParamsV2,
  requireUser,
} from "../domain/credentials/index.js";
import type { OauthProviderRecord } from "../model/records.js";
import { renderOauthProvider } from "../model/render.js";

function providersParams<P extends typeof oauthProviderParamsV2 | typeof oauthProviderParamsV1>(provider: P) {
  return v.object({
    userId: id,
    oauthProviders: v.pipe(
      list(provider, LIMITS.oauthProvidersPerUser),
      v.minLength(1, "needs at least one OAuth provider"),
    ),
  });
}

export const createOauthProviders = defineActivity({
  method: "createOauthProviders",
  path: "create_oauth_providers",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2",
      intent: "createOauthProvidersIntentV2",
      result: "createOauthProvidersResultV2",
      parameters: providersParams(oauthProviderParamsV2),
    },
    {
      type: "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS",
      intent: "createOauthProvidersIntent",
      result: "createOauthProvidersResult",
      parameters: providersParams(oauthProviderParamsV1),
    },
  ],
  policy: { resource: "CREDENTIAL", action: "CREATE" },
  async handler(context, params) {
    const user = await requireUser(context.data, context.organization.id, params.userId, "parameters.userId");
    const added = await addOauthProviders(context, user, params.oauthProviders, "parameters.oauthProviders");
    return { providerIds: added.map((provider) => provider.id) };
  },
});

export const deleteOauthProviders = defineActivity({
  method: "deleteOauthProviders",
  path: "delete_oauth_providers",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS",
      intent: "deleteOauthProvidersIntent",
      result: "deleteOauthProvidersResult",
      parameters: v.object({
        userId: id,
        providerIds: v.pipe(list(id, LIMITS.oauthProvidersPerUser), v.minLength(1, "needs at least one provider id")),
      }),
    },
  ],
  policy: { resource: "CREDENTIAL", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    const user = await requireUser(data, organization.id, params.userId, "parameters.userId");
    const providers: OauthProviderRecord[] = [];
    for (const [i, providerId] of params.providerIds.entries()) {
      const field = `parameters.providerIds[${i}]`;
      if (params.providerIds.indexOf(providerId) !== i) {
        throw invalidArgument(`OAuth provider ${providerId} is listed twice`, field);
      }
      const provider = await data.get("oauthProviders", providerId);
      // A provider of another user is not found for this one: the policy decision covered `userId` only.
      if (!provider || provider.userId !== user.id) throw notFound("OAuth provider", providerId, field);
      providers.push(provider);
    }
    for (const provider of providers) await data.delete("oauthProviders", provider.id);
    return { providerIds: providers.map((provider) => provider.id) };
  },
});

export const getOauthProviders = defineQuery({
  method: "getOauthProviders",
  path: "get_oauth_providers",
  request: v.object({ organizationId: id, userId: v.optional(id) }),
  // Without `userId`, every provider of the organization, user by user.
  async handler(context, request) {
    const { data, organization } = context;
    const users =
      request.userId === undefined
        ? await data.listAll("users", organization.id)
        : [await requireUser(data, organization.id, request.userId, "userId")];
    const providers = await Promise.all(users.map((user) => data.listAll("oauthProviders", user.id)));
    return { oauthProviders: providers.flat().map(renderOauthProvider) };
  },
});
