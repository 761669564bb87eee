/**
 * The auth proxy's guards against strangers: rate limits per client address and per contact (429 with
 * `retry-after`, gRPC RESOURCE_EXHAUSTED), the origin allow-list (CORS only for allowed origins), and the
 * host's abuse-check hook (a captcha, say).
 */
import { generateP256KeyPair } from "@turnkey/crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createAuthProxyHandler } from "../../src/http.js";
import { CustodyError } from "../../src/index.js";
import { CONFIG_ID, type ProxyServer, startProxyServer } from "../support/auth-proxy.js";
import { engineWithOrganization } from "../support/engine.js";
import { post } from "../support/server.js";

const servers: ProxyServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function proxyServer(options: Parameters<typeof startProxyServer>[0] = {}) {
  const server = await startProxyServer(options);
  servers.push(server);
  return server;
}

/** The client address a test request claims, read by the proxy's `clientAddress` option. */
const fromHeader = { clientAddress: (req: { headers: Record<string, unknown> }) => String(req.headers["x-client"]) };

function call(server: ProxyServer, route: string, body: unknown, headers: Record<string, string> = {}) {
  return post(`${server.baseUrl}/v1/${route}`, JSON.stringify(body), {
    "X-Auth-Proxy-Config-ID": CONFIG_ID,
    ...headers,
  });
}

const signupBody = () => ({
  apiKeys: [{ apiKeyName: "k", publicKey: generateP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
  authenticators: [],
  oauthProviders: [],
});

function expectRateLimited(response: Awaited<ReturnType<typeof post>>) {
  expect(response.status).toBe(429);
  expect(response.json?.code).toBe(8);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("rate limits", () => {
  it("accepts 20 sign-ups from one address by default, then answers 429 with retry-after", async () => {
    const server = await proxyServer();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await call(server, "signup_v2", signupBody())).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await call(server, "signup_v2", signupBody());
    expectRateLimited(refused);
    expect(refused.json?.message).toMatch(/sign-ups from this address/);
    const { organizationIds } = await server.root.getSubOrgIds({
      organizationId: server.organizationId,
      paginationOptions: { limit: "100" },
    });
    expect(organizationIds).toHaveLength(20);
  });

  it("sends at most 5 codes to one contact by default, whoever asks, and other contacts still get theirs", async () => {
    const server = await proxyServer({ proxy: fromHeader });
    const init = (contact: string, client: string) =>
      call(server, "otp_init_v2", { otpType: "OTP_TYPE_EMAIL", contact }, { "x-client": client });
    for (let i = 0; i < 5; i++) expect((await init("target@example.test", `10.0.0.${i}`)).status).toBe(200);
    expectRateLimited(await init("TARGET@example.test", "10.0.1.1"));
    expect(server.engine.outbox("target@example.test")).toHaveLength(5);
    expect((await init("other@example.test", "10.0.1.1")).status).toBe(200);
  });

  it("counts IPv6 clients by their /64 and IPv4-mapped addresses as IPv4", async () => {
    const server = await proxyServer({
      proxy: { ...fromHeader, rateLimits: { requestsPerAddress: { requests: 2, perSeconds: 3600 } } },
    });
    const config = (client: string) => call(server, "wallet_kit_config", {}, { "x-client": client });
    expect((await config("2001:db8:1:2::1")).status).toBe(200);
    expect((await config("2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(200);
    expectRateLimited(await config("2001:0db8:0001:0002::9"));
    expect((await config("2001:db8:1:3::1")).status).toBe(200);
    expect((await config("::ffff:192.0.2.7")).status).toBe(200);
    expect((await config("192.0.2.7")).status).toBe(200);
    expectRateLimited(await config("192.0.2.7"));
  });

  it("changes or turns off a limit by option, and refuses a limit that allows nothing", async () => {
    const server = await proxyServer({ proxy: { rateLimits: { signupsPerAddress: false } } });
    for (let i = 0; i < 25; i++) expect((await call(server, "signup_v2", signupBody())).status).toBe(200);
    const { engine, organizationId, rootUserId } = await engineWithOrganization();
    expect(() =>
      createAuthProxyHandler(engine, {
        organizationId,
        userId: rootUserId,
        rateLimits: { otpSendsPerContact: { requests: 0, perSeconds: 60 } },
      }),
    ).toThrow(/rateLimits.otpSendsPerContact/);
  });
});

describe("origins", () => {
  it("answers CORS for its own origin and listed ones only, and refuses others without CORS headers", async () => {
    const server = await proxyServer({ proxy: { allowedOrigins: ["https://app.example"] } });
    const config = (origin?: string) => call(server, "wallet_kit_config", {}, origin ? { origin } : {});
    const listed = await config("https://app.example");
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const own = await config(server.baseUrl);
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe(server.baseUrl);
    const noOrigin = await config();
    expect(noOrigin.status).toBe(200);
    expect(noOrigin.headers.get("access-control-allow-origin")).toBeNull();
    for (const origin of ["https://evil.example", "https://app.example.evil.example", "null"]) {
      const refused = await config(origin);
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      expect(refused.text).toContain("ORIGIN_NOT_ALLOWED");
    }
    const preflight = await fetch(`${server.baseUrl}/v1/signup_v2`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows no other origin by default", async () => {
    const server = await proxyServer();
    const refused = await call(server, "wallet_kit_config", {}, { origin: "http://localhost:5173" });
    expect(refused.status).toBe(403);
  });
});

describe("the abuse check", () => {
  it("sees the route, client address, contact and captcha token, and refuses with its own error", async () => {
    const seen: unknown[] = [];
    const server = await proxyServer({
      proxy: {
        turnstileSiteKey: "0x4AAAAAAA-site-key",
        abuseCheck: async (request) => {
          seen.push({
            route: request.route,
            clientAddress: request.clientAddress,
            contact: request.contact,
            captchaToken: request.captchaToken,
          });
          if (request.captchaToken !== "good") {
            throw new CustodyError("PERMISSION_DENIED", "the captcha did not pass", { reason: "CAPTCHA_INVALID" });
          }
        },
      },
    });
    const body = { otpType: "OTP_TYPE_EMAIL", contact: "human@example.test" };
    const refused = await call(server, "otp_init_v2", body, { "x-captcha-token": "bot" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("CAPTCHA_INVALID");
    expect(server.engine.outbox("human@example.test")).toHaveLength(0);
    expect((await call(server, "otp_init_v2", body, { "x-captcha-token": "good" })).status).toBe(200);
    expect(seen[0]).toEqual({
      route: "otp_init_v2",
      clientAddress: "127.0.0.1",
      contact: { otpType: "OTP_TYPE_EMAIL", value: "human@example.test" },
      captchaToken: "bot",
    });
    const params = await call(server, "wallet_kit_client_params", {}, { "x-captcha-token": "good" });
    expect(params.json).toEqual({ turnstileSiteKey: "0x4AAAAAAA-site-key" });
  });

  it("fails closed when the check itself breaks, and is not asked about requests over a limit", async () => {
    let asked = 0;
    const server = await proxyServer({
      proxy: {
        rateLimits: { requestsPerAddress: { requests: 2, perSeconds: 3600 } },
        abuseCheck: async () => {
          asked++;
          throw new Error("captcha service unreachable");
        },
      },
    });
    const broken = await call(server, "wallet_kit_config", {});
    expect(broken.status).toBe(500);
    expect(broken.text).not.toContain("unreachable");
    expect(server.errors).toHaveLength(1);
    await call(server, "wallet_kit_config", {});
    expectRateLimited(await call(server, "wallet_kit_config", {}));
    expect(asked).toBe(2);
  });
});
