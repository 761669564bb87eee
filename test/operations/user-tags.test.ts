/**
 * User tags through the engine: create with members, the atomic update (rename, add, remove, or nothing),
 * delete (reporting the users that lost a tag), the list, and their separation from private-key tags.
 */
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { engineWithOrganization, subOrganizationParameters } from "../support/engine.js";

/** An organization with three users besides root. */
async function withUsers() {
  const setup = await engineWithOrganization();
  const { activity } = await setup.root.createUsers({
    organizationId: setup.organizationId,
    parameters: {
      users: ["ann", "ben", "cat"].map((userName) => ({
        userName,
        apiKeys: [],
        authenticators: [],
        oauthProviders: [],
        userTags: [],
      })),
    },
  });
  const [ann, ben, cat] = (activity.result!.createUsersResult as { userIds: string[] }).userIds as [
    string,
    string,
    string,
  ];
  return { ...setup, ann, ben, cat };
}

async function tagsOf(root: CustodyEngine, organizationId: string, userId: string): Promise<string[]> {
  return (await root.getUser({ organizationId, userId })).user.userTags;
}

async function createTag(root: CustodyEngine, organizationId: string, userTagName: string, userIds: string[]) {
  const { activity } = await root.createUserTag({ organizationId, parameters: { userTagName, userIds } });
  return (activity.result!.createUserTagResult as { userTagId: string }).userTagId;
}

describe("create_user_tag and list_user_tags", () => {
  it("creates a tag with its members and lists it as a datav1Tag", async () => {
    const { root, organizationId, ann, ben } = await withUsers();
    const { activity } = await root.createUserTag({
      organizationId,
      parameters: { userTagName: "approvers", userIds: [ann, ben] },
    });
    const result = activity.result!.createUserTagResult as { userTagId: string; userIds: string[] };
    expect(result.userIds).toEqual([ann, ben]);
    expect(await tagsOf(root, organizationId, ann)).toEqual([result.userTagId]);
    expect((await root.listUserTags({ organizationId })).userTags).toEqual([
      {
        tagId: result.userTagId,
        tagName: "approvers",
        tagType: "TAG_TYPE_USER",
        createdAt: expect.any(Object),
        updatedAt: expect.any(Object),
      },
    ]);
    const { organizationData } = await root.getOrganization({ organizationId });
    expect(organizationData.tags).toEqual((await root.listUserTags({ organizationId })).userTags);
  });

  it("refuses unknown users, a repeated user and a taken name, creating nothing", async () => {
    const { root, organizationId, ann } = await withUsers();
    await createTag(root, organizationId, "taken", []);
    await refusal(
      root.createUserTag({ organizationId, parameters: { userTagName: "t", userIds: [ann, "ghost"] } }),
      "NOT_FOUND",
      "parameters.userIds[1]",
    );
    await refusal(
      root.createUserTag({ organizationId, parameters: { userTagName: "t", userIds: [ann, ann] } }),
      "INVALID_ARGUMENT",
      "parameters.userIds[1]",
    );
    const taken = await refusal(
      root.createUserTag({ organizationId, parameters: { userTagName: "taken", userIds: [] } }),
      "ALREADY_EXISTS",
      "parameters.userTagName",
    );
    expect(taken.details.reason).toBe("TAG_NAME_EXISTS");
    expect((await root.listUserTags({ organizationId })).userTags.map((t) => t.tagName)).toEqual(["taken"]);
    expect(await tagsOf(root, organizationId, ann)).toEqual([]);
  });

  it("holds at most 10 tags in a sub-organization", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters() });
    const { subOrganizationId } = activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string };
    // The parent's credentials may not write into the sub-organization, so its own root does.
    const [subRootId] = (activity.result!.createSubOrganizationResultV8 as { rootUserIds: string[] }).rootUserIds;
    expect(subRootId).toBeDefined();
    const subRoot = root.as({ userId: subRootId as string });
    for (let i = 0; i < 10; i++) await createTag(subRoot, subOrganizationId, `t${i}`, []);
    await refusal(createTag(subRoot, subOrganizationId, "t10", []), "RESOURCE_EXHAUSTED", "parameters.userTagName");
  });
});

describe("update_user_tag", () => {
  it("renames, adds and removes in one activity", async () => {
    const { root, organizationId, ann, ben, cat } = await withUsers();
    const tagId = await createTag(root, organizationId, "old", [ann, ben]);
    const { activity } = await root.updateUserTag({
      organizationId,
      parameters: { userTagId: tagId, newUserTagName: "new", addUserIds: [cat], removeUserIds: [ann] },
    });
    expect(activity.result).toEqual({ updateUserTagResult: { userTagId: tagId } });
    expect((await root.listUserTags({ organizationId })).userTags.map((t) => t.tagName)).toEqual(["new"]);
    expect(await tagsOf(root, organizationId, ann)).toEqual([]);
    expect(await tagsOf(root, organizationId, ben)).toEqual([tagId]);
    expect(await tagsOf(root, organizationId, cat)).toEqual([tagId]);
  });

  it("changes nothing when any id is unknown, a user is both added and removed, or the name is taken", async () => {
    const { root, organizationId, ann, ben, cat } = await withUsers();
    const tagId = await createTag(root, organizationId, "team", [ann]);
    await createTag(root, organizationId, "other", []);
    const attempts: { parameters: Record<string, unknown>; code: string; field: string }[] = [
      {
        parameters: { newUserTagName: "renamed", addUserIds: [ben, "ghost"], removeUserIds: [ann] },
        code: "NOT_FOUND",
        field: "parameters.addUserIds[1]",
      },
      {
        parameters: { newUserTagName: "renamed", addUserIds: [cat], removeUserIds: ["ghost"] },
        code: "NOT_FOUND",
        field: "parameters.removeUserIds[0]",
      },
      {
        parameters: { addUserIds: [ben], removeUserIds: [ben] },
        code: "INVALID_ARGUMENT",
        field: "parameters.removeUserIds[0]",
      },
      {
        parameters: { newUserTagName: "other", addUserIds: [ben], removeUserIds: [ann] },
        code: "ALREADY_EXISTS",
        field: "parameters.newUserTagName",
      },
    ];
    for (const attempt of attempts) {
      await refusal(
        root.updateUserTag({
          organizationId,
          parameters: { userTagId: tagId, addUserIds: [], removeUserIds: [], ...attempt.parameters },
        }),
        attempt.code,
        attempt.field,
      );
    }
    await refusal(
      root.updateUserTag({ organizationId, parameters: { userTagId: "ghost", addUserIds: [], removeUserIds: [] } }),
      "NOT_FOUND",
      "parameters.userTagId",
    );
    expect((await root.listUserTags({ organizationId })).userTags.map((t) => t.tagName)).toEqual(["team", "other"]);
    expect(await tagsOf(root, organizationId, ann)).toEqual([tagId]);
    expect(await tagsOf(root, organizationId, ben)).toEqual([]);
    expect(await tagsOf(root, organizationId, cat)).toEqual([]);
  });
});

describe("delete_user_tags", () => {
  it("deletes tags and reports the users that lost them", async () => {
    const { root, organizationId, ann, ben, cat } = await withUsers();
    const first = await createTag(root, organizationId, "first", [ann]);
    const second = await createTag(root, organizationId, "second", [ann, ben]);
    const kept = await createTag(root, organizationId, "kept", [cat]);
    const { activity } = await root.deleteUserTags({ organizationId, parameters: { userTagIds: [first, second] } });
    expect(activity.result).toEqual({ deleteUserTagsResult: { userTagIds: [first, second], userIds: [ann, ben] } });
    expect((await root.listUserTags({ organizationId })).userTags.map((t) => t.tagId)).toEqual([kept]);
    expect(await tagsOf(root, organizationId, ann)).toEqual([]);
    expect(await tagsOf(root, organizationId, cat)).toEqual([kept]);
  });

  it("refuses an unknown tag and deletes nothing", async () => {
    const { root, organizationId, ann } = await withUsers();
    const tagId = await createTag(root, organizationId, "t", [ann]);
    await refusal(
      root.deleteUserTags({ organizationId, parameters: { userTagIds: [tagId, "ghost"] } }),
      "NOT_FOUND",
      "parameters.userTagIds[1]",
    );
    expect(await tagsOf(root, organizationId, ann)).toEqual([tagId]);
  });
});

describe("user tags and private-key tags", () => {
  it("keeps the two kinds apart: same names allowed, ids not interchangeable", async () => {
    const { root, organizationId, ann } = await withUsers();
    const userTagId = await createTag(root, organizationId, "shared name", [ann]);
    const keyTag = await root.createPrivateKeyTag({
      organizationId,
      parameters: { privateKeyTagName: "shared name", privateKeyIds: [] },
    });
    const { privateKeyTagId } = keyTag.activity.result!.createPrivateKeyTagResult as { privateKeyTagId: string };
    await refusal(
      root.updateUserTag({
        organizationId,
        parameters: { userTagId: privateKeyTagId, addUserIds: [], removeUserIds: [] },
      }),
      "NOT_FOUND",
      "parameters.userTagId",
    );
    await refusal(
      root.updateUser({ organizationId, parameters: { userId: ann, userTagIds: [privateKeyTagId] } }),
      "NOT_FOUND",
      "parameters.userTagIds[0]",
    );
    expect((await root.listUserTags({ organizationId })).userTags.map((t) => t.tagId)).toEqual([userTagId]);
  });
});
