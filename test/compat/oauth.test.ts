/**
 * `oauth` through the HTTP adapter with the official clients (compatibility test plan item 7): a local OIDC
 * issuer (jose keys, JWKS served over HTTP), providers registered with `createOauthProviders`, the bundle
 * opened by `decryptCredentialBundle` and its key stamping with `ApiKeyStamper`; and every refusal of a
 * token: wrong nonce, expired, unknown provider, bad signature, `alg: none`, each leaving no key behind.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { decryptCredentialBundle, generateP256KeyPair, getPublicKey } from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { serveJwks, TestIssuer } from "../support/oidc.js";
import { type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection, sessionClient } from "../support/session-client.js";

let server: RunningServer;
let jwks: Awaited<ReturnType<typeof serveJwks>>;
let issuer: TestIssuer;
let organizationId: string;
let rootKey: ApiKeyPair;
let tk: ReturnType<Turnkey["apiClient"]>;
let aliceId: string;

const nonceFor = (publicKeyHex: string) => bytesToHex(sha256(utf8ToBytes(publicKeyHex)));

beforeAll(async () => {
  issuer = await TestIssuer.create("https://issuer.oauth.test", "ES256");
  jwks = await serveJwks(issuer.jwks);
  const fixture = await engineWithOrganization({ oidcIssuers: { [issuer.issuer]: { jwksUri: jwks.uri } } });
  ({ organizationId, rootKey } = fixture);
  server = await serve(fixture.engine);
  tk = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: rootKey.publicKey,
    apiPrivateKey: rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
  const created = await tk.createUsers({
    users: [{ userName: "alice", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
  });
  aliceId = created.userIds[0] as string;
  await tk.createOauthProviders({
    userId: aliceId,
    oauthProviders: [{ providerName: "Test issuer", oidcToken: await issuer.token({ sub: "alice-sub" }) }],
  });
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
  await jwks.close();
});

async function aliceKeyCount(): Promise<number> {
  return (await tk.getApiKeys({ userId: aliceId })).apiKeys.length;
}

describe("oauth (test plan 7)", () => {
  it.each([
    ["nonce", "compressed", "publicKey"],
    ["tknonce", "uncompressed", "publicKeyUncompressed"],
  ] as const)(
    "signs in with the %s of a %s target: the bundle's key stamps as the provider's user",
    async (claim, _, form) => {
      const target = generateP256KeyPair();
      const oidcToken = await issuer.token({ sub: "alice-sub", extra: { [claim]: nonceFor(target[form]) } });
      const result = await tk.oauth({ oidcToken, targetPublicKey: target[form] });
      expect(result.userId).toBe(aliceId);
      const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
      expect(await sessionClient(server.baseUrl, privateKey).getWhoami({ organizationId })).toMatchObject({
        organizationId,
        userId: aliceId,
        username: "alice",
      });
      const { apiKeys } = await tk.getApiKeys({ userId: aliceId });
      expect(apiKeys.find((key) => key.apiKeyId === result.apiKeyId)).toMatchObject({
        apiKeyName: expect.stringMatching(/^Oauth - \d{4}-/),
        expirationSeconds: "900",
        credential: { publicKey: bytesToHex(getPublicKey(privateKey, true)), type: "CREDENTIAL_TYPE_OAUTH_KEY_P256" },
      });
      expect((await tk.getOauthProviders({ userId: aliceId })).oauthProviders).toEqual([
        expect.objectContaining({ issuer: issuer.issuer, audience: "client-1", subject: "alice-sub" }),
      ]);
    },
  );

  it("invalidates the user's earlier OAuth keys when asked, with the given name and lifetime", async () => {
    const signIn = async (invalidateExisting?: boolean) => {
      const target = generateP256KeyPair();
      const oidcToken = await issuer.token({ sub: "alice-sub", extra: { nonce: nonceFor(target.publicKey) } });
      return tk.oauth({
        oidcToken,
        targetPublicKey: target.publicKey,
        apiKeyName: "phone",
        expirationSeconds: "120",
        invalidateExisting,
      });
    };
    await signIn();
    const latest = await signIn(true);
    const oauthKeys = (await tk.getApiKeys({ userId: aliceId })).apiKeys.filter(
      (key) => key.credential.type === "CREDENTIAL_TYPE_OAUTH_KEY_P256",
    );
    expect(oauthKeys).toEqual([
      expect.objectContaining({ apiKeyId: latest.apiKeyId, apiKeyName: "phone", expirationSeconds: "120" }),
    ]);
  });

  describe("refuses, creating no key,", () => {
    type MakeToken = (target: ReturnType<typeof generateP256KeyPair>) => Promise<string>;
    const refusals: [string, MakeToken, number, string, RegExp][] = [
      [
        "a token whose nonce is for another key",
        async () => issuer.token({ sub: "alice-sub", extra: { nonce: nonceFor(generateP256KeyPair().publicKey) } }),
        3,
        "INVALID_OIDC_TOKEN",
        /issued for another key/,
      ],
      ["a token with no nonce", async () => issuer.token({ sub: "alice-sub" }), 3, "INVALID_OIDC_TOKEN", /nonce/],
      [
        "an expired token",
        async (target) =>
          issuer.token({
            sub: "alice-sub",
            nowMs: Date.now() - 7200_000,
            exp: Math.floor(Date.now() / 1000) - 60,
            extra: { nonce: nonceFor(target.publicKey) },
          }),
        3,
        "INVALID_OIDC_TOKEN",
        /expired/,
      ],
      [
        "a token of an identity no user has registered",
        async (target) => issuer.token({ sub: "mallory-sub", extra: { nonce: nonceFor(target.publicKey) } }),
        5,
        "OAUTH_PROVIDER_NOT_FOUND",
        /no user of organization/,
      ],
      [
        "a token whose claims were altered after signing",
        async (target) => {
          const signed = await issuer.token({ sub: "mallory-sub", extra: { nonce: nonceFor(target.publicKey) } });
          const [header, payload, signature] = signed.split(".") as [string, string, string];
          const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
          const forged = Buffer.from(JSON.stringify({ ...claims, sub: "alice-sub" })).toString("base64url");
          return `${header}.${forged}.${signature}`;
        },
        3,
        "INVALID_OIDC_TOKEN",
        /signature does not verify/,
      ],
      [
        "a token signed by another key under the issuer's name",
        async (target) => {
          const impostor = await TestIssuer.create(issuer.issuer, "ES256");
          return impostor.token({ sub: "alice-sub", extra: { nonce: nonceFor(target.publicKey) } });
        },
        3,
        "INVALID_OIDC_TOKEN",
        /no key of the issuer matches/,
      ],
      [
        "an unsigned token (alg: none)",
        async (target) => issuer.unsignedToken({ sub: "alice-sub", extra: { nonce: nonceFor(target.publicKey) } }),
        3,
        "INVALID_OIDC_TOKEN",
        /algorithm none is not accepted/,
      ],
    ];
    it.each(refusals)("%s", async (_, makeToken, code, reason, message) => {
      const before = await aliceKeyCount();
      const target = generateP256KeyPair();
      const error = await requestRejection(
        tk.oauth({ oidcToken: await makeToken(target), targetPublicKey: target.publicKey }),
      );
      expect(error.code).toBe(code);
      expect(reasonOf(error)).toBe(reason);
      expect(error.message).toMatch(message);
      expect(await aliceKeyCount()).toBe(before);
    });
  });
});

describe("oauth for a sub-organization", () => {
  it("is submitted by the parent's credential and signs in the sub-organization's user", async () => {
    const subKey = p256KeyPair();
    const { subOrganizationId } = await tk.createSubOrganization({
      subOrganizationName: "end user",
      rootUsers: [
        {
          userName: "bob",
          apiKeys: [{ apiKeyName: "k", publicKey: subKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
          authenticators: [],
          oauthProviders: [{ providerName: "Test issuer", oidcToken: await issuer.token({ sub: "bob-sub" }) }],
        },
      ],
      rootQuorumThreshold: 1,
    });
    const target = generateP256KeyPair();
    const oidcToken = await issuer.token({ sub: "bob-sub", extra: { nonce: nonceFor(target.publicKey) } });
    const result = await tk.oauth({ organizationId: subOrganizationId, oidcToken, targetPublicKey: target.publicKey });
    const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    expect(
      await sessionClient(server.baseUrl, privateKey).getWhoami({ organizationId: subOrganizationId }),
    ).toMatchObject({
      organizationId: subOrganizationId,
      userId: result.userId,
      username: "bob",
    });
    // The sub-organization sees the parent's vote on its activity by user id only: not the parent user's
    // profile or credentials.
    const seenBySub = await sessionClient(server.baseUrl, privateKey).getActivity({
      organizationId: subOrganizationId,
      activityId: result.activity.id,
    });
    const vote = seenBySub.activity.votes[0]!;
    expect(vote.userId).toBe(result.activity.votes[0]!.userId);
    expect(vote.user.apiKeys).toEqual([]);
    expect(vote.user.userName).toBe("");
    // The parent's own users are not found through the sub-organization.
    const alice = generateP256KeyPair();
    const aliceToken = await issuer.token({ sub: "alice-sub", extra: { nonce: nonceFor(alice.publicKey) } });
    const error = await requestRejection(
      tk.oauth({ organizationId: subOrganizationId, oidcToken: aliceToken, targetPublicKey: alice.publicKey }),
    );
    expect(reasonOf(error)).toBe("OAUTH_PROVIDER_NOT_FOUND");
  });
});
