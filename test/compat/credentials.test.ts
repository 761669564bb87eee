/**
 * Users and credentials over the HTTP adapter: API keys of all three curves authenticate (P-256 with
 * @turnkey/api-key-stamper, secp256k1 and ed25519 with the noble stampers), expired and tampered stamps are
 * refused, and @turnkey/sdk-server drives the user, API key, OAuth provider and user tag operations,
 * unwrapping each result member as it expects.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";
import { post, type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection as rejection } from "../support/session-client.js";
import { NobleApiKeyStamper } from "../support/signers.js";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let rootUserId: string;
let rootKey: ApiKeyPair;
let issuer: TestIssuer;
let clockOffsetMs = 0;

beforeAll(async () => {
  issuer = await TestIssuer.create("https://login.test");
  ({ engine, organizationId, rootUserId, rootKey } = await engineWithOrganization({
    clock: () => Date.now() + clockOffsetMs,
    oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
  }));
  server = await serve(engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

function rootClient(): TurnkeyClient {
  const stamper = new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey });
  return new TurnkeyClient({ baseUrl: server.baseUrl }, stamper);
}

function sdk() {
  return new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: rootKey.publicKey,
    apiPrivateKey: rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
}

async function register(
  keys: { apiKeyName: string; publicKey: string; curveType: string; expirationSeconds?: string }[],
) {
  const { activity } = await rootClient().createApiKeys({
    type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
    timestampMs: String(Date.now() + clockOffsetMs),
    organizationId,
    parameters: {
      userId: rootUserId,
      apiKeys: keys as { apiKeyName: string; publicKey: string; curveType: "API_KEY_CURVE_P256" }[],
    },
  });
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
}

function responseReason(body: Record<string, unknown> | undefined): unknown {
  return (body?.details as { turnkeyErrorCode?: string }[] | undefined)?.[0]?.turnkeyErrorCode;
}

describe("API keys of every curve through the HTTP adapter", () => {
  const stampers = [
    new NobleApiKeyStamper("secp256k1"),
    new NobleApiKeyStamper("ed25519"),
    new NobleApiKeyStamper("ed25519", { ed25519Message: "sha256" }),
  ];
  const labels = ["secp256k1", "ed25519 over the body", "ed25519 over SHA-256(body)"];

  beforeAll(async () => {
    await register(stampers.map((stamper, i) => stamper.apiKeyParams(labels[i])));
  });

  for (const [i, stamper] of stampers.entries()) {
    it(`authenticates queries and activities stamped by a ${labels[i]} key`, async () => {
      const client = new TurnkeyClient({ baseUrl: server.baseUrl }, stamper);
      expect(await client.getWhoami({ organizationId })).toMatchObject({ organizationId, userId: rootUserId });
      const { activity } = await client.createUserTag({
        type: "ACTIVITY_TYPE_CREATE_USER_TAG",
        timestampMs: String(Date.now() + clockOffsetMs),
        organizationId,
        parameters: { userTagName: `tag of ${labels[i]}`, userIds: [] },
      });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(activity.votes[0]).toMatchObject({ publicKey: stamper.publicKey, scheme: stamper.scheme });
    });
  }

  it("authenticates a P-256 key with the official ApiKeyStamper and refuses a tampered body", async () => {
    const key = p256KeyPair();
    await register([{ apiKeyName: "p256 second", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }]);
    const client = new TurnkeyClient(
      { baseUrl: server.baseUrl },
      new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
    );
    expect((await client.getWhoami({ organizationId })).userId).toBe(rootUserId);
    const secp = new TurnkeyClient({ baseUrl: server.baseUrl }, stampers[0] as NobleApiKeyStamper);
    const signed = await secp.stampGetWhoami({ organizationId });
    const response = await post(`${server.baseUrl}/public/v1/query/whoami`, signed.body.replace("{", "{ "), {
      "X-Stamp": signed.stamp.stampHeaderValue,
    });
    expect(response.status).toBe(401);
    expect(responseReason(response.json)).toBe("SIGNATURE_INVALID");
  });

  it("refuses an ed25519 stamp that claims the secp256k1 scheme", async () => {
    const ed = stampers[1] as NobleApiKeyStamper;
    const body = JSON.stringify({ organizationId });
    const stamp = { publicKey: ed.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_SECP256K1", signature: ed.sign(body) };
    const response = await post(`${server.baseUrl}/public/v1/query/whoami`, body, {
      "X-Stamp": Buffer.from(JSON.stringify(stamp)).toString("base64url"),
    });
    expect(response.status).toBe(401);
    expect(responseReason(response.json)).toBe("SIGNATURE_SCHEME_MISMATCH");
  });

  it("keeps an expired key listed while refusing its stamps", async () => {
    const expiring = new NobleApiKeyStamper("secp256k1");
    await register([{ ...expiring.apiKeyParams("short-lived"), expirationSeconds: "30" }]);
    const client = new TurnkeyClient({ baseUrl: server.baseUrl }, expiring);
    expect((await client.getWhoami({ organizationId })).userId).toBe(rootUserId);
    clockOffsetMs += 31_000;
    try {
      const error = await rejection(client.getWhoami({ organizationId }));
      expect(error.code).toBe(16);
      expect(reasonOf(error)).toBe("API_KEY_EXPIRED");
      const { apiKeys } = await rootClient().getApiKeys({ organizationId, userId: rootUserId });
      expect(apiKeys.find((key) => key.apiKeyName === "short-lived")?.expirationSeconds).toBe("30");
    } finally {
      clockOffsetMs -= 31_000;
    }
  });
});

describe("@turnkey/sdk-server over users, credentials and tags", () => {
  it("creates, reads, updates and deletes users, keys, providers and tags", async () => {
    const tk = sdk();
    const member = new NobleApiKeyStamper("ed25519");
    const tag = await tk.createUserTag({ userTagName: "sdk members", userIds: [] });
    expect(tag.userTagId).toMatch(/^[0-9a-f-]{36}$/);
    const created = await tk.createUsers({
      users: [
        {
          userName: "sdk member",
          userEmail: "member@acme.test",
          apiKeys: [member.apiKeyParams()],
          authenticators: [],
          oauthProviders: [],
          userTags: [tag.userTagId],
        },
      ],
    });
    const [memberId] = created.userIds;
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");

    const oidcToken = await issuer.token({ sub: "member-sub", aud: "sdk-app" });
    const providers = await tk.createOauthProviders({
      userId: memberId as string,
      oauthProviders: [{ providerName: "Login", oidcToken }],
    });
    expect(providers.providerIds).toHaveLength(1);
    expect((await tk.getOauthProviders({ userId: memberId as string })).oauthProviders).toMatchObject([
      { issuer: "https://login.test", audience: "sdk-app", subject: "member-sub" },
    ]);

    const renamed = await tk.updateUserName({ userId: memberId as string, userName: "renamed member" });
    expect(renamed.userId).toBe(memberId);
    const { user } = await tk.getUser({ userId: memberId as string });
    expect(user).toMatchObject({ userName: "renamed member", userTags: [tag.userTagId] });
    expect((await tk.getApiKeys({ userId: memberId as string })).apiKeys[0]?.credential.publicKey).toBe(
      member.publicKey,
    );

    const memberClient = new TurnkeyClient({ baseUrl: server.baseUrl }, member);
    expect((await memberClient.getWhoami({ organizationId })).username).toBe("renamed member");

    const untagged = await tk.deleteUserTags({ userTagIds: [tag.userTagId] });
    expect(untagged).toMatchObject({ userTagIds: [tag.userTagId], userIds: [memberId] });
    const deleted = await tk.deleteUsers({ userIds: [memberId as string] });
    expect(deleted.userIds).toEqual([memberId]);
    expect((await tk.getUsers()).users.map((u) => u.userId)).not.toContain(memberId);
    const error = await rejection(memberClient.getWhoami({ organizationId }));
    expect(reasonOf(error)).toBe("PUBLIC_KEY_NOT_FOUND");
  });

  it("surfaces a refused user deletion as a TurnkeyRequestError without deleting anything", async () => {
    const tk = sdk();
    const error = await tk.deleteUsers({ userIds: [rootUserId] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/root quorum/);
    expect((await tk.getUsers()).users.map((u) => u.userId)).toContain(rootUserId);
  });
});
