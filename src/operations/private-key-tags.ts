/**
 * Private-key tags: `create_private_key_tag`, `update_private_key_tag`, `delete_private_key_tags` and the
 * query `list_private_key_tags`. A tag is a `TagRecord` of type `TAG_TYPE_PRIVATE_KEY`; membership is kept on
 * the keys (`PrivateKeyRecord.tagIds`).
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import { type DataReader, INDEX } from "../model/data.js";
import type { PrivateKeyRecord, TagRecord } from "../model/records.js";
import { renderTag } from "../model/render.js";
import { MAX_PRIVATE_KEYS_PER_ORGANIZATION, requireKeyTag, requirePrivateKey } from "./private-keys.js";

/** Resolves tag members, refusing unknown or foreign private keys by field. */
async function requireKeys(
  data: DataReader,
  organizationId: string,
  ids: readonly string[],
  field: string,
): Promise<PrivateKeyRecord[]> {
  const keys: PrivateKeyRecord[] = [];
  for (const [i, keyId] of ids.entries())
    keys.push(await requirePrivateKey(data, organizationId, keyId, `${field}[${i}]`));
  return keys;
}

async function assertUniqueTagName(
  data: DataReader,
  organizationId: string,
  tagName: string,
  field: string,
): Promise<void> {
  if (await data.lookup("tagByName", INDEX.tagByName(organizationId, "TAG_TYPE_PRIVATE_KEY", tagName))) {
    throw new CustodyError("ALREADY_EXISTS", `a private key tag named ${tagName} already exists`, {
      field,
      reason: "TAG_NAME_EXISTS",
    });
  }
}

export const createPrivateKeyTag = defineActivity({
  method: "createPrivateKeyTag",
  path: "create_private_key_tag",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG",
      intent: "createPrivateKeyTagIntent",
      result: "createPrivateKeyTagResult",
      parameters: v.object({ privateKeyTagName: name, privateKeyIds: list(id, MAX_PRIVATE_KEYS_PER_ORGANIZATION) }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "CREATE" },
  readsAhead: (data, params, organizationId) =>
    data.lookup("tagByName", INDEX.tagByName(organizationId, "TAG_TYPE_PRIVATE_KEY", params.privateKeyTagName)),
  async handler(context, params) {
    const { data, organization } = context;
    await assertUniqueTagName(data, organization.id, params.privateKeyTagName, "parameters.privateKeyTagName");
    const keys = await requireKeys(data, organization.id, params.privateKeyIds, "parameters.privateKeyIds");
    const tag: TagRecord = {
      id: context.newId(),
      organizationId: organization.id,
      tagName: params.privateKeyTagName,
      tagType: "TAG_TYPE_PRIVATE_KEY",
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await data.put("tags", tag);
    for (const key of keys) {
      if (!key.tagIds.includes(tag.id))
        await data.put("privateKeys", { ...key, tagIds: [...key.tagIds, tag.id], updatedAtMs: context.now });
    }
    return { privateKeyTagId: tag.id, privateKeyIds: keys.map((key) => key.id) };
  },
});

export const updatePrivateKeyTag = defineActivity({
  method: "updatePrivateKeyTag",
  path: "update_private_key_tag",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG",
      intent: "updatePrivateKeyTagIntent",
      result: "updatePrivateKeyTagResult",
      parameters: v.object({
        privateKeyTagId: id,
        newPrivateKeyTagName: v.optional(name),
        addPrivateKeyIds: list(id, MAX_PRIVATE_KEYS_PER_ORGANIZATION),
        removePrivateKeyIds: list(id, MAX_PRIVATE_KEYS_PER_ORGANIZATION),
      }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "UPDATE" },
  // All of rename, add and remove happen, or none: every id is checked before the first write, and the
  // activity's transaction rolls back anything a later failure would leave half done.
  async handler(context, params) {
    const { data, organization } = context;
    const tag = await requireKeyTag(data, organization.id, params.privateKeyTagId, "parameters.privateKeyTagId");
    const adding = await requireKeys(data, organization.id, params.addPrivateKeyIds, "parameters.addPrivateKeyIds");
    const removing = await requireKeys(
      data,
      organization.id,
      params.removePrivateKeyIds,
      "parameters.removePrivateKeyIds",
    );
    const rename = params.newPrivateKeyTagName !== undefined && params.newPrivateKeyTagName !== tag.tagName;
    if (rename)
      await assertUniqueTagName(
        data,
        organization.id,
        params.newPrivateKeyTagName as string,
        "parameters.newPrivateKeyTagName",
      );
    const overlap = adding.find((key) => params.removePrivateKeyIds.includes(key.id));
    if (overlap) {
      throw new CustodyError("INVALID_ARGUMENT", `private key ${overlap.id} is both added and removed`, {
        field: "parameters.removePrivateKeyIds",
      });
    }
    if (rename)
      await data.put("tags", { ...tag, tagName: params.newPrivateKeyTagName as string, updatedAtMs: context.now });
    for (const key of adding) {
      if (!key.tagIds.includes(tag.id))
        await data.put("privateKeys", { ...key, tagIds: [...key.tagIds, tag.id], updatedAtMs: context.now });
    }
    for (const key of removing) {
      if (key.tagIds.includes(tag.id)) {
        await data.put("privateKeys", {
          ...key,
          tagIds: key.tagIds.filter((t) => t !== tag.id),
          updatedAtMs: context.now,
        });
      }
    }
    return { privateKeyTagId: tag.id };
  },
});

export const deletePrivateKeyTags = defineActivity({
  method: "deletePrivateKeyTags",
  path: "delete_private_key_tags",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS",
      intent: "deletePrivateKeyTagsIntent",
      result: "deletePrivateKeyTagsResult",
      parameters: v.object({ privateKeyTagIds: v.pipe(list(id, 100), v.minLength(1, "needs at least one tag id")) }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    const tags: TagRecord[] = [];
    for (const [i, tagId] of params.privateKeyTagIds.entries())
      tags.push(await requireKeyTag(data, organization.id, tagId, `parameters.privateKeyTagIds[${i}]`));
    const doomed = new Set(tags.map((tag) => tag.id));
    const untagged: string[] = [];
    for (const key of await data.listAll("privateKeys", organization.id)) {
      if (!key.tagIds.some((tagId) => doomed.has(tagId))) continue;
      await data.put("privateKeys", {
        ...key,
        tagIds: key.tagIds.filter((tagId) => !doomed.has(tagId)),
        updatedAtMs: context.now,
      });
      untagged.push(key.id);
    }
    for (const tag of tags) await data.delete("tags", tag.id);
    return { privateKeyTagIds: tags.map((tag) => tag.id), privateKeyIds: untagged };
  },
});

export const listPrivateKeyTags = defineQuery({
  method: "listPrivateKeyTags",
  path: "list_private_key_tags",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const tags = await context.data.listAll("tags", context.organization.id);
    return { privateKeyTags: tags.filter((tag) => tag.tagType === "TAG_TYPE_PRIVATE_KEY").map(renderTag) };
  },
});
