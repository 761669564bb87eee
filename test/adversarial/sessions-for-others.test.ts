/**
 * Sessions for other users: `create_read_write_session` makes a session for the stamping user; one for
 * another user (an impersonation) needs the root quorum or a policy that names the target through
 * `activity.params.user_id`, never just a broad allow.
 */
import { generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";

async function setup(condition: (bobId: string) => string) {
  const fixture = await engineWithOrganization();
  const { root, organizationId, engine } = fixture;
  const member = (userName: string) => ({
    userName,
    apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" as const }],
    authenticators: [],
    oauthProviders: [],
    userTags: [],
  });
  const created = await root.createUsers({ organizationId, parameters: { users: [member("alice"), member("bob")] } });
  const [aliceId, bobId] = (created.activity.result!.createUsersResult as { userIds: string[] }).userIds as [
    string,
    string,
  ];
  await root.createPolicy({
    organizationId,
    parameters: { policyName: "sessions", effect: "EFFECT_ALLOW", condition: condition(bobId), notes: "" },
  });
  const alice = engine.as({ userId: aliceId });
  const session = (userId?: string) =>
    alice.createReadWriteSession({
      organizationId,
      parameters: {
        targetPublicKey: generateP256KeyPair().publicKeyUncompressed,
        ...(userId === undefined ? {} : { userId }),
      },
    });
  return { ...fixture, aliceId, bobId, session };
}

describe("create_read_write_session for another user", () => {
  it("is denied under a broad allow policy, which still allows the submitter's own session", async () => {
    const { session, aliceId, bobId } = await setup(() => "activity.resource == 'AUTH'");
    const error = await expectCustodyError(session(bobId), "PERMISSION_DENIED");
    expect(error.details.decision).toBe("IMPLICIT_DENY");
    const own = await session();
    expect((own.activity.result!.createReadWriteSessionResultV2 as { userId: string }).userId).toBe(aliceId);
    const named = await session(aliceId);
    expect(named.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("is allowed by a policy that names the target user, which policies see as activity.params.user_id", async () => {
    const { session, bobId } = await setup(
      (bob) => `activity.resource == 'AUTH' && activity.params.user_id == '${bob}'`,
    );
    const { activity } = await session(bobId);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((activity.result!.createReadWriteSessionResultV2 as { userId: string }).userId).toBe(bobId);
  });

  it("is allowed for the root quorum", async () => {
    const { root, organizationId, bobId } = await setup(() => "false");
    const { activity } = await root.createReadWriteSession({
      organizationId,
      parameters: { targetPublicKey: generateP256KeyPair().publicKeyUncompressed, userId: bobId },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});
