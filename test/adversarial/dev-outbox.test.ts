/**
 * The dev server's outbox (`GET /dev/outbox`) holds every one-time code it sent: whoever reads one can verify
 * that contact. It keeps the dev console's rules: the console token (query, cookie or Bearer) or a stamp by
 * the root user's API key. The auth proxy's `custodian serve` flags (`--proxy-limit`, `--proxy-origin`)
 * reach the proxy.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../support/dev-server.js";
import { post } from "../support/server.js";

const CONTACT = "dev@example.test";

let server: DevServer;
let baseUrl: string;
let token: string;
let data: string;

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), "custodian-outbox-"));
  server = startDevServer([
    "--port",
    "0",
    "--data",
    data,
    "--memory",
    "--proxy-limit",
    "otpSendsPerContact=2/1h",
    "--proxy-origin",
    "https://app.example",
  ]);
  baseUrl = await server.ready;
  token = /\?token=(\S+)/.exec(server.output())?.[1] as string;
  const sent = await post(`${baseUrl}/v1/otp_init_v2`, JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: CONTACT }));
  expect(sent.status).toBe(200);
});

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("GET /dev/outbox", () => {
  it("shows no code to a request without the console token", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong" },
      { cookie: "custodian_console=wrong" },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${baseUrl}/dev/outbox`, { headers });
      const text = await response.text();
      expect(response.status).toBe(401);
      expect(text).not.toContain(CONTACT);
      expect(text).not.toContain("otpCode");
    }
    expect((await fetch(`${baseUrl}/dev/outbox?token=wrong`)).status).toBe(401);
  });

  it("lists the codes for the console token or a root stamp", async () => {
    for (const url of [`${baseUrl}/dev/outbox?token=${token}`, `${baseUrl}/dev/outbox`]) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const { messages } = (await response.json()) as { messages: { to: string; otpCode: string }[] };
      expect(messages.at(-1)).toMatchObject({ to: CONTACT, otpCode: expect.stringMatching(/^[0-9A-Z]{9}$/) });
    }
    const credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8"));
    const stamper = new ApiKeyStamper({
      apiPublicKey: credentials.apiPublicKey,
      apiPrivateKey: credentials.apiPrivateKey,
    });
    const { stampHeaderValue } = await stamper.stamp("/dev/outbox");
    expect((await fetch(`${baseUrl}/dev/outbox`, { headers: { "x-stamp": stampHeaderValue } })).status).toBe(200);
    const changed = await post(`${baseUrl}/dev/outbox`, "{}", { authorization: `Bearer ${token}` });
    expect(changed.status).toBe(405);
  });
});

describe("custodian serve's proxy flags", () => {
  it("applies --proxy-limit and --proxy-origin", async () => {
    const again = await post(
      `${baseUrl}/v1/otp_init_v2`,
      JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: CONTACT }),
    );
    expect(again.status).toBe(200);
    const third = await post(
      `${baseUrl}/v1/otp_init_v2`,
      JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: CONTACT }),
    );
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    const config = (origin: string) => post(`${baseUrl}/v1/wallet_kit_config`, "{}", { origin });
    expect((await config("https://app.example")).status).toBe(200);
    expect((await config("http://localhost:5173")).status).toBe(403);
    expect((await config(baseUrl)).status).toBe(200);
  });
});
