/**
 * API keys through the engine: the three curves, keys off their curve, the per-user limits with the
 * eviction of expiring keys, deletion, the queries, and expired keys (listed, but refused at authentication).
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { NobleApiKeyStamper } from "../support/signers.js";

function p256Params(name: string, expirationSeconds?: string, key: ApiKeyPair = p256KeyPair()) {
  return {
    apiKeyName: name,
    publicKey: key.publicKey,
    curveType: "API_KEY_CURVE_P256" as const,
    ...(expirationSeconds === undefined ? {} : { expirationSeconds }),
  };
}

/** An engine whose clock a test can move forward. */
async function engineWithClock() {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const setup = await engineWithOrganization({ clock: () => clock.now });
  return { ...setup, clock };
}

async function keyNames(root: CustodyEngine, organizationId: string, userId: string): Promise<string[]> {
  return (await root.getApiKeys({ organizationId, userId })).apiKeys.map((key) => key.apiKeyName);
}

async function authenticateWith(engine: CustodyEngine, key: ApiKeyPair, organizationId: string) {
  const body = JSON.stringify({ organizationId });
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderValue } = await stamper.stamp(body);
  return engine.authenticate({ stamps: { apiKey: stampHeaderValue }, body: Buffer.from(body), organizationId });
}

describe("create_api_keys", () => {
  it("registers P-256, secp256k1 and ed25519 keys, shown by get_api_key and get_api_keys", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const secp = new NobleApiKeyStamper("secp256k1");
    const ed = new NobleApiKeyStamper("ed25519");
    const { activity } = await root.createApiKeys({
      organizationId,
      parameters: {
        userId: rootUserId,
        apiKeys: [p256Params("p256", "3600"), secp.apiKeyParams("secp"), ed.apiKeyParams("ed")],
      },
    });
    expect(activity.type).toBe("ACTIVITY_TYPE_CREATE_API_KEYS_V2");
    const { apiKeyIds } = activity.result!.createApiKeysResult as { apiKeyIds: string[] };
    expect(apiKeyIds).toHaveLength(3);
    const { apiKey } = await root.getApiKey({ organizationId, apiKeyId: apiKeyIds[1] as string });
    expect(apiKey).toMatchObject({
      apiKeyId: apiKeyIds[1],
      apiKeyName: "secp",
      credential: { publicKey: secp.publicKey, type: "CREDENTIAL_TYPE_API_KEY_SECP256K1" },
    });
    expect(apiKey).not.toHaveProperty("expirationSeconds");
    const { apiKeys } = await root.getApiKeys({ organizationId, userId: rootUserId });
    expect(apiKeys.map((key) => [key.apiKeyName, key.credential.type, key.expirationSeconds])).toEqual([
      ["root", "CREDENTIAL_TYPE_API_KEY_P256", undefined],
      ["p256", "CREDENTIAL_TYPE_API_KEY_P256", "3600"],
      ["secp", "CREDENTIAL_TYPE_API_KEY_SECP256K1", undefined],
      ["ed", "CREDENTIAL_TYPE_API_KEY_ED25519", undefined],
    ]);
    // Without userId: every key of the organization.
    expect((await root.getApiKeys({ organizationId })).apiKeys).toHaveLength(4);
  });

  it("refuses public keys that are not on their curve, storing nothing", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const cases = [
      { publicKey: `02${"ff".repeat(32)}`, curveType: "API_KEY_CURVE_P256" as const },
      { publicKey: `03${"00".repeat(31)}07`, curveType: "API_KEY_CURVE_SECP256K1" as const },
      { publicKey: `04${"11".repeat(64)}`, curveType: "API_KEY_CURVE_P256" as const },
      { publicKey: new NobleApiKeyStamper("secp256k1").publicKey, curveType: "API_KEY_CURVE_ED25519" as const },
      // The identity point: an ed25519 key of small order.
      { publicKey: `01${"00".repeat(31)}`, curveType: "API_KEY_CURVE_ED25519" as const },
      { publicKey: "0x02abcd", curveType: "API_KEY_CURVE_P256" as const },
    ];
    for (const key of cases) {
      await refusal(
        root.createApiKeys({
          organizationId,
          parameters: { userId: rootUserId, apiKeys: [p256Params("fine"), { apiKeyName: "bad", ...key }] },
        }),
        "INVALID_ARGUMENT",
        "parameters.apiKeys[1].publicKey",
      );
    }
    expect(await keyNames(root, organizationId, rootUserId)).toEqual(["root"]);
  });

  it("refuses a key already registered in the organization and an unknown user", async () => {
    const { root, organizationId, rootUserId, rootKey } = await engineWithOrganization();
    const error = await refusal(
      root.createApiKeys({
        organizationId,
        parameters: { userId: rootUserId, apiKeys: [p256Params("dup", undefined, rootKey)] },
      }),
      "ALREADY_EXISTS",
      "parameters.apiKeys[0].publicKey",
    );
    expect(error.details.reason).toBe("API_KEY_ALREADY_EXISTS");
    await refusal(
      root.createApiKeys({ organizationId, parameters: { userId: "ghost", apiKeys: [p256Params("k")] } }),
      "NOT_FOUND",
      "parameters.userId",
    );
  });
});

describe("API key limits per user", () => {
  it("holds at most 10 long-lived keys", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const nine = Array.from({ length: 9 }, (_, i) => p256Params(`long ${i}`));
    await root.createApiKeys({ organizationId, parameters: { userId: rootUserId, apiKeys: nine } });
    const error = await refusal(
      root.createApiKeys({ organizationId, parameters: { userId: rootUserId, apiKeys: [p256Params("eleventh")] } }),
      "RESOURCE_EXHAUSTED",
      "parameters.apiKeys[0]",
    );
    expect(error.details.reason).toBe("API_KEY_LIMIT_EXCEEDED");
    expect(await keyNames(root, organizationId, rootUserId)).toHaveLength(10);
  });

  it("makes room for an 11th expiring key by deleting an expired one, else the oldest", async () => {
    const { root, organizationId, rootUserId, clock, engine } = await engineWithClock();
    const keys = Array.from({ length: 10 }, () => p256KeyPair());
    for (const [i, key] of keys.entries()) {
      // Key 3 lives one minute; the others a day.
      const expiration = i === 3 ? "60" : "86400";
      clock.now += 1000;
      await root.createApiKeys({
        organizationId,
        parameters: { userId: rootUserId, apiKeys: [p256Params(`exp ${i}`, expiration, key)] },
      });
    }
    clock.now += 120_000;
    await root.createApiKeys({
      organizationId,
      parameters: { userId: rootUserId, apiKeys: [p256Params("new 1", "600")] },
    });
    let names = await keyNames(root, organizationId, rootUserId);
    expect(names).not.toContain("exp 3");
    expect(names).toContain("exp 0");
    expect(names.filter((name) => name !== "root")).toHaveLength(10);

    // No expired key left: the oldest expiring key goes, and with it its authentication.
    await root.createApiKeys({
      organizationId,
      parameters: { userId: rootUserId, apiKeys: [p256Params("new 2", "600")] },
    });
    names = await keyNames(root, organizationId, rootUserId);
    expect(names).not.toContain("exp 0");
    expect(names).toEqual(expect.arrayContaining(["root", "exp 1", "new 1", "new 2"]));
    const error = await refusal(authenticateWith(engine, keys[0] as ApiKeyPair, organizationId), "UNAUTHENTICATED");
    expect(error.details.reason).toBe("PUBLIC_KEY_NOT_FOUND");
  });

  it("refuses a single request with more than 10 expiring keys instead of evicting its own", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const eleven = Array.from({ length: 11 }, (_, i) => p256Params(`e${i}`, "600"));
    await refusal(
      root.createApiKeys({ organizationId, parameters: { userId: rootUserId, apiKeys: eleven } }),
      "RESOURCE_EXHAUSTED",
      "parameters.apiKeys",
    );
    expect(await keyNames(root, organizationId, rootUserId)).toEqual(["root"]);
  });
});

/** A root user's P-256 key named "short" that expires 60 s after it is made, on a clock the test moves. */
async function withShortLivedKey() {
  const fixture = await engineWithClock();
  const key = p256KeyPair();
  await fixture.root.createApiKeys({
    organizationId: fixture.organizationId,
    parameters: { userId: fixture.rootUserId, apiKeys: [p256Params("short", "60", key)] },
  });
  return { ...fixture, key };
}

describe("expired keys", () => {
  it("stay listed while authentication refuses them", async () => {
    const { root, organizationId, rootUserId, clock, engine, key } = await withShortLivedKey();
    expect((await authenticateWith(engine, key, organizationId)).userId).toBe(rootUserId);
    clock.now += 61_000;
    const error = await refusal(authenticateWith(engine, key, organizationId), "UNAUTHENTICATED");
    expect(error.details.reason).toBe("API_KEY_EXPIRED");
    expect(await keyNames(root, organizationId, rootUserId)).toEqual(["root", "short"]);
  });

  it("are refused for a bad signature before their expiry is looked at", async () => {
    const { organizationId, clock, engine, key } = await withShortLivedKey();
    clock.now += 61_000;
    const body = JSON.stringify({ organizationId });
    const { stampHeaderValue } = await new ApiKeyStamper({
      apiPublicKey: key.publicKey,
      apiPrivateKey: key.privateKey,
    }).stamp(body);
    const forged = engine.authenticate({
      stamps: { apiKey: stampHeaderValue },
      body: Buffer.from(body.replace("{", "{ ")),
      organizationId,
    });
    expect((await refusal(forged, "UNAUTHENTICATED")).details.reason).toBe("SIGNATURE_INVALID");
    const genuine = engine.authenticate({
      stamps: { apiKey: stampHeaderValue },
      body: Buffer.from(body),
      organizationId,
    });
    expect((await refusal(genuine, "UNAUTHENTICATED")).details.reason).toBe("API_KEY_EXPIRED");
  });
});

describe("delete_api_keys", () => {
  it("deletes a user's keys so they no longer authenticate", async () => {
    const { root, organizationId, rootUserId, engine } = await engineWithOrganization();
    const key = p256KeyPair();
    const created = await root.createApiKeys({
      organizationId,
      parameters: { userId: rootUserId, apiKeys: [p256Params("temp", undefined, key)] },
    });
    const [apiKeyId] = (created.activity.result!.createApiKeysResult as { apiKeyIds: string[] }).apiKeyIds;
    const { activity } = await root.deleteApiKeys({
      organizationId,
      parameters: { userId: rootUserId, apiKeyIds: [apiKeyId as string] },
    });
    expect(activity.result).toEqual({ deleteApiKeysResult: { apiKeyIds: [apiKeyId] } });
    await refusal(root.getApiKey({ organizationId, apiKeyId: apiKeyId as string }), "NOT_FOUND", "apiKeyId");
    const error = await refusal(authenticateWith(engine, key, organizationId), "UNAUTHENTICATED");
    expect(error.details.reason).toBe("PUBLIC_KEY_NOT_FOUND");
  });

  it("refuses a key of another user and a repeated id, deleting nothing", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const created = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          { userName: "other", apiKeys: [p256Params("theirs")], authenticators: [], oauthProviders: [], userTags: [] },
        ],
      },
    });
    const [otherId] = (created.activity.result!.createUsersResult as { userIds: string[] }).userIds;
    const [theirKey] = (await root.getApiKeys({ organizationId, userId: otherId as string })).apiKeys;
    const [ownKey] = (await root.getApiKeys({ organizationId, userId: rootUserId })).apiKeys;
    await refusal(
      root.deleteApiKeys({
        organizationId,
        parameters: { userId: rootUserId, apiKeyIds: [ownKey?.apiKeyId as string, theirKey?.apiKeyId as string] },
      }),
      "NOT_FOUND",
      "parameters.apiKeyIds[1]",
    );
    await refusal(
      root.deleteApiKeys({
        organizationId,
        parameters: {
          userId: otherId as string,
          apiKeyIds: [theirKey?.apiKeyId as string, theirKey?.apiKeyId as string],
        },
      }),
      "INVALID_ARGUMENT",
      "parameters.apiKeyIds[1]",
    );
    expect((await root.getApiKeys({ organizationId })).apiKeys).toHaveLength(2);
  });
});

describe("who may manage API keys", () => {
  it("lets a user manage its own keys but not another user's", async () => {
    const { root, organizationId, rootUserId, engine } = await engineWithOrganization();
    const created = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          { userName: "member", apiKeys: [p256Params("m")], authenticators: [], oauthProviders: [], userTags: [] },
        ],
      },
    });
    const [memberId] = (created.activity.result!.createUsersResult as { userIds: string[] }).userIds;
    const member = engine.as({ userId: memberId as string });
    const own = await member.createApiKeys({
      organizationId,
      parameters: { userId: memberId as string, apiKeys: [p256Params("second")] },
    });
    expect(own.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    await refusal(
      member.createApiKeys({ organizationId, parameters: { userId: rootUserId, apiKeys: [p256Params("sneaky")] } }),
      "PERMISSION_DENIED",
    );
    expect(await keyNames(root, organizationId, rootUserId)).toEqual(["root"]);
  });
});
