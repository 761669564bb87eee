/**
 * The small core variants the examples call: `get_organization_configs`, `update_organization_name`,
 * `create_api_only_users`, `create_invitations` and `delete_invitation`, through `@turnkey/sdk-server` and
 * `@turnkey/http` (sdk-server has no `createApiOnlyUsers` or `getOrganization`).
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterEach, describe, expect, it } from "vitest";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import { requestRejection } from "../support/session-client.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function sdkServer() {
  const fixture = await engineWithOrganization();
  const server = await serve(fixture.engine);
  servers.push(server);
  const client = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
    defaultOrganizationId: fixture.organizationId,
  }).apiClient();
  const http = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: fixture.rootKey.publicKey, apiPrivateKey: fixture.rootKey.privateKey }),
  );
  return { ...fixture, client, http };
}

describe("organization variants", () => {
  it("reads the organization's configs and renames it", async () => {
    const { client, organizationId, rootUserId } = await sdkServer();
    expect(await client.getOrganizationConfigs({ organizationId })).toEqual({
      configs: { features: [], quorum: { threshold: 1, userIds: [rootUserId] } },
    });
    const renamed = await client.updateOrganizationName({ organizationName: "Acme Two" });
    expect(renamed).toMatchObject({ organizationId, organizationName: "Acme Two" });
    expect((await client.getWhoami({ organizationId })).organizationName).toBe("Acme Two");
  });

  it("creates API-only users with P-256 keys, who no policy lets create users", async () => {
    const { client, http, engine, organizationId } = await sdkServer();
    const key = p256KeyPair();
    const { activity } = await http.createApiOnlyUsers({
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        apiOnlyUsers: [
          { userName: "bot", userTags: [], apiKeys: [{ apiKeyName: "bot key", publicKey: key.publicKey }] },
        ],
      },
    });
    const { userIds } = activity.result.createApiOnlyUsersResult as { userIds: string[] };
    const { user } = await client.getUser({ organizationId, userId: userIds[0] as string });
    expect(user.apiKeys[0]?.credential).toEqual({ publicKey: key.publicKey, type: "CREDENTIAL_TYPE_API_KEY_P256" });
    const bot = engine.as({ userId: userIds[0] as string });
    await expectCustodyError(
      bot.createApiOnlyUsers({
        organizationId,
        parameters: { apiOnlyUsers: [{ userName: "x", userTags: ["missing"], apiKeys: [] }] },
      }),
      "PERMISSION_DENIED",
    );
  });

  it("creates invitations, mails the invitee, lists and deletes them", async () => {
    const { client, http, engine, organizationId, rootUserId } = await sdkServer();
    const { invitationIds } = await client.createInvitations({
      invitations: [
        {
          receiverUserName: "bob",
          receiverUserEmail: "bob@example.test",
          receiverUserTags: [],
          accessType: "ACCESS_TYPE_WEB",
          senderUserId: rootUserId,
        },
      ],
    });
    expect(engine.outbox("bob@example.test")).toHaveLength(1);
    const { organizationData } = await http.getOrganization({ organizationId });
    expect(organizationData.invitations).toEqual([
      expect.objectContaining({ invitationId: invitationIds[0], receiverEmail: "bob@example.test" }),
    ]);
    await client.deleteInvitation({ invitationId: invitationIds[0] as string });
    expect((await http.getOrganization({ organizationId })).organizationData.invitations).toEqual([]);
    await requestRejection(client.deleteInvitation({ invitationId: invitationIds[0] as string }));
  });
});
