/**
 * `custodian serve` as a kit developer uses it: the auth proxy answers at the server's own URL, each one-time
 * code is printed on the console, and the outbox is listed at the local development route for the console's
 * token. Pages on this machine (any loopback origin) may call the proxy.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.js";
import { post } from "../support/server.js";

describe("custodian serve's auth proxy and outbox", () => {
  it("sends a code through the proxy from a local page, prints it, and lists it at /dev/outbox", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = startDevServer(["--port", "0", "--data", data, "--memory"]);
    try {
      const baseUrl = await server.ready;
      const config = await post(`${baseUrl}/v1/wallet_kit_config`, "{}");
      expect(config.json).toMatchObject({ enabledProviders: expect.arrayContaining(["email"]) });
      const init = await post(
        `${baseUrl}/v1/otp_init_v2`,
        JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: "dev@example.test" }),
        { origin: "http://localhost:5173" },
      );
      expect(init.status).toBe(200);
      expect(init.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      const token = /\?token=(\S+)/.exec(server.output())?.[1] as string;
      expect(init.json?.otpId).toEqual(expect.any(String));
      const listed = (await (await fetch(`${baseUrl}/dev/outbox?token=${token}`)).json()) as {
        messages: { otpCode: string }[];
      };
      const code = listed.messages.at(-1)?.otpCode as string;
      expect(code).toMatch(/^[0-9A-Z]{9}$/);
      await expect.poll(() => server.output()).toContain(`outbox: email to dev@example.test code ${code}`);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
