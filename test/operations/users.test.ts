/**
 * Users through the engine: create (V4 and V3) with every kind of credential and tags, the four updates,
 * delete (root quorum kept, credentials and their locations removed), and the two queries.
 */
import { describe, expect, it } from "vitest";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";
import { NobleApiKeyStamper, passkeyParams } from "../support/signers.js";
import { SoftwareAuthenticator } from "../support/software-authenticator.js";

function userParams(userName: string, overrides: Record<string, unknown> = {}) {
  return {
    userName,
    apiKeys: [
      { apiKeyName: `${userName} key`, publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" as const },
    ],
    authenticators: [],
    oauthProviders: [],
    userTags: [],
    ...overrides,
  };
}

async function createdUserIds(activity: { result: Record<string, unknown> | null }): Promise<string[]> {
  return (activity.result!.createUsersResult as { userIds: string[] }).userIds;
}

describe("create_users", () => {
  it("creates users with API keys, a passkey, an OAuth provider and tags, shown by get_user", async () => {
    const issuer = await TestIssuer.create("https://issuer.test");
    const { root, organizationId } = await engineWithOrganization({
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
    });
    const tag = await root.createUserTag({ organizationId, parameters: { userTagName: "ops", userIds: [] } });
    const userTagId = (tag.activity.result!.createUserTagResult as { userTagId: string }).userTagId;
    const secp = new NobleApiKeyStamper("secp256k1");
    const authenticator = new SoftwareAuthenticator();
    const { activity } = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          {
            userName: "alice",
            userEmail: "alice@acme.test",
            userPhoneNumber: "+14155550100",
            apiKeys: [secp.apiKeyParams()],
            authenticators: [passkeyParams(authenticator, { authenticatorName: "laptop" })],
            oauthProviders: [{ providerName: "google", oidcToken: await issuer.token({ sub: "alice", aud: "app" }) }],
            userTags: [userTagId],
          },
          userParams("bob"),
        ],
      },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.type).toBe("ACTIVITY_TYPE_CREATE_USERS_V4");
    const [aliceId, bobId] = await createdUserIds(activity);
    const { user } = await root.getUser({ organizationId, userId: aliceId as string });
    expect(user).toMatchObject({
      userId: aliceId,
      userName: "alice",
      userEmail: "alice@acme.test",
      userPhoneNumber: "+14155550100",
      userTags: [userTagId],
      apiKeys: [{ credential: { publicKey: secp.publicKey, type: "CREDENTIAL_TYPE_API_KEY_SECP256K1" } }],
      authenticators: [{ authenticatorName: "laptop", credentialId: authenticator.credentialIdBase64Url }],
      oauthProviders: [{ providerName: "google", issuer: "https://issuer.test", audience: "app", subject: "alice" }],
      mfaPolicies: [],
    });
    const { users } = await root.getUsers({ organizationId });
    expect(users.map((u) => u.userName)).toEqual(["root", "alice", "bob"]);
    expect(users[2]?.userId).toBe(bobId);
  });

  it("accepts V3, whose OAuth providers carry a token (and refuses one from an untrusted issuer)", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createUsers({
      organizationId,
      type: "ACTIVITY_TYPE_CREATE_USERS_V3",
      parameters: { users: [userParams("carol")] },
    });
    expect(activity.intent).toHaveProperty("createUsersIntentV3");
    expect(await createdUserIds(activity)).toHaveLength(1);
    const token = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL3Vua25vd24udGVzdCIsInN1YiI6InMiLCJhdWQiOiJhIn0.c2ln";
    await refusal(
      root.createUsers({
        organizationId,
        type: "ACTIVITY_TYPE_CREATE_USERS_V3",
        parameters: { users: [userParams("dave", { oauthProviders: [{ providerName: "x", oidcToken: token }] })] },
      }),
      "FAILED_PRECONDITION",
      "parameters.users[0].oauthProviders[0].oidcToken",
    );
  });

  it("creates nothing when any user of the batch is refused", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const taken = p256KeyPair().publicKey;
    await refusal(
      root.createUsers({
        organizationId,
        parameters: {
          users: [
            userParams("erin", { apiKeys: [{ apiKeyName: "k", publicKey: taken, curveType: "API_KEY_CURVE_P256" }] }),
            userParams("frank", { apiKeys: [{ apiKeyName: "k", publicKey: taken, curveType: "API_KEY_CURVE_P256" }] }),
          ],
        },
      }),
      "ALREADY_EXISTS",
      "parameters.users[1].apiKeys[0].publicKey",
    );
    await refusal(
      root.createUsers({ organizationId, parameters: { users: [userParams("gina", { userTags: ["no-such-tag"] })] } }),
      "NOT_FOUND",
      "parameters.users[0].userTags[0]",
    );
    expect((await root.getUsers({ organizationId })).users.map((u) => u.userName)).toEqual(["root"]);
  });

  it("keeps an organization within 100 users", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const users = Array.from({ length: 99 }, (_, i) => userParams(`u${i}`, { apiKeys: [] }));
    await root.createUsers({ organizationId, parameters: { users } });
    await refusal(
      root.createUsers({ organizationId, parameters: { users: [userParams("one too many")] } }),
      "RESOURCE_EXHAUSTED",
      "parameters.users",
    );
    expect((await root.getUsers({ organizationId })).users).toHaveLength(100);
  });
});

describe("updating users", () => {
  it("updates name, email, phone number and tags, each bumping updatedAt", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const before = (await root.getUser({ organizationId, userId: rootUserId })).user;
    await root.updateUserName({ organizationId, parameters: { userId: rootUserId, userName: "admin" } });
    await root.updateUserEmail({ organizationId, parameters: { userId: rootUserId, userEmail: "admin@acme.test" } });
    await root.updateUserPhoneNumber({
      organizationId,
      parameters: { userId: rootUserId, userPhoneNumber: "+442071838750" },
    });
    const tag = await root.createUserTag({ organizationId, parameters: { userTagName: "admins", userIds: [] } });
    const tagId = (tag.activity.result!.createUserTagResult as { userTagId: string }).userTagId;
    const { activity } = await root.updateUser({
      organizationId,
      parameters: { userId: rootUserId, userTagIds: [tagId] },
    });
    expect(activity.result).toEqual({ updateUserResult: { userId: rootUserId } });
    const after = (await root.getUser({ organizationId, userId: rootUserId })).user;
    expect(after).toMatchObject({
      userName: "admin",
      userEmail: "admin@acme.test",
      userPhoneNumber: "+442071838750",
      userTags: [tagId],
    });
    expect(Number(after.updatedAt.seconds) * 1000 + Number(after.updatedAt.nanos) / 1e6).toBeGreaterThan(
      Number(before.updatedAt.seconds) * 1000 + Number(before.updatedAt.nanos) / 1e6,
    );
    await root.updateUser({ organizationId, parameters: { userId: rootUserId, userName: "root", userTagIds: [] } });
    expect((await root.getUser({ organizationId, userId: rootUserId })).user).toMatchObject({
      userName: "root",
      userEmail: "admin@acme.test",
      userTags: [],
    });
  });

  it("refuses unknown users, malformed contacts, unverifiable tokens and tags of another type", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    await refusal(
      root.updateUserName({ organizationId, parameters: { userId: "nobody", userName: "x" } }),
      "NOT_FOUND",
      "parameters.userId",
    );
    await refusal(
      root.updateUserEmail({ organizationId, parameters: { userId: rootUserId, userEmail: "not an email" } }),
      "INVALID_ARGUMENT",
      "parameters.userEmail",
    );
    await refusal(
      root.updateUserPhoneNumber({ organizationId, parameters: { userId: rootUserId, userPhoneNumber: "555-0100" } }),
      "INVALID_ARGUMENT",
      "parameters.userPhoneNumber",
    );
    await refusal(
      root.updateUserEmail({
        organizationId,
        parameters: { userId: rootUserId, userEmail: "a@b.test", verificationToken: "otp-token" },
      }),
      "INVALID_ARGUMENT",
      "parameters.verificationToken",
    );
    await refusal(
      root.updateUser({ organizationId, parameters: { userId: rootUserId, userTagIds: ["missing"] } }),
      "NOT_FOUND",
      "parameters.userTagIds[0]",
    );
    const { user } = await root.getUser({ organizationId, userId: rootUserId });
    expect(user).toMatchObject({ userName: "root", userEmail: "root@acme.test" });
    // An absent optional scalar is left out, as the hosted service prints it.
    expect(user).not.toHaveProperty("userPhoneNumber");
  });
});

describe("delete_users", () => {
  it("deletes users with their credentials, credential locations and tag memberships", async () => {
    const issuer = await TestIssuer.create("https://i.test");
    const { root, organizationId } = await engineWithOrganization({
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
    });
    const key = p256KeyPair();
    const authenticator = new SoftwareAuthenticator();
    const created = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          userParams("leaver", {
            apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
            authenticators: [passkeyParams(authenticator)],
            oauthProviders: [{ providerName: "p", oidcToken: await issuer.token({ sub: "leaver", aud: "a" }) }],
          }),
        ],
      },
    });
    const [userId] = await createdUserIds(created.activity);
    const tag = await root.createUserTag({
      organizationId,
      parameters: { userTagName: "team", userIds: [userId as string] },
    });
    const { activity } = await root.deleteUsers({ organizationId, parameters: { userIds: [userId as string] } });
    expect(activity.result).toEqual({ deleteUsersResult: { userIds: [userId] } });
    await refusal(root.getUser({ organizationId, userId: userId as string }), "NOT_FOUND", "userId");
    // The credentials are gone: the same key, passkey and identity can be registered again by someone else.
    const again = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          userParams("successor", {
            apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
            authenticators: [passkeyParams(authenticator)],
            oauthProviders: [{ providerName: "p", oidcToken: await issuer.token({ sub: "leaver", aud: "a" }) }],
          }),
        ],
      },
    });
    expect(again.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const tagId = (tag.activity.result!.createUserTagResult as { userTagId: string }).userTagId;
    expect((await root.listUserTags({ organizationId })).userTags.map((t) => t.tagId)).toEqual([tagId]);
    const { organizationData } = await root.getOrganization({ organizationId });
    expect(organizationData.users.every((user) => !user.userTags.includes(tagId))).toBe(true);
  });

  it("refuses to break the root quorum, and removes a deleted root user from it otherwise", async () => {
    const { root, organizationId, rootUserId, engine } = await engineWithOrganization();
    await refusal(
      root.deleteUsers({ organizationId, parameters: { userIds: [rootUserId] } }),
      "FAILED_PRECONDITION",
      "parameters.userIds",
    );
    // A sub-organization with two root users and threshold 1 may lose one of them.
    const keys = [p256KeyPair(), p256KeyPair()];
    const sub = await root.createSubOrganization({
      organizationId,
      parameters: {
        subOrganizationName: "Two roots",
        rootUsers: keys.map((key, i) => ({
          userName: `root ${i}`,
          apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" as const }],
          authenticators: [],
          oauthProviders: [],
        })),
        rootQuorumThreshold: 1,
      },
    });
    const { subOrganizationId, rootUserIds } = sub.activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const subRoot = engine.as({ userId: rootUserIds[0] as string });
    await refusal(
      subRoot.deleteUsers({ organizationId: subOrganizationId, parameters: { userIds: rootUserIds } }),
      "FAILED_PRECONDITION",
    );
    await subRoot.deleteUsers({
      organizationId: subOrganizationId,
      parameters: { userIds: [rootUserIds[1] as string] },
    });
    const { organizationData } = await subRoot.getOrganization({ organizationId: subOrganizationId });
    expect(organizationData.rootQuorum).toEqual({ threshold: 1, userIds: [rootUserIds[0]] });
    expect(organizationData.users.map((u) => u.userId)).toEqual([rootUserIds[0]]);
  });

  it("refuses unknown, foreign and repeated user ids, deleting nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const created = await root.createUsers({ organizationId, parameters: { users: [userParams("stays")] } });
    const [userId] = await createdUserIds(created.activity);
    await refusal(
      root.deleteUsers({ organizationId, parameters: { userIds: [userId as string, "ghost"] } }),
      "NOT_FOUND",
      "parameters.userIds[1]",
    );
    await refusal(
      root.deleteUsers({ organizationId, parameters: { userIds: [userId as string, userId as string] } }),
      "INVALID_ARGUMENT",
      "parameters.userIds[1]",
    );
    // A user of a sub-organization is not a user of its parent.
    const sub = await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters("Child") });
    const [childRootId] = (sub.activity.result!.createSubOrganizationResultV8 as { rootUserIds: string[] }).rootUserIds;
    await refusal(
      root.deleteUsers({ organizationId, parameters: { userIds: [childRootId as string] } }),
      "NOT_FOUND",
      "parameters.userIds[0]",
    );
    expect((await root.getUsers({ organizationId })).users.map((u) => u.userName)).toEqual(["root", "stays"]);
  });
});
