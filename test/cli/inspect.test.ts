/**
 * `custodian inspect`: a stopped dev server's organizations and activities, read without writing and
 * without taking over a running server's store.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import { describe, expect, it } from "vitest";
import { SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { type DevCredentials, runCli, startDevServer } from "../support/dev-server.js";

/** Every file under `directory` with its size and modification time (directories change as the lock comes and goes). */
function listing(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .sort()
    .filter((name) => statSync(join(directory, name)).isFile())
    .map((name) => {
      const stat = statSync(join(directory, name));
      return `${name} ${stat.size} ${stat.mtimeMs}`;
    });
}

describe("custodian inspect", () => {
  it("lists a stopped server's organizations and recent activities, writing nothing; refuses while it runs", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-inspect-"));
    const server = startDevServer(["--port", "0", "--data", data]);
    await server.ready;
    const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as DevCredentials;
    const client = new Turnkey({
      apiBaseUrl: credentials.baseUrl,
      apiPublicKey: credentials.apiPublicKey,
      apiPrivateKey: credentials.apiPrivateKey,
      defaultOrganizationId: credentials.organizationId,
    }).apiClient();
    const wallet = await client.createWallet({
      walletName: "inspected",
      accounts: [SOLANA_ACCOUNT],
    });
    const sub = await client.createSubOrganization({
      subOrganizationName: "alice",
      rootUsers: [{ userName: "alice", apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });

    const whileRunning = await runCli(["inspect", "--data", data]);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toMatch(/is in use by pid \d+/);
    expect(whileRunning.stderr).toContain("does not take over a running one");
    expect(await server.stop()).toBe(0);

    const before = listing(data);
    const run = await runCli(["inspect", "--data", data]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`organization "custodian dev" ${credentials.organizationId}`);
    expect(run.stdout).toContain("users 1 · wallets 1 · private keys 0 · policies 0 · sub-organizations 1");
    expect(run.stdout).toContain(`sub-organization "alice" ${sub.subOrganizationId}`);
    expect(run.stdout).toMatch(new RegExp(`ACTIVITY_TYPE_CREATE_WALLET COMPLETED ${wallet.activity.id}`));
    expect(run.stdout).toMatch(/ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V\d+ COMPLETED/);
    expect(listing(data)).toEqual(before);
  });

  it("says what a directory without dev server state lacks", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-inspect-"));
    const run = await runCli(["inspect", "--data", data]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${data} holds no dev server state`);
  });
});
