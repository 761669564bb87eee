/**
 * `custodian serve --oauth2-token-endpoint`: with a local fake Discord token endpoint and its issuer trusted by
 * `--oidc-issuer`, the dev server's `oauth2_authenticate` (through `@turnkey/sdk-server`) exchanges a code for
 * the provider's id token; a provider custodian does not know stops the start naming it.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encryptOauth2ClientSecret } from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.js";
import { FakeTokenEndpoint } from "../support/oauth2-provider.js";
import { serveJwks, TestIssuer } from "../support/oidc.js";

const CLIENT = { clientId: "discord-app", clientSecret: "discord-secret-1", redirectUri: "https://app.example/cb" };

let issuer: TestIssuer;
let endpoint: FakeTokenEndpoint;
let jwks: Awaited<ReturnType<typeof serveJwks>>;

beforeAll(async () => {
  issuer = await TestIssuer.create("https://discord.oauth.test", "ES256");
  jwks = await serveJwks(issuer.jwks);
  endpoint = new FakeTokenEndpoint(issuer, CLIENT);
});

afterAll(async () => {
  await endpoint.close();
  await jwks.close();
});

describe("custodian serve --oauth2-token-endpoint", () => {
  it("exchanges codes at the named token endpoint", async () => {
    const tokenEndpoint = await endpoint.listen();
    const data = mkdtempSync(join(tmpdir(), "custodian-oauth2-"));
    const server = startDevServer([
      ...["--port", "0", "--data", data, "--memory"],
      ...["--oidc-issuer", `${issuer.issuer}=${jwks.uri}`],
      ...["--oauth2-token-endpoint", `OAUTH2_PROVIDER_DISCORD=${tokenEndpoint}`],
    ]);
    try {
      const baseUrl = await server.ready;
      await expect.poll(() => server.output()).toContain("pass to encryptOauth2ClientSecret");
      const credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as Record<
        string,
        string
      >;
      const sdk = new Turnkey({
        apiBaseUrl: baseUrl,
        apiPublicKey: credentials.apiPublicKey as string,
        apiPrivateKey: credentials.apiPrivateKey as string,
        defaultOrganizationId: credentials.organizationId as string,
      }).apiClient();
      const { oauth2CredentialId } = await sdk.createOauth2Credential({
        provider: "OAUTH2_PROVIDER_DISCORD",
        clientId: CLIENT.clientId,
        encryptedClientSecret: await encryptOauth2ClientSecret(
          CLIENT.clientSecret,
          credentials.oauth2ClientSecretPublicKey as string,
        ),
      });
      endpoint.grants.set("code-1", { sub: "dora", nonce: "n-1", codeVerifier: "v-1" });
      const { oidcToken } = await sdk.oauth2Authenticate({
        oauth2CredentialId,
        authCode: "code-1",
        redirectUri: CLIENT.redirectUri,
        codeVerifier: "v-1",
        nonce: "n-1",
      });
      expect(decodeJwt(oidcToken)).toMatchObject({ sub: "dora", aud: CLIENT.clientId, nonce: "n-1" });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("refuses to start with a provider custodian does not know", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-oauth2-"));
    const refused = startDevServer([
      ...["--port", "0", "--data", data, "--memory"],
      ...["--oauth2-token-endpoint", "OAUTH2_PROVIDER_MYSPACE=http://127.0.0.1:9/token"],
    ]);
    const error = await refused.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("OAUTH2_PROVIDER_MYSPACE");
  });
});
