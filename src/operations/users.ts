/**
 * Users: `create_users`, `update_user`, `update_user_name`, `update_user_email`, `update_user_phone_number`,
 * `delete_users`, and the queries `get_user` and `list_users`.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import {
  createUserWithCredentials,
  removeUser,
  requireUser,
  rootUserParamsV4,
  rootUserParamsV5,
  userEmail,
  userPhoneNumber,
} from "../domain/credentials/index.js";
import type { DataWriter } from "../model/data.js";
import type { OrganizationRecord, UserRecord } from "../model/records.js";
import { renderUser } from "../model/render.js";
import { requireUserTags } from "./user-tags.js";

/** Users per organization (docs/spec/wire-protocol.md §7, resource limits). */
export const MAX_USERS_PER_ORGANIZATION = 100;

const userTags = list(id, 100);

/** `v1UserParamsV4` (create_users V4) and `v1UserParamsV3` (V3, whose OAuth providers carry a token). */
const userParamsV4 = v.object({ ...rootUserParamsV5.entries, userTags });
const userParamsV3 = v.object({ ...rootUserParamsV4.entries, userTags });

function usersList<S extends typeof userParamsV4 | typeof userParamsV3>(user: S) {
  return v.object({
    users: v.pipe(list(user, MAX_USERS_PER_ORGANIZATION), v.minLength(1, "needs at least one user")),
  });
}

export const createUsers = defineActivity({
  method: "createUsers",
  path: "create_users",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      intent: "createUsersIntentV4",
      result: "createUsersResult",
      parameters: usersList(userParamsV4),
    },
    {
      type: "ACTIVITY_TYPE_CREATE_USERS_V3",
      intent: "createUsersIntentV3",
      result: "createUsersResult",
      parameters: usersList(userParamsV3),
    },
  ],
  policy: { resource: "USER", action: "CREATE" },
  async handler(context, params) {
    const { data, organization } = context;
    const existing = await data.listAll("users", organization.id);
    if (existing.length + params.users.length > MAX_USERS_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${MAX_USERS_PER_ORGANIZATION} users`,
        {
          field: "parameters.users",
          reason: "USER_LIMIT_EXCEEDED",
          limit: MAX_USERS_PER_ORGANIZATION,
        },
      );
    }
    const userIds: string[] = [];
    for (const [i, userParams] of params.users.entries()) {
      const field = `parameters.users[${i}]`;
      const tags = await requireUserTags(data, organization.id, userParams.userTags, `${field}.userTags`);
      const user = await createUserWithCredentials(context, organization.id, userParams, field);
      if (tags.length > 0) await data.put("users", { ...user, tagIds: tags.map((tag) => tag.id) });
      userIds.push(user.id);
    }
    return { userIds };
  },
});

/** Applies `changes` to a user of the organization and stamps the update time. */
async function applyUserChanges(
  data: DataWriter,
  organization: OrganizationRecord,
  userId: string,
  now: number,
  changes: Partial<Pick<UserRecord, "userName" | "userEmail" | "userPhoneNumber" | "tagIds">>,
): Promise<{ userId: string }> {
  const user = await requireUser(data, organization.id, userId, "parameters.userId");
  await data.put("users", { ...user, ...changes, updatedAtMs: now });
  return { userId: user.id };
}

/**
 * Refuses a verification token: contact changes verified by one-time codes need an OTP service, which this
 * engine does not run, and an unchecked token must not pass for a checked one.
 */
function refuseVerificationToken(token: string | undefined): void {
  if (token !== undefined) {
    throw invalidArgument(
      "verificationToken needs an OTP verification service, which this engine does not run",
      "parameters.verificationToken",
    );
  }
}

export const updateUser = defineActivity({
  method: "updateUser",
  path: "update_user",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_USER",
      intent: "updateUserIntent",
      result: "updateUserResult",
      parameters: v.object({
        userId: id,
        userName: v.optional(name),
        userEmail: v.optional(userEmail),
        userTagIds: v.optional(userTags),
        userPhoneNumber: v.optional(userPhoneNumber),
      }),
    },
  ],
  policy: { resource: "USER", action: "UPDATE" },
  async handler(context, params) {
    const { data, organization } = context;
    // `userTagIds`, when given, is the user's whole tag list: tags left out are removed.
    const tags =
      params.userTagIds === undefined
        ? undefined
        : await requireUserTags(data, organization.id, params.userTagIds, "parameters.userTagIds");
    return applyUserChanges(data, organization, params.userId, context.now, {
      ...(params.userName === undefined ? {} : { userName: params.userName }),
      ...(params.userEmail === undefined ? {} : { userEmail: params.userEmail }),
      ...(params.userPhoneNumber === undefined ? {} : { userPhoneNumber: params.userPhoneNumber }),
      ...(tags === undefined ? {} : { tagIds: tags.map((tag) => tag.id) }),
    });
  },
});

export const updateUserName = defineActivity({
  method: "updateUserName",
  path: "update_user_name",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_USER_NAME",
      intent: "updateUserNameIntent",
      result: "updateUserNameResult",
      parameters: v.object({ userId: id, userName: name }),
    },
  ],
  policy: { resource: "USER", action: "UPDATE" },
  async handler(context, params) {
    return applyUserChanges(context.data, context.organization, params.userId, context.now, {
      userName: params.userName,
    });
  },
});

export const updateUserEmail = defineActivity({
  method: "updateUserEmail",
  path: "update_user_email",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_USER_EMAIL",
      intent: "updateUserEmailIntent",
      result: "updateUserEmailResult",
      parameters: v.object({
        userId: id,
        userEmail,
        verificationToken: v.optional(v.string()),
      }),
    },
  ],
  policy: { resource: "USER", action: "UPDATE" },
  async handler(context, params) {
    refuseVerificationToken(params.verificationToken);
    return applyUserChanges(context.data, context.organization, params.userId, context.now, {
      userEmail: params.userEmail,
    });
  },
});

export const updateUserPhoneNumber = defineActivity({
  method: "updateUserPhoneNumber",
  path: "update_user_phone_number",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER",
      intent: "updateUserPhoneNumberIntent",
      result: "updateUserPhoneNumberResult",
      parameters: v.object({
        userId: id,
        userPhoneNumber,
        verificationToken: v.optional(v.string()),
      }),
    },
  ],
  policy: { resource: "USER", action: "UPDATE" },
  async handler(context, params) {
    refuseVerificationToken(params.verificationToken);
    return applyUserChanges(context.data, context.organization, params.userId, context.now, {
      userPhoneNumber: params.userPhoneNumber,
    });
  },
});

export const deleteUsers = defineActivity({
  method: "deleteUsers",
  path: "delete_users",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_USERS",
      intent: "deleteUsersIntent",
      result: "deleteUsersResult",
      parameters: v.object({
        userIds: v.pipe(list(id, MAX_USERS_PER_ORGANIZATION), v.minLength(1, "needs at least one user id")),
      }),
    },
  ],
  policy: { resource: "USER", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    const users: UserRecord[] = [];
    for (const [i, userId] of params.userIds.entries()) {
      const field = `parameters.userIds[${i}]`;
      if (params.userIds.indexOf(userId) !== i) throw invalidArgument(`user ${userId} is listed twice`, field);
      users.push(await requireUser(data, organization.id, userId, field));
    }
    const deleted = new Set(params.userIds);
    const { rootQuorum } = organization;
    const remainingRoot = rootQuorum.userIds.filter((userId) => !deleted.has(userId));
    if (remainingRoot.length < rootQuorum.threshold) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `deleting these users would leave ${remainingRoot.length} root users for a root quorum threshold of ${rootQuorum.threshold}`,
        { field: "parameters.userIds", reason: "ROOT_QUORUM_BROKEN" },
      );
    }
    for (const user of users) await removeUser(data, user);
    if (remainingRoot.length !== rootQuorum.userIds.length) {
      await data.put("organizations", {
        ...organization,
        rootQuorum: { threshold: rootQuorum.threshold, userIds: remainingRoot },
        updatedAtMs: context.now,
      });
    }
    return { userIds: users.map((user) => user.id) };
  },
});

export const getUser = defineQuery({
  method: "getUser",
  path: "get_user",
  request: v.object({ organizationId: id, userId: id }),
  async handler(context, request) {
    const user = await requireUser(context.data, context.organization.id, request.userId, "userId");
    return { user: await renderUser(context.data, user) };
  },
});

export const getUsers = defineQuery({
  method: "getUsers",
  path: "list_users",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const users = await context.data.listAll("users", context.organization.id);
    return { users: await Promise.all(users.map((user) => renderUser(context.data, user))) };
  },
});
