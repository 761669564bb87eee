/**
 * The auth proxy's `oauth2_authenticate` as the wallet kits call it for X and Discord: `@turnkey/core`'s
 * `proxyOAuth2Authenticate` hands the provider's code to the proxy, which exchanges it with the OAuth 2.0
 * credential the app's organization holds (a local fake token endpoint signing with a local OIDC issuer), and
 * core's `completeOauth` spends the token it answers to sign the user up and then in. Refusals name the field
 * and record nothing.
 */

import { parseSession } from "@turnkey/core/dist/utils.js";
import { encryptOauth2ClientSecret, generateP256KeyPair } from "@turnkey/crypto";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcNonceFor } from "../../src/operations/oauth.js";
import { type ProxyServer, startProxyServer } from "../support/auth-proxy.js";
import { FakeTokenEndpoint } from "../support/oauth2-provider.js";
import { TestIssuer } from "../support/oidc.js";

const CLIENT = {
  clientId: "discord-app",
  clientSecret: "discord-secret-9f8e7d",
  redirectUri: "https://app.example/cb",
};

let issuer: TestIssuer;
let endpoint: FakeTokenEndpoint;
let server: ProxyServer;

beforeAll(async () => {
  issuer = await TestIssuer.create("https://discord.oauth.test", "ES256");
  endpoint = new FakeTokenEndpoint(issuer, CLIENT);
  const tokenEndpoint = await endpoint.listen();
  server = await startProxyServer({
    engine: {
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
      oauth2Providers: { OAUTH2_PROVIDER_DISCORD: { tokenEndpoint } },
    },
  });
  await server.root.createOauth2Credential({
    organizationId: server.organizationId,
    parameters: {
      provider: "OAUTH2_PROVIDER_DISCORD",
      clientId: CLIENT.clientId,
      encryptedClientSecret: await encryptOauth2ClientSecret(
        CLIENT.clientSecret,
        await server.engine.oauth2ClientSecretPublicKey(),
      ),
    },
  });
});

afterAll(async () => {
  await server.close();
  await endpoint.close();
});

/** The kit's half of a PKCE redirect: the provider granted `code` for the session key's nonce. */
function grant(code: string, sub: string, publicKey: string) {
  const nonce = oidcNonceFor(publicKey);
  endpoint.grants.set(code, { sub, nonce, codeVerifier: `verifier-${code}` });
  return {
    provider: "OAUTH2_PROVIDER_DISCORD" as const,
    authCode: code,
    redirectUri: CLIENT.redirectUri,
    codeVerifier: `verifier-${code}`,
    clientId: CLIENT.clientId,
    nonce,
  };
}

async function activityCount(): Promise<number> {
  return (await server.root.getActivities({ organizationId: server.organizationId })).activities.length;
}

describe("oauth2_authenticate through the auth proxy", () => {
  it("exchanges a Discord code for the provider's token, with which core signs the user up and then in", async () => {
    const tk = server.kit();
    const publicKey = await tk.createApiKeyPair();
    const { oidcToken } = await tk.httpClient.proxyOAuth2Authenticate(grant("code-1", "dora", publicKey));
    expect(decodeJwt(oidcToken)).toMatchObject({ iss: issuer.issuer, sub: "dora", aud: CLIENT.clientId });
    const signedUp = await tk.completeOauth({ oidcToken, publicKey, providerName: "discord" });
    expect(signedUp.action).toBe("SIGNUP");
    const { organizationId } = parseSession(signedUp.sessionToken);
    expect(organizationId).not.toBe(server.organizationId);

    const again = server.kit();
    const nextKey = await again.createApiKeyPair();
    const second = await again.httpClient.proxyOAuth2Authenticate(grant("code-2", "dora", nextKey));
    const loggedIn = await again.completeOauth({ oidcToken: second.oidcToken, publicKey: nextKey });
    expect(loggedIn.action).toBe("LOGIN");
    expect(parseSession(loggedIn.sessionToken)).toMatchObject({ organizationId, publicKey: nextKey });
  });

  it.each([
    ["a client id the app holds no credential for", { clientId: "other-app" }, 404, "clientId"],
    ["a provider custodian does not know", { provider: "OAUTH2_PROVIDER_MYSPACE" }, 400, "provider"],
    ["a code the provider never granted", { authCode: "never-granted" }, 400, "parameters.authCode"],
  ] as const)("refuses %s, naming the field and recording nothing", async (_what, change, status, field) => {
    const before = await activityCount();
    const body = { ...grant("code-x", "eve", generateP256KeyPair().publicKey), ...change };
    const answer = await fetch(`${server.baseUrl}/v1/oauth2_authenticate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-auth-proxy-config-id": "kit-config" },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(status);
    expect(JSON.stringify(await answer.json())).toContain(field);
    if (field !== "parameters.authCode") expect(await activityCount()).toBe(before);
  });

  it("is refused when the app does not enable Discord", async () => {
    const narrow = await startProxyServer({ proxy: { enabledProviders: ["email", "x"] } });
    try {
      const answer = await fetch(`${narrow.baseUrl}/v1/oauth2_authenticate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-auth-proxy-config-id": "kit-config" },
        body: JSON.stringify(grant("code-y", "eve", generateP256KeyPair().publicKey)),
      });
      expect(answer.status).toBe(403);
    } finally {
      await narrow.close();
    }
  });
});
