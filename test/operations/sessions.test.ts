/**
 * `create_read_write_session` in-process: the bundle holds the private key of a new expiring P-256 API key
 * of the requesting (or named) user, `@turnkey/crypto` opens it, and refusals leave no key behind.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { decryptCredentialBundle, generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

type SessionResult = {
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
  apiKeyId: string;
  credentialBundle: string;
};

describe("create_read_write_session", () => {
  it("returns the requester's session: a bundle that opens to the private key of a new 900 s session key", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const target = generateP256KeyPair();
    const { activity } = await root.createReadWriteSession({
      organizationId,
      parameters: { targetPublicKey: target.publicKeyUncompressed },
    });
    const result = activity.result!.createReadWriteSessionResultV2 as SessionResult;
    expect(result).toMatchObject({ organizationId, organizationName: "Acme", userId: rootUserId, username: "root" });
    const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    expect(privateKey).toMatch(/^[0-9a-f]{64}$/);
    const { apiKey } = await root.getApiKey({ organizationId, apiKeyId: result.apiKeyId });
    expect(apiKey.credential).toEqual({
      publicKey: bytesToHex(p256.getPublicKey(Buffer.from(privateKey, "hex"), true)),
      type: "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256",
    });
    expect(apiKey.expirationSeconds).toBe("900");
    expect(apiKey.apiKeyName).toMatch(/^Read Write Session - \d{4}-\d\d-\d\dT/);
  });

  it("creates the session for the named user, with the given name and lifetime", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity: created } = await root.createUsers({
      organizationId,
      parameters: { users: [{ userName: "alice", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] },
    });
    const [aliceId] = (created.result!.createUsersResult as { userIds: string[] }).userIds as [string];
    const target = generateP256KeyPair();
    const { activity } = await root.createReadWriteSession({
      organizationId,
      parameters: { targetPublicKey: target.publicKey, userId: aliceId, apiKeyName: "tab", expirationSeconds: "60" },
    });
    const result = activity.result!.createReadWriteSessionResultV2 as SessionResult;
    expect(result).toMatchObject({ userId: aliceId, username: "alice" });
    const { apiKeys } = await root.getApiKeys({ organizationId, userId: aliceId });
    expect(apiKeys).toEqual([
      expect.objectContaining({ apiKeyId: result.apiKeyId, apiKeyName: "tab", expirationSeconds: "60" }),
    ]);
  });

  it("replaces the user's earlier session keys with invalidateExisting, and keeps other keys", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const session = async (invalidateExisting?: boolean) => {
      const { activity } = await root.createReadWriteSession({
        organizationId,
        parameters: { targetPublicKey: generateP256KeyPair().publicKey, invalidateExisting },
      });
      return (activity.result!.createReadWriteSessionResultV2 as SessionResult).apiKeyId;
    };
    const first = await session();
    const second = await session();
    const third = await session(true);
    const ids = (await root.getApiKeys({ organizationId, userId: rootUserId })).apiKeys.map((k) => k.apiKeyId);
    expect(ids).toContain(third);
    expect(ids).not.toContain(first);
    expect(ids).not.toContain(second);
    expect(ids).toHaveLength(2); // the root's own long-lived key stays
  });

  it("refuses a target key that is not on P-256, and creates no key", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    await expectCustodyError(
      root.createReadWriteSession({ organizationId, parameters: { targetPublicKey: `02${"ff".repeat(32)}` } }),
      "INVALID_ARGUMENT",
      "parameters.targetPublicKey",
    );
    expect((await root.getApiKeys({ organizationId, userId: rootUserId })).apiKeys).toHaveLength(1);
  });

  it("refuses a zero lifetime and an unknown user, naming the field", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const targetPublicKey = generateP256KeyPair().publicKey;
    await expectCustodyError(
      root.createReadWriteSession({ organizationId, parameters: { targetPublicKey, expirationSeconds: "0" } }),
      "INVALID_ARGUMENT",
      "parameters.expirationSeconds",
    );
    await expectCustodyError(
      root.createReadWriteSession({ organizationId, parameters: { targetPublicKey, userId: "nobody" } }),
      "NOT_FOUND",
      "parameters.userId",
    );
  });

  it("never records the session's private key in the activity", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const target = generateP256KeyPair();
    const { activity } = await root.createReadWriteSession({
      organizationId,
      parameters: { targetPublicKey: target.publicKey },
    });
    const result = activity.result!.createReadWriteSessionResultV2 as SessionResult;
    const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    const { activity: stored } = await root.getActivity({ organizationId, activityId: activity.id });
    expect(JSON.stringify(stored)).not.toContain(privateKey);
  });
});
