/**
 * Session log-ins (`stamp_login`, `oauth_login`, `create_read_only_session`): the session JWT verifies with
 * `@turnkey/crypto` against the engine's token key and parses with `@turnkey/core`'s `parseSession`, the
 * session key is a registered log-in key that the official client can stamp with until it expires, and the
 * stored activity keeps no token.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { parseSession } from "@turnkey/core/dist/utils.js";
import { generateP256KeyPair, verifySessionJwtSignature } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { afterEach, describe, expect, it } from "vitest";
import { oidcNonceFor } from "../../src/operations/oauth.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";
import { type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection } from "../support/session-client.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function sessionOf(activity: { result: unknown }, member: string): string {
  return ((activity.result as Record<string, { session: string }>)[member] as { session: string }).session;
}

describe("stamp_login", () => {
  it("registers the client's key as an expiring log-in key and answers with a session JWT @turnkey/core parses", async () => {
    const { engine, root, organizationId, rootUserId } = await engineWithOrganization();
    const sessionKey = generateP256KeyPair();
    const { activity } = await root.stampLogin({
      organizationId,
      parameters: { publicKey: sessionKey.publicKey, expirationSeconds: "600" },
    });
    const jwt = sessionOf(activity, "stampLoginResult");
    expect(await verifySessionJwtSignature(jwt, await engine.tokenSignerPublicKey())).toBe(true);
    const session = parseSession(jwt);
    expect(session).toMatchObject({
      sessionType: "SESSION_TYPE_READ_WRITE",
      userId: rootUserId,
      organizationId,
      publicKey: sessionKey.publicKey,
    });
    expect(Number(session.expirationSeconds)).toBeGreaterThan(590);
    const { apiKeys } = await root.getApiKeys({ organizationId, userId: rootUserId });
    expect(apiKeys).toContainEqual(
      expect.objectContaining({
        credential: { publicKey: sessionKey.publicKey, type: "CREDENTIAL_TYPE_LOGIN" },
        expirationSeconds: "600",
      }),
    );
  });

  it("keeps the session JWT out of the stored activity", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.stampLogin({
      organizationId,
      parameters: { publicKey: generateP256KeyPair().publicKey },
    });
    expect(sessionOf(activity, "stampLoginResult")).toMatch(/^eyJ/);
    const { activity: stored } = await root.getActivity({ organizationId, activityId: activity.id });
    expect(stored.result).toEqual({ stampLoginResult: { session: "<redacted>" } });
  });

  it("lets the official client act with the session key until the session expires", async () => {
    let now = Date.now();
    const { engine, root, organizationId } = await engineWithOrganization({ clock: () => now });
    const server = await serve(engine);
    servers.push(server);
    const sessionKey = generateP256KeyPair();
    await root.stampLogin({ organizationId, parameters: { publicKey: sessionKey.publicKey, expirationSeconds: "60" } });
    const client = new TurnkeyClient(
      { baseUrl: server.baseUrl },
      new ApiKeyStamper({ apiPublicKey: sessionKey.publicKey, apiPrivateKey: sessionKey.privateKey }),
    );
    expect((await client.getWhoami({ organizationId })).organizationId).toBe(organizationId);
    now += 61_000;
    const error = await requestRejection(client.getWhoami({ organizationId }));
    expect(reasonOf(error)).toBe("API_KEY_EXPIRED");
  });

  it("replaces the user's other log-in keys when invalidateExisting is set", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const first = generateP256KeyPair();
    const second = generateP256KeyPair();
    await root.stampLogin({ organizationId, parameters: { publicKey: first.publicKey } });
    await root.stampLogin({ organizationId, parameters: { publicKey: second.publicKey, invalidateExisting: true } });
    const { apiKeys } = await root.getApiKeys({ organizationId, userId: rootUserId });
    const loginKeys = apiKeys.filter((key) => key.credential.type === "CREDENTIAL_TYPE_LOGIN");
    expect(loginKeys.map((key) => key.credential.publicKey)).toEqual([second.publicKey]);
  });

  it("refuses a key that is not a compressed P-256 point, and a zero lifetime", async () => {
    const { root, organizationId } = await engineWithOrganization();
    await expectCustodyError(
      root.stampLogin({ organizationId, parameters: { publicKey: "02abcd" } }),
      "INVALID_ARGUMENT",
      "parameters.publicKey",
    );
    await expectCustodyError(
      root.stampLogin({
        organizationId,
        parameters: { publicKey: generateP256KeyPair().publicKey, expirationSeconds: "0" },
      }),
      "INVALID_ARGUMENT",
      "parameters.expirationSeconds",
    );
  });
});

describe("oauth_login", () => {
  it("turns an OIDC token whose nonce binds the session key into a session of the provider's user", async () => {
    const issuer = await TestIssuer.create();
    const { engine, root, organizationId, rootUserId } = await engineWithOrganization({
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
    });
    await root.createOauthProviders({
      organizationId,
      parameters: { userId: rootUserId, oauthProviders: [{ providerName: "test", oidcToken: await issuer.token() }] },
    });
    const sessionKey = generateP256KeyPair();
    const oidcToken = await issuer.token({ extra: { nonce: oidcNonceFor(sessionKey.publicKey) } });
    const { activity } = await root.oauthLogin({
      organizationId,
      parameters: { oidcToken, publicKey: sessionKey.publicKey },
    });
    const jwt = sessionOf(activity, "oauthLoginResult");
    expect(await verifySessionJwtSignature(jwt, await engine.tokenSignerPublicKey())).toBe(true);
    expect(parseSession(jwt)).toMatchObject({ userId: rootUserId, publicKey: sessionKey.publicKey });
    expect(JSON.stringify(activity.intent)).not.toContain(oidcToken);
  });

  it("refuses a token issued for another key", async () => {
    const issuer = await TestIssuer.create();
    const { root, organizationId, rootUserId } = await engineWithOrganization({
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
    });
    await root.createOauthProviders({
      organizationId,
      parameters: { userId: rootUserId, oauthProviders: [{ providerName: "test", oidcToken: await issuer.token() }] },
    });
    const oidcToken = await issuer.token({ extra: { nonce: oidcNonceFor(generateP256KeyPair().publicKey) } });
    const error = await expectCustodyError(
      root.oauthLogin({ organizationId, parameters: { oidcToken, publicKey: generateP256KeyPair().publicKey } }),
      "INVALID_ARGUMENT",
      "parameters.oidcToken",
    );
    expect(error.details.reason).toBe("INVALID_OIDC_TOKEN");
  });
});

describe("create_read_only_session", () => {
  it("answers with a read-only session JWT and its expiry, registering no key", async () => {
    const { engine, root, organizationId, rootUserId } = await engineWithOrganization();
    const before = (await root.getApiKeys({ organizationId, userId: rootUserId })).apiKeys.length;
    const { activity } = await root.createReadOnlySession({ organizationId, parameters: {} });
    const result = activity.result!.createReadOnlySessionResult;
    expect(result).toMatchObject({ organizationId, organizationName: "Acme", userId: rootUserId, username: "root" });
    expect(await verifySessionJwtSignature(result.session, await engine.tokenSignerPublicKey())).toBe(true);
    const session = parseSession(result.session);
    expect(session.sessionType).toBe("SESSION_TYPE_READ_ONLY");
    expect(String(session.expiry)).toBe(result.sessionExpiry);
    expect((await root.getApiKeys({ organizationId, userId: rootUserId })).apiKeys.length).toBe(before);
  });
});
