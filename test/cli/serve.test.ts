/**
 * `custodian serve` as a person runs it: start, read the printed address and the credentials file, talk to
 * it with @turnkey/sdk-server, stop it with Ctrl-C.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { Turnkey } from "@turnkey/sdk-server";
import { describe, expect, it } from "vitest";

function start(args: string[]): { child: ChildProcess; output: () => string; ready: Promise<string> } {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match && output.includes("storage:")) resolve(match[1] as string);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, output: () => output, ready };
}

function stopped(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("custodian serve", () => {
  it("serves the printed credentials to @turnkey/sdk-server and stops cleanly on SIGINT", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = start(["--port", "0", "--data", data]);
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
    const exit = stopped(server.child);
    server.child.kill("SIGINT");
    expect(await exit).toBe(0);
  });

  it("uses the operator's root public key and writes no private key", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const secret = p256.utils.randomSecretKey();
    const apiPublicKey = bytesToHex(p256.getPublicKey(secret, true));
    const server = start(["--port", "0", "--data", data, "--root-public-key", apiPublicKey]);
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
    const exit = stopped(server.child);
    server.child.kill("SIGINT");
    expect(await exit).toBe(0);
  });

  it("keeps its organization and sealed key file across restarts on the file store", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const first = start(["--port", "0", "--data", data]);
    await first.ready;
    expect(first.output()).toContain("generated a key-encryption key");
    expect(statSync(join(data, "key-encryption-key")).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as Record<string, string>;
    let exit = stopped(first.child);
    first.child.kill("SIGINT");
    expect(await exit).toBe(0);

    const second = start(["--port", "0", "--data", data]);
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
    exit = stopped(second.child);
    second.child.kill("SIGINT");
    expect(await exit).toBe(0);
  });

  it("refuses a root public key that is not on P-256, naming it", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = start(["--port", "0", "--data", data, "--root-public-key", `02${"ff".repeat(32)}`]);
    const error = await server.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited with 1: custodian: .*publicKey/);
  });
});
