/**
 * `custodian serve` as a person runs it: start, read the printed address and the credentials file, talk to
 * it with @turnkey/sdk-server, stop it with Ctrl-C.
 */
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { Turnkey } from "@turnkey/sdk-server";
import { describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.js";

describe("custodian serve", () => {
  it("serves the printed credentials to @turnkey/sdk-server and stops cleanly on SIGINT", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = startDevServer(["--port", "0", "--data", data]);
    const baseUrl = await server.ready;
    const path = join(data, "root-api-key.json");
    expect(server.output()).toContain(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
    expect(server.output()).toContain(`organization ${credentials.organizationId}`);
    const client = new Turnkey({
      apiBaseUrl: baseUrl,
      apiPublicKey: credentials.apiPublicKey as string,
      apiPrivateKey: credentials.apiPrivateKey as string,
      defaultOrganizationId: credentials.organizationId as string,
    }).apiClient();
    expect(await client.getWhoami()).toMatchObject({
      organizationId: credentials.organizationId,
      userId: credentials.userId,
      username: "root",
    });
    expect(await server.stop()).toBe(0);
  });

  it("uses the operator's root public key and writes no private key", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const secret = p256.utils.randomSecretKey();
    const apiPublicKey = bytesToHex(p256.getPublicKey(secret, true));
    const server = startDevServer(["--port", "0", "--data", data, "--root-public-key", apiPublicKey]);
    const baseUrl = await server.ready;
    const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as Record<string, string>;
    expect(credentials.apiPublicKey).toBe(apiPublicKey);
    expect(credentials.apiPrivateKey).toBeUndefined();
    const client = new Turnkey({
      apiBaseUrl: baseUrl,
      apiPublicKey,
      apiPrivateKey: bytesToHex(secret),
      defaultOrganizationId: credentials.organizationId as string,
    }).apiClient();
    expect((await client.getWhoami()).userId).toBe(credentials.userId);
    expect(await server.stop()).toBe(0);
  });

  it("keeps its organization and sealed key file across restarts on the file store", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const first = startDevServer(["--port", "0", "--data", data]);
    await first.ready;
    expect(first.output()).toContain("generated a key-encryption key");
    expect(statSync(join(data, "key-encryption-key")).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as Record<string, string>;
    expect(await first.stop()).toBe(0);

    const second = startDevServer(["--port", "0", "--data", data]);
    const baseUrl = await second.ready;
    expect(second.output()).toContain(`organization ${credentials.organizationId}`);
    expect(second.output()).toContain("key-encryption key from");
    const client = new Turnkey({
      apiBaseUrl: baseUrl,
      apiPublicKey: credentials.apiPublicKey as string,
      apiPrivateKey: credentials.apiPrivateKey as string,
      defaultOrganizationId: credentials.organizationId as string,
    }).apiClient();
    expect((await client.getWhoami()).organizationId).toBe(credentials.organizationId);
    expect(await second.stop()).toBe(0);
  });

  it("refuses a root public key that is not on P-256, naming it", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = startDevServer(["--port", "0", "--data", data, "--root-public-key", `02${"ff".repeat(32)}`]);
    const error = await server.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited with 1: custodian: .*publicKey/);
  });
});
