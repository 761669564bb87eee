/**
 * The HTTP adapter and the auth proxy on one loopback server, as a kit's `apiBaseUrl` and `authProxyUrl`, and
 * `@turnkey/core` clients configured for it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OtpType } from "@turnkey/core";
import { encryptOtpCodeToBundle } from "@turnkey/crypto";
import { type AuthProxyOptions, createAuthProxyHandler, createHttpHandler } from "../../src/http.js";
import type { CustodyEngineOptions } from "../../src/index.js";
import { coreClient } from "./core-client.js";
import { engineWithOrganization } from "./engine.js";

export const CONFIG_ID = "kit-config";

export type ProxyServer = Awaited<ReturnType<typeof startProxyServer>>;

/** An engine with an organization, served with its auth proxy; `proxy` options add to the defaults. */
export async function startProxyServer(
  options: { engine?: CustodyEngineOptions; proxy?: Partial<AuthProxyOptions> } = {},
) {
  const fixture = await engineWithOrganization(options.engine);
  const errors: unknown[] = [];
  const api = createHttpHandler(fixture.engine);
  const proxy = createAuthProxyHandler(fixture.engine, {
    organizationId: fixture.organizationId,
    userId: fixture.rootUserId,
    configId: CONFIG_ID,
    onError: (error) => errors.push(error),
    ...options.proxy,
  });
  const server: Server = createServer((req, res) => proxy(req, res, () => api(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A fresh `@turnkey/core` client of the kit, as one browser would hold it. */
  const kit = () =>
    coreClient({
      apiBaseUrl: baseUrl,
      authProxyUrl: baseUrl,
      authProxyConfigId: CONFIG_ID,
      organizationId: fixture.organizationId,
    }).client;

  /**
   * Core's `initOtp` and the proxy's `otp_verify_v2` with the code from the outbox, sealed with the engine's
   * bundle signer key (core's own `verifyOtp` expects Turnkey's production key).
   */
  const verifyContact = async (tk: ReturnType<typeof kit>, otpType: OtpType, contact: string) => {
    const { otpId, otpEncryptionTargetBundle } = await tk.initOtp({ otpType, contact });
    const code = fixture.engine.outbox(contact).at(-1)?.otpCode as string;
    const publicKey = await tk.createApiKeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(
      code,
      otpEncryptionTargetBundle,
      publicKey,
      await fixture.engine.signerPublicKey(),
    );
    const { verificationToken } = await tk.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle });
    return { verificationToken, publicKey };
  };

  return {
    ...fixture,
    baseUrl,
    errors,
    kit,
    verifyContact,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export { OtpType };
