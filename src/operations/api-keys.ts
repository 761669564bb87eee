/**
 * API keys: `create_api_keys`, `delete_api_keys`, and the queries `get_api_key` and `get_api_keys`.
 * Expired keys stay listed; authentication refuses them.
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument, notFound } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list } from "../contract/schema.js";
import { addApiKeys, apiKeyParams, LIMITS, removeApiKey, requireUser } from "../domain/credentials/index.js";
import type { ApiKeyRecord } from "../model/records.js";
import { renderApiKey } from "../model/render.js";

export const createApiKeys = defineActivity({
  method: "createApiKeys",
  path: "create_api_keys",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
      intent: "createApiKeysIntentV2",
      result: "createApiKeysResult",
      parameters: v.object({
        apiKeys: v.pipe(list(apiKeyParams, LIMITS.apiKeysPerUser), v.minLength(1, "needs at least one API key")),
        userId: id,
      }),
    },
  ],
  policy: { resource: "CREDENTIAL", action: "CREATE" },
  async handler(context, params) {
    const user = await requireUser(context.data, context.organization.id, params.userId, "parameters.userId");
    const keys = await addApiKeys(context, user, params.apiKeys, "parameters.apiKeys");
    return { apiKeyIds: keys.map((key) => key.id) };
  },
});

export const deleteApiKeys = defineActivity({
  method: "deleteApiKeys",
  path: "delete_api_keys",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_API_KEYS",
      intent: "deleteApiKeysIntent",
      result: "deleteApiKeysResult",
      parameters: v.object({
        userId: id,
        apiKeyIds: v.pipe(list(id, LIMITS.apiKeysPerUser), v.minLength(1, "needs at least one API key id")),
      }),
    },
  ],
  policy: { resource: "CREDENTIAL", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    const user = await requireUser(data, organization.id, params.userId, "parameters.userId");
    const keys: ApiKeyRecord[] = [];
    for (const [i, apiKeyId] of params.apiKeyIds.entries()) {
      const field = `parameters.apiKeyIds[${i}]`;
      if (params.apiKeyIds.indexOf(apiKeyId) !== i) throw invalidArgument(`API key ${apiKeyId} is listed twice`, field);
      const key = await data.get("apiKeys", apiKeyId);
      // A key of another user is not found for this one: the policy decision covered `userId` only.
      if (!key || key.userId !== user.id) throw notFound("API key", apiKeyId, field);
      keys.push(key);
    }
    for (const key of keys) await removeApiKey(data, key);
    return { apiKeyIds: keys.map((key) => key.id) };
  },
});

export const getApiKey = defineQuery({
  method: "getApiKey",
  path: "get_api_key",
  request: v.object({ organizationId: id, apiKeyId: id }),
  async handler(context, request) {
    const key = await context.data.requireInOrganization(
      "apiKeys",
      request.apiKeyId,
      context.organization.id,
      "API key",
      "apiKeyId",
    );
    return { apiKey: renderApiKey(key) };
  },
});

export const getApiKeys = defineQuery({
  method: "getApiKeys",
  path: "get_api_keys",
  request: v.object({ organizationId: id, userId: v.optional(id) }),
  // Without `userId`, every API key of the organization, user by user.
  async handler(context, request) {
    const { data, organization } = context;
    const users =
      request.userId === undefined
        ? await data.listAll("users", organization.id)
        : [await requireUser(data, organization.id, request.userId, "userId")];
    const keys = await Promise.all(users.map((user) => data.listAll("apiKeys", user.id)));
    return { apiKeys: keys.flat().map(renderApiKey) };
  },
});
