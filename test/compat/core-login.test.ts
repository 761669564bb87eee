/**
 * End to end with `@turnkey/core`'s client in Node against the HTTP adapter and the auth proxy on one
 * server: sign up by email OTP through the proxy (the code read from the outbox), log in again by OTP and by
 * OAuth (a local OIDC issuer) under attested stamps, refresh the session, create a wallet and sign a
 * message with the session key. The session JWT parses with core and verifies with `@turnkey/crypto`.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { OtpType } from "@turnkey/core";
import { parseSession } from "@turnkey/core/dist/utils.js";
import { encryptOtpCodeToBundle, verifySessionJwtSignature } from "@turnkey/crypto";
import { recoverMessageAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_PROXY_PATHS, createAuthProxyHandler, createHttpHandler } from "../../src/http.js";
import { oidcNonceFor } from "../../src/operations/oauth.js";
import { coreClient } from "../support/core-client.js";
import { engineWithOrganization } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";
import { post } from "../support/server.js";

const EMAIL = "carol@example.test";
const CONFIG_ID = "kit-config";

let server: Server;
let baseUrl: string;
let fixture: Awaited<ReturnType<typeof engineWithOrganization>>;
let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await TestIssuer.create();
  fixture = await engineWithOrganization({ oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } } });
  const api = createHttpHandler(fixture.engine);
  const proxy = createAuthProxyHandler(fixture.engine, {
    organizationId: fixture.organizationId,
    userId: fixture.rootUserId,
    configId: CONFIG_ID,
  });
  server = createServer((req, res) => proxy(req, res, () => api(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function kit() {
  return coreClient({
    apiBaseUrl: baseUrl,
    authProxyUrl: baseUrl,
    authProxyConfigId: CONFIG_ID,
    organizationId: fixture.organizationId,
  });
}

/**
 * Core's `initOtp` and the proxy's `otp_verify_v2`, with the code from the outbox. Core's own `verifyOtp`
 * checks the target bundle against Turnkey's production key, so the code is sealed here with the engine's
 * bundle signer key (the override core does not expose) and sent through core's HTTP client.
 */
async function verifyEmail(tk: ReturnType<typeof kit>["client"]) {
  const { otpId, otpEncryptionTargetBundle } = await tk.initOtp({ otpType: OtpType.Email, contact: EMAIL });
  const code = fixture.engine.outbox(EMAIL).at(-1)?.otpCode as string;
  const publicKey = await tk.createApiKeyPair();
  const encryptedOtpBundle = await encryptOtpCodeToBundle(
    code,
    otpEncryptionTargetBundle,
    publicKey,
    await fixture.engine.signerPublicKey(),
  );
  const { verificationToken } = await tk.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle });
  return { verificationToken, publicKey };
}

describe("@turnkey/core against custodian", () => {
  let subOrganizationId: string;

  it("signs a new user up by email OTP through the auth proxy", async () => {
    const { client: tk } = kit();
    expect(await tk.getProxyAuthConfig()).toMatchObject({ organizationId: fixture.organizationId });
    const { verificationToken, publicKey } = await verifyEmail(tk);
    const account = await tk.httpClient.proxyGetAccount({ filterType: "EMAIL", filterValue: EMAIL, verificationToken });
    expect(account.organizationId).toBeUndefined();
    const registration = await issuer.token({ sub: "carol" });
    const { sessionToken } = await tk.signUpWithOtp({
      verificationToken,
      contact: EMAIL,
      otpType: OtpType.Email,
      createSubOrgParams: { oauthProviders: [{ providerName: "test issuer", oidcToken: registration }] },
    });
    const session = parseSession(sessionToken);
    expect(session).toMatchObject({ sessionType: "SESSION_TYPE_READ_WRITE", publicKey });
    expect(await verifySessionJwtSignature(sessionToken, await fixture.engine.tokenSignerPublicKey())).toBe(true);
    subOrganizationId = session.organizationId;
    expect(subOrganizationId).not.toBe(fixture.organizationId);
    const user = await tk.fetchUser();
    expect(user.userEmail).toBe(EMAIL);
  });

  it("logs the user in again by OTP under an attested stamp", async () => {
    const { client: tk } = kit();
    const { verificationToken, publicKey } = await verifyEmail(tk);
    const account = await tk.httpClient.proxyGetAccount({ filterType: "EMAIL", filterValue: EMAIL, verificationToken });
    expect(account.organizationId).toBe(subOrganizationId);
    const { sessionToken } = await tk.loginWithOtp({ verificationToken });
    expect(parseSession(sessionToken)).toMatchObject({ organizationId: subOrganizationId, publicKey });
    // The token logged in once; a second log-in with it is refused.
    await expect(tk.loginWithOtp({ verificationToken })).rejects.toThrow();
  });

  it("logs the user in by OAuth, refreshes the session, creates a wallet and signs with the session key", async () => {
    const { client: tk } = kit();
    const publicKey = await tk.createApiKeyPair();
    const oidcToken = await issuer.token({ sub: "carol", extra: { nonce: oidcNonceFor(publicKey) } });
    const { sessionToken, action } = await tk.completeOauth({ oidcToken, publicKey });
    expect(action).toBe("LOGIN");
    expect(parseSession(sessionToken)).toMatchObject({ organizationId: subOrganizationId, publicKey });

    const refreshed = await tk.refreshSession({ expirationSeconds: "1200" });
    const session = parseSession(refreshed?.session as string);
    expect(session.publicKey).not.toBe(publicKey);
    expect(Number(session.expirationSeconds)).toBeGreaterThan(1190);

    const walletId = await tk.createWallet({ walletName: "main", accounts: ["ADDRESS_FORMAT_ETHEREUM"] });
    const wallets = await tk.fetchWallets();
    const account = wallets.find((wallet) => wallet.walletId === walletId)?.accounts[0];
    expect(account?.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const message = "hello from the kit";
    const { r, s, v } = await tk.signMessage({ message, walletAccount: account as never, addEthereumPrefix: true });
    const recovered = await recoverMessageAddress({
      message,
      signature: { r: `0x${r}`, s: `0x${s}`, yParity: Number.parseInt(v, 16) },
    });
    expect(recovered.toLowerCase()).toBe(account?.address.toLowerCase());
  });

  it("refuses an attested stamp whose signature or attestation does not match", async () => {
    const { client: tk, keys } = kit();
    const { verificationToken } = await verifyEmail(tk);
    // Signed by another key than the token binds.
    const other = await keys.createKeyPair();
    await tk.overrideAttestedStamper({ verificationToken, publicKey: other });
    const mismatch = await tk.httpClient.stampLogin({ publicKey: other }, "attested" as never).then(
      () => undefined,
      (error: { code?: number; message: string }) => error,
    );
    expect(mismatch?.message).toMatch(/binds another key/);

    // A valid signature over another body: the stamp of one request replayed on another.
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_STAMP_LOGIN",
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters: { publicKey: other },
    });
    await tk.overrideAttestedStamper({ oidcToken: await issuer.token({ sub: "carol" }), publicKey: other });
    const stamper = (
      tk as unknown as { attestedStamper: { stamp: (p: string) => Promise<{ stampHeaderValue: string }> } }
    ).attestedStamper;
    const { stampHeaderValue } = await stamper.stamp(`${body} `);
    const replayed = await post(`${baseUrl}/public/v1/submit/stamp_login`, body, {
      "X-Stamp-Attested": stampHeaderValue,
    });
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain("SIGNATURE_INVALID");
  });

  it("answers the proxy's look-ups only for the contact the token verified", async () => {
    const { client: tk } = kit();
    const { verificationToken } = await verifyEmail(tk);
    await expect(
      tk.httpClient.proxyGetAccount({ filterType: "EMAIL", filterValue: "dave@example.test", verificationToken }),
    ).rejects.toThrow(/another contact/);
    const wrongConfig = await post(`${baseUrl}/v1/wallet_kit_config`, "{}", { "X-Auth-Proxy-Config-ID": "other" });
    expect(wrongConfig.status).toBe(401);
  });

  it("serves every auth-proxy path @turnkey/core calls", () => {
    const base = createRequire(import.meta.url).resolve("@turnkey/core/dist/__generated__/sdk-client-base.js");
    const called = [...readFileSync(base, "utf8").matchAll(/authProxyRequest\("(\/v1\/[a-z0-9_]+)"/g)].map(
      (match) => match[1],
    );
    expect(new Set(called)).toEqual(new Set(AUTH_PROXY_PATHS));
    expect(AUTH_PROXY_PATHS).toHaveLength(13);
  });

  it("refuses a sign-up that claims an email without a verification token", async () => {
    const response = await post(
      `${baseUrl}/v1/signup_v2`,
      JSON.stringify({ userEmail: "eve@example.test", apiKeys: [], authenticators: [], oauthProviders: [] }),
      { "X-Auth-Proxy-Config-ID": CONFIG_ID },
    );
    expect(response.status).toBe(400);
    expect(response.json?.message).toMatch(/verificationToken/);
  });
});
