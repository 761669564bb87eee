/**
 * OAuth 2.0 credentials through the official clients over a loopback port, against a local fake token
 * endpoint (node:http on 127.0.0.1) that answers id tokens signed by a local OIDC issuer.
 *
 * `@turnkey/sdk-server` creates, reads, lists, updates and deletes a credential whose client secret
 * `encryptOauth2ClientSecret` (`@turnkey/crypto`) sealed to the engine's key, then `oauth2Authenticate`
 * exchanges a code and `oauthLogin` signs the provider's user in with the token it answers. Every answer is
 * checked against the API description. `@turnkey/http` sees each hostile input refused with the right code
 * naming the field and storing nothing: an unknown credential, a wrong code, an oversized or endless token
 * answer, a provider with no endpoint, a secret sealed to another key, a token for another nonce.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { encryptOauth2ClientSecret, generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CustodyEngine } from "../../src/index.js";
import { createTestOrganization, type TestOrganization } from "../../src/testing/index.js";
import { FakeTokenEndpoint, type Mode } from "../support/oauth2-provider.js";
import { TestIssuer } from "../support/oidc.js";
import { conformanceFaults } from "../support/swagger-conformance.js";

const CLIENT_ID = "discord-client";
const CLIENT_SECRET = "discord-client-secret-a1b2c3";
const REDIRECT_URI = "https://app.example/callback";

let issuer: TestIssuer;
let endpoint: FakeTokenEndpoint;
let tokenEndpoint: string;
const opened: TestOrganization[] = [];

beforeAll(async () => {
  issuer = await TestIssuer.create("https://discord.oauth.test", "ES256");
  endpoint = new FakeTokenEndpoint(issuer, {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: REDIRECT_URI,
  });
  tokenEndpoint = await endpoint.listen();
});

afterEach(async () => {
  endpoint.mode = "normal";
  await Promise.all(opened.splice(0).map((org) => org.close()));
});

afterAll(async () => {
  await endpoint.close();
});

async function organization(): Promise<TestOrganization> {
  const org = await createTestOrganization({
    listen: true,
    engine: {
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
      oauth2Providers: {
        OAUTH2_PROVIDER_DISCORD: { tokenEndpoint, timeoutMs: 1500, maxAnswerBytes: 16 * 1024 },
      },
    },
  });
  opened.push(org);
  return org;
}

const nonceFor = (publicKeyHex: string) => bytesToHex(sha256(utf8ToBytes(publicKeyHex)));

function conforms(path: string, answer: unknown): void {
  expect(conformanceFaults(path, JSON.parse(JSON.stringify(answer)))).toEqual([]);
}

async function sealedSecret(org: TestOrganization, secret = CLIENT_SECRET): Promise<string> {
  return encryptOauth2ClientSecret(secret, await org.engine.oauth2ClientSecretPublicKey());
}

describe("OAuth 2.0 credentials through @turnkey/sdk-server", () => {
  it("creates, reads, lists, updates and deletes a credential; its secret is in no activity and sealed at rest", async () => {
    const org = await organization();
    const sdk = new Turnkey(org.turnkeyConfig).apiClient();
    const encryptedClientSecret = await sealedSecret(org);
    const created = await sdk.createOauth2Credential({
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: CLIENT_ID,
      encryptedClientSecret,
    });
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { oauth2CredentialId } = created;

    const one = await sdk.getOauth2Credential({ oauth2CredentialId });
    conforms("/public/v1/query/get_oauth2_credential", one);
    expect(one.oauth2Credential).toMatchObject({
      oauth2CredentialId,
      organizationId: org.organizationId,
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: CLIENT_ID,
      encryptedClientSecret,
    });
    const listed = await sdk.listOauth2Credentials({});
    conforms("/public/v1/query/list_oauth2_credentials", listed);
    expect(listed.oauth2Credentials.map((c) => c.oauth2CredentialId)).toEqual([oauth2CredentialId]);

    const { activity } = await sdk.getActivity({ activityId: created.activity.id });
    conforms("/public/v1/query/get_activity", { activity });
    const intent = activity.intent.createOauth2CredentialIntent;
    expect(intent?.clientId).toBe(CLIENT_ID);
    expect(intent?.encryptedClientSecret).toMatch(/redacted/);
    const record = await org.store.transaction(async (tx) => tx.get("oauth2Credentials", oauth2CredentialId));
    expect(JSON.stringify(record)).not.toContain(CLIENT_SECRET);

    const updated = await sdk.updateOauth2Credential({
      oauth2CredentialId,
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: "discord-client-2",
      encryptedClientSecret: await sealedSecret(org, "another-secret"),
    });
    expect(updated.oauth2CredentialId).toBe(oauth2CredentialId);
    expect((await sdk.getOauth2Credential({ oauth2CredentialId })).oauth2Credential.clientId).toBe("discord-client-2");

    const deleted = await sdk.deleteOauth2Credential({ oauth2CredentialId });
    expect(deleted.oauth2CredentialId).toBe(oauth2CredentialId);
    expect((await sdk.listOauth2Credentials({})).oauth2Credentials).toEqual([]);
  });

  it("exchanges a code for the provider's id token, with which oauthLogin signs the provider's user in", async () => {
    const org = await organization();
    const sdk = new Turnkey(org.turnkeyConfig).apiClient();
    const alice = await org.createUser({ name: "alice" });
    await sdk.createOauthProviders({
      userId: alice.userId,
      oauthProviders: [
        { providerName: "Discord", oidcToken: await issuer.token({ sub: "alice-sub", aud: CLIENT_ID }) },
      ],
    });
    const { oauth2CredentialId } = await sdk.createOauth2Credential({
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: CLIENT_ID,
      encryptedClientSecret: await sealedSecret(org),
    });
    const session = generateP256KeyPair();
    const nonce = nonceFor(session.publicKey);
    endpoint.grants.set("code-alice", { sub: "alice-sub", nonce, codeVerifier: "verifier-1" });

    const authenticated = await sdk.oauth2Authenticate({
      oauth2CredentialId,
      authCode: "code-alice",
      redirectUri: REDIRECT_URI,
      codeVerifier: "verifier-1",
      nonce,
    });
    conforms("/public/v1/submit/oauth2_authenticate", { activity: authenticated.activity });
    expect(decodeJwt(authenticated.oidcToken)).toMatchObject({ iss: issuer.issuer, sub: "alice-sub", nonce });
    const last = endpoint.requests.at(-1);
    expect(last?.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`);
    expect(last?.body.get("client_id")).toBe(CLIENT_ID);

    const login = await sdk.oauthLogin({ oidcToken: authenticated.oidcToken, publicKey: session.publicKey });
    expect(decodeJwt(login.session)).toMatchObject({ user_id: alice.userId, organization_id: org.organizationId });

    // The code, the verifier and the token are in no stored activity.
    const { activity } = await sdk.getActivity({ activityId: authenticated.activity.id });
    const stored = JSON.stringify(activity);
    for (const secret of ["code-alice", "verifier-1", authenticated.oidcToken]) expect(stored).not.toContain(secret);
  });
});

describe("refused through @turnkey/http, storing nothing", () => {
  type Refusal = Error & { details: { code?: string; field?: string; reason?: string }[] | null };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: unknown) => {
        const details = (error as Refusal).details ?? [];
        return details.find((detail) => detail.field !== undefined);
      },
    );

  async function setUp() {
    const org = await organization();
    const client = new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(org.apiKey));
    const envelope = () => ({ timestampMs: String(Date.now()), organizationId: org.organizationId });
    const credentials = async () =>
      (await client.listOauth2Credentials({ organizationId: org.organizationId })).oauth2Credentials;
    return { org, client, envelope, credentials };
  }

  it.each([
    [
      "a provider whose token endpoint the host did not configure",
      { provider: "OAUTH2_PROVIDER_X" },
      "FAILED_PRECONDITION",
      "parameters.provider",
    ],
    ["an unknown provider", { provider: "OAUTH2_PROVIDER_MYSPACE" }, "INVALID_ARGUMENT", "parameters.provider"],
    [
      "a secret that is not an envelope",
      { encryptedClientSecret: "zz" },
      "INVALID_ARGUMENT",
      "parameters.encryptedClientSecret",
    ],
    ["an empty client id", { clientId: "" }, "INVALID_ARGUMENT", "parameters.clientId"],
  ] as const)("create_oauth2_credential refuses %s", async (_what, change, code, field) => {
    const { org, client, envelope, credentials } = await setUp();
    const parameters = {
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: CLIENT_ID,
      encryptedClientSecret: await sealedSecret(org),
      ...change,
    };
    const detail = await refusal(
      client.createOauth2Credential({
        type: "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
        ...envelope(),
        parameters: parameters as never,
      }),
    );
    expect(detail).toMatchObject({ code, field });
    expect(await credentials()).toEqual([]);
  });

  it("create_oauth2_credential refuses a secret sealed to another key", async () => {
    const { client, envelope, credentials } = await setUp();
    const detail = await refusal(
      client.createOauth2Credential({
        type: "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
        ...envelope(),
        parameters: {
          provider: "OAUTH2_PROVIDER_DISCORD",
          clientId: CLIENT_ID,
          encryptedClientSecret: await encryptOauth2ClientSecret(
            CLIENT_SECRET,
            generateP256KeyPair().publicKeyUncompressed,
          ),
        },
      }),
    );
    expect(detail).toMatchObject({ code: "INVALID_ARGUMENT", field: "parameters.encryptedClientSecret" });
    expect(JSON.stringify(detail)).not.toContain(CLIENT_SECRET);
    expect(await credentials()).toEqual([]);
  });

  it("update_oauth2_credential refuses an unknown credential and a bad secret, keeping the stored one", async () => {
    const { org, client, envelope, credentials } = await setUp();
    const created = await client.createOauth2Credential({
      type: "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
      ...envelope(),
      parameters: {
        provider: "OAUTH2_PROVIDER_DISCORD",
        clientId: CLIENT_ID,
        encryptedClientSecret: await sealedSecret(org),
      },
    });
    conforms("/public/v1/submit/create_oauth2_credential", created);
    const before = await credentials();
    const oauth2CredentialId = before[0]?.oauth2CredentialId as string;
    const good = {
      oauth2CredentialId,
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: "other",
      encryptedClientSecret: await sealedSecret(org),
    };
    for (const [change, code, field] of [
      [{ oauth2CredentialId: "no-such-credential" }, "NOT_FOUND", "parameters.oauth2CredentialId"],
      [
        { encryptedClientSecret: `${good.encryptedClientSecret.slice(0, -2)}00` },
        "INVALID_ARGUMENT",
        "parameters.encryptedClientSecret",
      ],
      [{ provider: "OAUTH2_PROVIDER_X" }, "FAILED_PRECONDITION", "parameters.provider"],
    ] as const) {
      const detail = await refusal(
        client.updateOauth2Credential({
          type: "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL",
          ...envelope(),
          parameters: { ...good, ...change } as never,
        }),
      );
      expect(detail).toMatchObject({ code, field });
    }
    expect(await credentials()).toEqual(before);
    const detail = await refusal(
      client.deleteOauth2Credential({
        type: "ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL",
        ...envelope(),
        parameters: { oauth2CredentialId: "no-such-credential" },
      }),
    );
    expect(detail).toMatchObject({ code: "NOT_FOUND", field: "parameters.oauth2CredentialId" });
    expect(await credentials()).toEqual(before);
  });

  describe("oauth2_authenticate refuses", () => {
    const cases: [string, Mode, Record<string, string>, string, string][] = [
      [
        "an unknown credential",
        "normal",
        { oauth2CredentialId: "no-such-credential" },
        "NOT_FOUND",
        "parameters.oauth2CredentialId",
      ],
      ["a wrong code", "normal", { authCode: "not-issued" }, "INVALID_ARGUMENT", "parameters.authCode"],
      [
        "a code with the wrong verifier",
        "normal",
        { codeVerifier: "other-verifier" },
        "INVALID_ARGUMENT",
        "parameters.authCode",
      ],
      [
        "a token issued for another nonce",
        "normal",
        { nonce: nonceFor("04ab") },
        "INVALID_ARGUMENT",
        "parameters.nonce",
      ],
      ["an oversized token answer", "oversized", {}, "UNAVAILABLE", "parameters.oauth2CredentialId"],
      ["an endless token answer", "endless", {}, "UNAVAILABLE", "parameters.oauth2CredentialId"],
      ["a failing token endpoint", "failing", {}, "UNAVAILABLE", "parameters.oauth2CredentialId"],
      [
        "a bearer token target",
        "normal",
        { bearerTokenTargetPublicKey: "04ab" },
        "UNIMPLEMENTED",
        "parameters.bearerTokenTargetPublicKey",
      ],
    ];
    it.each(cases)("%s", async (_what, mode, change, code, field) => {
      const { org, client, envelope, credentials } = await setUp();
      await client.createOauth2Credential({
        type: "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
        ...envelope(),
        parameters: {
          provider: "OAUTH2_PROVIDER_DISCORD",
          clientId: CLIENT_ID,
          encryptedClientSecret: await sealedSecret(org),
        },
      });
      const before = await credentials();
      const user = await org.createUser({ name: "bob" });
      const keysBefore = await client.getApiKeys({ organizationId: org.organizationId, userId: user.userId });
      const nonce = nonceFor(generateP256KeyPair().publicKey);
      const authCode = `code-${Math.random().toString(36).slice(2)}`;
      endpoint.grants.set(authCode, { sub: "bob-sub", nonce, codeVerifier: "verifier-1" });
      endpoint.mode = mode;
      const detail = await refusal(
        client.oauth2Authenticate({
          type: "ACTIVITY_TYPE_OAUTH2_AUTHENTICATE",
          ...envelope(),
          parameters: {
            oauth2CredentialId: before[0]?.oauth2CredentialId as string,
            authCode,
            redirectUri: REDIRECT_URI,
            codeVerifier: "verifier-1",
            nonce,
            ...change,
          },
        }),
      );
      expect(detail).toMatchObject({ code, field });
      expect(JSON.stringify(detail)).not.toContain(CLIENT_SECRET);
      expect(await credentials()).toEqual(before);
      expect(await client.getApiKeys({ organizationId: org.organizationId, userId: user.userId })).toEqual(keysBefore);
    });
  });
});

describe("the host's oauth2Providers option", () => {
  it.each([
    [{ OAUTH2_PROVIDER_MYSPACE: { tokenEndpoint: "https://myspace.test/token" } }, "oauth2Providers"],
    [
      { OAUTH2_PROVIDER_DISCORD: { tokenEndpoint: "not a url" } },
      "oauth2Providers.OAUTH2_PROVIDER_DISCORD.tokenEndpoint",
    ],
    [
      { OAUTH2_PROVIDER_DISCORD: { tokenEndpoint: "file:///etc/passwd" } },
      "oauth2Providers.OAUTH2_PROVIDER_DISCORD.tokenEndpoint",
    ],
    [
      { OAUTH2_PROVIDER_DISCORD: { tokenEndpoint: "https://discord.test/token", timeoutMs: 0 } },
      "oauth2Providers.OAUTH2_PROVIDER_DISCORD.timeoutMs",
    ],
  ])("refuses %j, naming %s", (oauth2Providers, field) => {
    expect(() => new CustodyEngine({ oauth2Providers: oauth2Providers as never })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", field }),
    );
  });
});
