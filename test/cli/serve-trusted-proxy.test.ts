/**
 * `custodian serve --trusted-proxy`: with the organization's IP allowlist enabled for one network, the dev server
 * refuses a stamped request from its loopback peer, lets one in whose X-Forwarded-For (from the trusted proxy)
 * names an address of that network, and its request log says why it refused the first; a value that is no address or CIDR
 * stops the start naming it.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import { describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.js";
import { post } from "../support/server.js";

describe("custodian serve --trusted-proxy", () => {
  it("holds requests to the address the trusted proxy forwarded", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-trusted-proxy-"));
    const server = startDevServer(["--port", "0", "--data", data, "--memory", "--trusted-proxy", "127.0.0.1"]);
    try {
      const baseUrl = await server.ready;
      const credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as Record<
        string,
        string
      >;
      const organizationId = credentials.organizationId as string;
      const client = new Turnkey({
        apiBaseUrl: baseUrl,
        apiPublicKey: credentials.apiPublicKey as string,
        apiPrivateKey: credentials.apiPrivateKey as string,
        defaultOrganizationId: organizationId,
      }).apiClient();
      await client.setIpAllowlist({ enabled: true, rules: [{ cidr: "198.51.100.0/24", label: "office" }] });

      const direct = await client.getWhoami({ organizationId }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String(direct)).toContain("Turnkey error 7: requests from 127.0.0.1 are not allowed");

      const signed = await client.stampGetWhoami({ organizationId });
      if (signed === undefined) throw new Error("the client stamped nothing");
      const forwarded = await post(signed.url, signed.body, {
        [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue,
        "x-forwarded-for": "198.51.100.40",
      });
      expect(forwarded.status).toBe(200);
      expect(forwarded.json).toMatchObject({ organizationId });
      await expect
        .poll(() => server.output())
        .toMatch(/POST \/public\/v1\/query\/whoami 403 .*requests from 127\.0\.0\.1 are not allowed/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("refuses to start with a trusted proxy that is no address or CIDR", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-trusted-proxy-"));
    const refused = startDevServer(["--port", "0", "--data", data, "--memory", "--trusted-proxy", "proxy.internal"]);
    const error = await refused.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('--trusted-proxy must be an IP address or CIDR block, got "proxy.internal"');
  });
});
