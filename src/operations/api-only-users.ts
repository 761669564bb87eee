/**
 * `create_api_only_users`: users that hold only API keys (P-256: `apiApiKeyParams` names no curve), with
 * their tags.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { defineActivity } from "../contract/operation.js";
import { id, int64String, list, name } from "../contract/schema.js";
import { createUserWithCredentials, userEmail } from "../domain/credentials/index.js";
import { requireUserTags } from "./user-tags.js";
import { MAX_USERS_PER_ORGANIZATION } from "./users.js";

const apiOnlyUser = v.object({
  userName: name,
  userEmail: v.optional(userEmail),
  userTags: list(id, 100),
  apiKeys: list(
    v.object({
      apiKeyName: name,
      publicKey: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(200)),
      expirationSeconds: v.optional(int64String),
    }),
    20,
  ),
});

export const createApiOnlyUsers = defineActivity({
  method: "createApiOnlyUsers",
  path: "create_api_only_users",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
      intent: "createApiOnlyUsersIntent",
      result: "createApiOnlyUsersResult",
      parameters: v.object({
        apiOnlyUsers: v.pipe(list(apiOnlyUser, MAX_USERS_PER_ORGANIZATION), v.minLength(1, "needs at least one user")),
      }),
    },
  ],
  policy: { resource: "USER", action: "CREATE" },
  async handler(context, params) {
    const { data, organization } = context;
    const existing = await data.listAll("users", organization.id);
    if (existing.length + params.apiOnlyUsers.length > MAX_USERS_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${MAX_USERS_PER_ORGANIZATION} users`,
        {
          field: "parameters.apiOnlyUsers",
          reason: "USER_LIMIT_EXCEEDED",
          limit: MAX_USERS_PER_ORGANIZATION,
        },
      );
    }
    const userIds: string[] = [];
    for (const [i, userParams] of params.apiOnlyUsers.entries()) {
      const field = `parameters.apiOnlyUsers[${i}]`;
      const tags = await requireUserTags(data, organization.id, userParams.userTags, `${field}.userTags`);
      const user = await createUserWithCredentials(
        context,
        organization.id,
        {
          userName: userParams.userName,
          userEmail: userParams.userEmail,
          apiKeys: userParams.apiKeys.map((key) => ({ ...key, curveType: "API_KEY_CURVE_P256" as const })),
          authenticators: [],
          oauthProviders: [],
        },
        field,
      );
      if (tags.length > 0) await data.put("users", { ...user, tagIds: tags.map((tag) => tag.id) });
      userIds.push(user.id);
    }
    return { userIds };
  },
});
