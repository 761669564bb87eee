/**
 * User tags: `create_user_tag`, `update_user_tag`, `delete_user_tags`, and the query `list_user_tags`.
 * A tag is a `TagRecord` of type `TAG_TYPE_USER`; membership lives on the user (`UserRecord.tagIds`).
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument, notFound } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import { requireUser } from "../domain/credentials/index.js";
import { type DataReader, INDEX } from "../model/data.js";
import type { TagRecord, UserRecord } from "../model/records.js";
import { renderTag } from "../model/render.js";

/** Tags per organization, of every type (docs/spec/wire-protocol.md §7: 100, or 10 in a sub-organization). */
const MAX_TAGS = { organization: 100, subOrganization: 10 } as const;

const userIds = list(id, 100);

/** Refuses an id listed twice, naming where it repeats. */
function assertDistinct(ids: readonly string[], field: string): void {
  for (const [i, value] of ids.entries()) {
    if (ids.indexOf(value) !== i) throw invalidArgument(`${value} is listed twice`, `${field}[${i}]`);
  }
}

/** A user tag of the organization (not a private-key tag), or NOT_FOUND naming `field`. */
async function requireUserTag(data: DataReader, organizationId: string, tagId: string, field: string) {
  const tag = await data.get("tags", tagId);
  if (!tag || tag.organizationId !== organizationId || tag.tagType !== "TAG_TYPE_USER") {
    throw notFound("user tag", tagId, field);
  }
  return tag;
}

/** The user tags named by `tagIds`, each a user tag of the organization, or NOT_FOUND naming the entry. */
export async function requireUserTags(
  data: DataReader,
  organizationId: string,
  tagIds: readonly string[],
  field: string,
): Promise<TagRecord[]> {
  assertDistinct(tagIds, field);
  const tags: TagRecord[] = [];
  for (const [i, tagId] of tagIds.entries())
    tags.push(await requireUserTag(data, organizationId, tagId, `${field}[${i}]`));
  return tags;
}

async function requireUsers(
  data: DataReader,
  organizationId: string,
  ids: readonly string[],
  field: string,
): Promise<UserRecord[]> {
  assertDistinct(ids, field);
  const users: UserRecord[] = [];
  for (const [i, userId] of ids.entries())
    users.push(await requireUser(data, organizationId, userId, `${field}[${i}]`));
  return users;
}

async function assertTagNameFree(data: DataReader, organizationId: string, tagName: string, field: string) {
  if ((await data.lookup("tagByName", INDEX.tagByName(organizationId, "TAG_TYPE_USER", tagName))) !== undefined) {
    throw new CustodyError("ALREADY_EXISTS", `a user tag named ${tagName} already exists`, {
      field,
      reason: "TAG_NAME_EXISTS",
    });
  }
}

export const createUserTag = defineActivity({
  method: "createUserTag",
  path: "create_user_tag",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      intent: "createUserTagIntent",
      result: "createUserTagResult",
      parameters: v.object({ userTagName: name, userIds }),
    },
  ],
  policy: { resource: "USER", action: "CREATE" },
  readsAhead: (data, params, organizationId) =>
    Promise.all([
      data.listAll("tags", organizationId),
      data.lookup("tagByName", INDEX.tagByName(organizationId, "TAG_TYPE_USER", params.userTagName)),
    ]),
  async handler(context, params) {
    const { data, organization } = context;
    const limit = organization.parentOrganizationId === null ? MAX_TAGS.organization : MAX_TAGS.subOrganization;
    if ((await data.listAll("tags", organization.id)).length >= limit) {
      throw new CustodyError("RESOURCE_EXHAUSTED", `this organization holds at most ${limit} tags`, {
        field: "parameters.userTagName",
        reason: "TAG_LIMIT_EXCEEDED",
        limit,
      });
    }
    await assertTagNameFree(data, organization.id, params.userTagName, "parameters.userTagName");
    const members = await requireUsers(data, organization.id, params.userIds, "parameters.userIds");
    const tag: TagRecord = {
      id: context.newId(),
      organizationId: organization.id,
      tagName: params.userTagName,
      tagType: "TAG_TYPE_USER",
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await data.put("tags", tag);
    for (const user of members) {
      await data.put("users", { ...user, tagIds: [...user.tagIds, tag.id], updatedAtMs: context.now });
    }
    return { userTagId: tag.id, userIds: members.map((user) => user.id) };
  },
});

export const updateUserTag = defineActivity({
  method: "updateUserTag",
  path: "update_user_tag",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_USER_TAG",
      intent: "updateUserTagIntent",
      result: "updateUserTagResult",
      parameters: v.object({
        userTagId: id,
        newUserTagName: v.optional(name),
        addUserIds: userIds,
        removeUserIds: userIds,
      }),
    },
  ],
  policy: { resource: "USER", action: "UPDATE" },
  // Rename, additions and removals all happen or none: every id is checked before the first write.
  async handler(context, params) {
    const { data, organization, now } = context;
    const tag = await requireUserTag(data, organization.id, params.userTagId, "parameters.userTagId");
    const adding = await requireUsers(data, organization.id, params.addUserIds, "parameters.addUserIds");
    const removing = await requireUsers(data, organization.id, params.removeUserIds, "parameters.removeUserIds");
    const both = params.removeUserIds.findIndex((userId) => params.addUserIds.includes(userId));
    if (both !== -1) {
      throw invalidArgument(
        `user ${params.removeUserIds[both]} is both added and removed`,
        `parameters.removeUserIds[${both}]`,
      );
    }
    const rename = params.newUserTagName !== undefined && params.newUserTagName !== tag.tagName;
    if (rename)
      await assertTagNameFree(data, organization.id, params.newUserTagName as string, "parameters.newUserTagName");

    await data.put("tags", { ...tag, tagName: params.newUserTagName ?? tag.tagName, updatedAtMs: now });
    for (const user of adding) {
      if (!user.tagIds.includes(tag.id)) {
        await data.put("users", { ...user, tagIds: [...user.tagIds, tag.id], updatedAtMs: now });
      }
    }
    for (const user of removing) {
      if (user.tagIds.includes(tag.id)) {
        await data.put("users", { ...user, tagIds: user.tagIds.filter((tagId) => tagId !== tag.id), updatedAtMs: now });
      }
    }
    return { userTagId: tag.id };
  },
});

export const deleteUserTags = defineActivity({
  method: "deleteUserTags",
  path: "delete_user_tags",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_USER_TAGS",
      intent: "deleteUserTagsIntent",
      result: "deleteUserTagsResult",
      parameters: v.object({ userTagIds: v.pipe(list(id, 100), v.minLength(1, "needs at least one tag id")) }),
    },
  ],
  policy: { resource: "USER", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    const tags = await requireUserTags(data, organization.id, params.userTagIds, "parameters.userTagIds");
    const deleted = new Set(tags.map((tag) => tag.id));
    const untagged: string[] = [];
    for (const user of await data.listAll("users", organization.id)) {
      if (!user.tagIds.some((tagId) => deleted.has(tagId))) continue;
      const tagIds = user.tagIds.filter((tagId) => !deleted.has(tagId));
      await data.put("users", { ...user, tagIds, updatedAtMs: context.now });
      untagged.push(user.id);
    }
    for (const tag of tags) await data.delete("tags", tag.id);
    return { userTagIds: tags.map((tag) => tag.id), userIds: untagged };
  },
});

export const listUserTags = defineQuery({
  method: "listUserTags",
  path: "list_user_tags",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const tags = await context.data.listAll("tags", context.organization.id);
    return { userTags: tags.filter((tag) => tag.tagType === "TAG_TYPE_USER").map(renderTag) };
  },
});
