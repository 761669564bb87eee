/**
 * `@turnkey/sdk-server`'s OTP and OAuth helpers (`initOtp`, `verifyOtp`, `otpLogin`, `oauthLogin`,
 * `getVerifiedSubOrgIds`) and `@turnkey/sdk-browser`'s read-only session (`createReadOnlySession`, then
 * queries carrying only `X-Session`) against the HTTP adapter.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { getClientSignatureMessageForLogin, getClientSignatureMessageForSignup, signWithApiKey } from "@turnkey/core";
import { parseSession } from "@turnkey/core/dist/utils.js";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyBrowserClient } from "@turnkey/sdk-browser";
import { Turnkey } from "@turnkey/sdk-server";
import { afterEach, describe, expect, it } from "vitest";
import { oidcNonceFor } from "../../src/operations/oauth.js";
import { engineWithOrganization } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";
import { type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection } from "../support/session-client.js";

const EMAIL = "erin@example.test";
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function setup(options: Parameters<typeof engineWithOrganization>[0] = {}) {
  const fixture = await engineWithOrganization(options);
  const server = await serve(fixture.engine);
  servers.push(server);
  const client = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
    defaultOrganizationId: fixture.organizationId,
  }).apiClient();
  return { ...fixture, server, client };
}

describe("@turnkey/sdk-server's OTP and OAuth helpers", () => {
  it("send a code, verify it, sign up with the token and log in by OTP and by OAuth", async () => {
    const issuer = await TestIssuer.create();
    const { engine, client } = await setup({
      oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } },
    });
    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({
      otpType: "OTP_TYPE_EMAIL",
      contact: EMAIL,
      appName: "Demo",
    });
    const code = engine.outbox(EMAIL).at(-1)?.otpCode as string;
    const key = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(
      code,
      otpEncryptionTargetBundle,
      key.publicKey,
      await engine.signerPublicKey(),
    );
    const { verificationToken } = await client.verifyOtp({ otpId, encryptedOtpBundle });

    const oauthProviders = [{ providerName: "issuer", oidcToken: await issuer.token({ sub: "erin" }) }];
    const signup = getClientSignatureMessageForSignup({ verificationToken, email: EMAIL });
    const { subOrganizationId } = await client.createSubOrganization({
      subOrganizationName: "erin",
      rootUsers: [{ userName: "erin", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders }],
      rootQuorumThreshold: 1,
      verificationToken,
      clientSignature: {
        publicKey: key.publicKey,
        scheme: "CLIENT_SIGNATURE_SCHEME_API_P256",
        message: signup.message,
        signature: await signWithApiKey({ content: signup.message, ...key }),
      },
    });
    expect(await client.getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: EMAIL })).toMatchObject({
      organizationIds: [subOrganizationId],
    });

    const sessionKey = generateP256KeyPair();
    const login = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: sessionKey.publicKey });
    const { session } = await client.otpLogin({
      organizationId: subOrganizationId,
      verificationToken,
      publicKey: sessionKey.publicKey,
      clientSignature: {
        publicKey: key.publicKey,
        scheme: "CLIENT_SIGNATURE_SCHEME_API_P256",
        message: login.message,
        signature: await signWithApiKey({ content: login.message, ...key }),
      },
    });
    expect(parseSession(session)).toMatchObject({ organizationId: subOrganizationId, publicKey: sessionKey.publicKey });

    const oauthKey = generateP256KeyPair();
    const oauth = await client.oauthLogin({
      organizationId: subOrganizationId,
      oidcToken: await issuer.token({ sub: "erin", extra: { nonce: oidcNonceFor(oauthKey.publicKey) } }),
      publicKey: oauthKey.publicKey,
    });
    expect(parseSession(oauth.session)).toMatchObject({ organizationId: subOrganizationId });
  });

  it("refuses a wrong code over the wire, naming the OTP refusal", async () => {
    const { engine, client } = await setup();
    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({
      otpType: "OTP_TYPE_EMAIL",
      contact: EMAIL,
      appName: "Demo",
    });
    const code = engine.outbox(EMAIL).at(-1)?.otpCode as string;
    const encryptedOtpBundle = await encryptOtpCodeToBundle(
      code === "000000000" ? "111111111" : "000000000",
      otpEncryptionTargetBundle,
      generateP256KeyPair().publicKey,
      await engine.signerPublicKey(),
    );
    const error = await requestRejection(client.verifyOtp({ otpId, encryptedOtpBundle }));
    expect(reasonOf(error)).toBe("INVALID_OTP_CODE");
    expect(error.message).not.toContain(code);
  });
});

describe("@turnkey/sdk-browser's read-only session", () => {
  it("reads with X-Session alone, cannot submit, and stops when the session expires", async () => {
    let now = Date.now();
    const { server, organizationId, rootKey } = await setup({ clock: () => now });
    const stamped = new TurnkeyBrowserClient({
      apiBaseUrl: server.baseUrl,
      organizationId,
      stamper: new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
    });
    const { session, sessionExpiry } = await stamped.createReadOnlySession({});
    expect(Number(sessionExpiry)).toBeGreaterThan(now / 1000);

    const reader = new TurnkeyBrowserClient({ apiBaseUrl: server.baseUrl, organizationId, readOnlySession: session });
    expect(await reader.getWhoami({ organizationId })).toMatchObject({ organizationId, username: "root" });
    expect((await reader.getWallets({ organizationId })).wallets).toEqual([]);
    const write = await requestRejection(reader.createWallet({ walletName: "w", accounts: [] }));
    expect(write.message).toMatch(/read-only session/);

    const forged = new TurnkeyBrowserClient({
      apiBaseUrl: server.baseUrl,
      organizationId,
      readOnlySession: `${session.slice(0, -4)}AAAA`,
    });
    expect(reasonOf(await requestRejection(forged.getWhoami({ organizationId })))).toBe("SESSION_INVALID");

    now += 3601_000;
    expect(reasonOf(await requestRejection(reader.getWhoami({ organizationId })))).toBe("SESSION_EXPIRED");
  });
});
