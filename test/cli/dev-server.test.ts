/**
 * What the dev server shows and keeps: its request log, its seeded and reset starts, its credentials, and
 * the state it leaves (or does not) in its data directory.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import { describe, expect, it } from "vitest";
import { type DevCredentials, startDevServer } from "../support/dev-server.js";
import { p256KeyPair } from "../support/engine.js";

function dataDirectory(): string {
  return mkdtempSync(join(tmpdir(), "custodian-dev-"));
}

function credentialsIn(path: string): DevCredentials {
  return JSON.parse(readFileSync(path, "utf8")) as DevCredentials;
}

function clientOf(credentials: DevCredentials) {
  return new Turnkey({
    apiBaseUrl: credentials.baseUrl,
    apiPublicKey: credentials.apiPublicKey,
    apiPrivateKey: credentials.apiPrivateKey,
    defaultOrganizationId: credentials.organizationId,
  }).apiClient();
}

const ESC = "\u001b";

const ETHEREUM_ACCOUNT = {
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
} as const;

/** Polls the server's output until `pattern` appears: log lines are written after the response is sent. */
async function outputMatching(output: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = output().match(pattern);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the dev server's request log", () => {
  it("logs one line per request: method, path, status, ms, activity type, status and id", async () => {
    const data = dataDirectory();
    const server = startDevServer(["--port", "0", "--data", data, "--memory"]);
    await server.ready;
    const credentials = credentialsIn(join(data, "memory-root-api-key.json"));
    const client = clientOf(credentials);
    const { activity } = await client.createWallet({ walletName: "logged", accounts: [ETHEREUM_ACCOUNT] });
    await client.getWhoami();
    await fetch(`${credentials.baseUrl}/public/v1/query/whoami`, { method: "POST", body: "{}" });

    const line = await outputMatching(server.output, /^.*POST \/public\/v1\/submit\/create_wallet .*$/m);
    expect(line[0]).toMatch(
      new RegExp(
        `POST /public/v1/submit/create_wallet 200 \\d+ms ACTIVITY_TYPE_CREATE_WALLET COMPLETED ${activity.id}$`,
      ),
    );
    await outputMatching(server.output, /POST \/public\/v1\/query\/whoami 200 \d+ms$/m);
    await outputMatching(server.output, /POST \/public\/v1\/query\/whoami 400 \d+ms$/m);
    expect(server.output()).not.toContain(ESC);
    expect(server.output()).not.toContain(credentials.apiPrivateKey);
    expect(await server.stop()).toBe(0);
  });

  it("names, for a denial and for a pending approval, the activity, the deciding policy and why; and the errors and warnings of policies", async () => {
    const data = dataDirectory();
    const server = startDevServer(["--port", "0", "--data", data, "--memory"]);
    await server.ready;
    const credentials = credentialsIn(join(data, "memory-root-api-key.json"));
    const root = clientOf(credentials);
    const agentKey = p256KeyPair();
    const { userIds } = await root.createUsers({
      users: [
        {
          userName: "agent",
          apiKeys: [{ apiKeyName: "agent", publicKey: agentKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    });
    const agent = clientOf({ ...credentials, apiPublicKey: agentKey.publicKey, apiPrivateKey: agentKey.privateKey });
    const checksummed = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
    const { policyId: denyId } = await root.createPolicy({
      policyName: "no wallets for the agent",
      effect: "EFFECT_DENY",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'",
      consensus: `approvers.any(user, user.id == '${userIds[0]}')`,
      notes: "",
    });
    // A wallet being created has no `wallet` keyword: this condition errors whenever it is evaluated.
    const { policyId: brokenId } = await root.createPolicy({
      policyName: "broken",
      effect: "EFFECT_ALLOW",
      condition: "wallet.label == 'treasury'",
      notes: "",
    });
    const { policyId: twoId } = await root.createPolicy({
      policyName: "keys need two",
      effect: "EFFECT_ALLOW",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2'",
      consensus: "approvers.count() >= 2",
      notes: "",
    });
    await root.createPolicy({
      policyName: "sends to USDC",
      effect: "EFFECT_ALLOW",
      condition: `activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.to == '${checksummed}'`,
      notes: "",
    });

    const warned = await outputMatching(
      server.output,
      /^ {2}warning: parameters\.condition \(character \d+\): the address '0xA0b8.*$/m,
    );
    expect(warned[0]).toContain(`write '${checksummed.toLowerCase()}'`);

    const denied = await agent.createWallet({ walletName: "w", accounts: [ETHEREUM_ACCOUNT] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(denied).toBeDefined();
    const deniedLine = await outputMatching(
      server.output,
      /^.*POST \/public\/v1\/submit\/create_wallet 403 .*(?:\n {2}error: .*)*$/m,
    );
    expect(deniedLine[0]).toMatch(
      new RegExp(
        `403 \\d+ms ACTIVITY_TYPE_CREATE_WALLET FAILED [0-9a-f-]{36} policy "no wallets for the agent" \\(${denyId}\\): a deny policy applies`,
      ),
    );
    expect(deniedLine[0]).toContain(`\n  error: policy "broken" (${brokenId}) failed in its condition: `);

    const { activity } = await agent.createPrivateKeys({
      privateKeys: [{ privateKeyName: "k", curve: "CURVE_SECP256K1", addressFormats: [], privateKeyTags: [] }],
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const pendingLine = await outputMatching(server.output, /^.*POST \/public\/v1\/submit\/create_private_keys .*$/m);
    expect(pendingLine[0]).toMatch(
      new RegExp(
        `200 \\d+ms ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2 CONSENSUS_NEEDED ${activity.id} ` +
          `policy "keys need two" \\(${twoId}\\): needs approvals: approvers\\.count\\(\\) >= 2$`,
      ),
    );
    expect(await server.stop()).toBe(0);
  });

  it("writes pino JSON records with --log-format json, colours with FORCE_COLOR, and nothing per request with --quiet", async () => {
    const json = startDevServer(["--port", "0", "--data", dataDirectory(), "--memory", "--log-format", "json"]);
    const coloured = startDevServer(["--port", "0", "--data", dataDirectory(), "--memory"], {
      env: { FORCE_COLOR: "1" },
    });
    const quiet = startDevServer(["--port", "0", "--data", dataDirectory(), "--memory", "--quiet"]);
    const [jsonUrl, colouredUrl, quietUrl] = await Promise.all([json.ready, coloured.ready, quiet.ready]);
    for (const url of [jsonUrl, colouredUrl, quietUrl])
      await fetch(`${url}/public/v1/query/whoami`, { method: "POST" });

    const [record] = await outputMatching(json.output, /^\{.*"msg":"request".*\}$/m);
    expect(JSON.parse(record)).toMatchObject({
      level: 30,
      method: "POST",
      path: "/public/v1/query/whoami",
      status: 400,
    });
    expect(typeof JSON.parse(record).ms).toBe("number");
    await outputMatching(coloured.output, new RegExp(`${ESC}\\[33m400${ESC}\\[0m`));
    const quietBanner = quiet.output();
    expect(await quiet.stop()).toBe(0);
    expect(quiet.output().slice(quietBanner.length)).not.toMatch(/whoami/);
    expect(await json.stop()).toBe(0);
    expect(await coloured.stop()).toBe(0);
  });
});

describe("the dev server's state", () => {
  it("prints and writes everything a client needs, and the file works as it is", async () => {
    const data = dataDirectory();
    const server = startDevServer(["--port", "0", "--data", data]);
    const baseUrl = await server.ready;
    const credentials = credentialsIn(join(data, "root-api-key.json"));
    expect(credentials.baseUrl).toBe(baseUrl);
    const output = server.output();
    for (const value of [baseUrl, credentials.organizationId, credentials.userId, credentials.apiPublicKey]) {
      expect(output).toContain(value);
    }
    expect(output).toContain(`dangerouslyOverrideSignerPublicKey: "${credentials.signerPublicKey}"`);
    expect(output).toMatch(new RegExp(`console ${baseUrl}/\\?token=\\S+`));
    expect(output).not.toContain(credentials.apiPrivateKey);
    expect((await clientOf(credentials).getWhoami()).userId).toBe(credentials.userId);
    expect(await server.stop()).toBe(0);
  });

  it("leaves root-api-key.json to the durable store when run with --memory, so the next start keeps its organization", async () => {
    const data = dataDirectory();
    const first = startDevServer(["--port", "0", "--data", data]);
    await first.ready;
    const durable = readFileSync(join(data, "root-api-key.json"), "utf8");
    expect(await first.stop()).toBe(0);

    const memory = startDevServer(["--port", "0", "--data", data, "--memory"]);
    await memory.ready;
    const ephemeral = credentialsIn(join(data, "memory-root-api-key.json"));
    expect(ephemeral.organizationId).not.toBe(credentialsIn(join(data, "root-api-key.json")).organizationId);
    expect(readFileSync(join(data, "root-api-key.json"), "utf8")).toBe(durable);
    expect(await memory.stop()).toBe(0);

    const again = startDevServer(["--port", "0", "--data", data]);
    await again.ready;
    const reopened = credentialsIn(join(data, "root-api-key.json"));
    expect(reopened.organizationId).toBe((JSON.parse(durable) as DevCredentials).organizationId);
    expect(again.output()).toContain(`organization ${reopened.organizationId}`);
    expect(await again.stop()).toBe(0);
  });

  it("writes no state when the start fails", async () => {
    const data = join(dataDirectory(), "never");
    const server = startDevServer(["--port", "0", "--data", data, "--root-public-key", `02${"ff".repeat(32)}`]);
    const error = await server.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited with 1: custodian: .*publicKey/);
    expect(existsSync(data)).toBe(false);
  });

  it("names a port in use with a hint, and writes nothing", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    const data = join(dataDirectory(), "never");
    const server = startDevServer(["--port", String(port), "--data", data]);
    const error = await server.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    blocker.close();
    expect(error?.message).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(error?.message).toContain("--port 0 picks a free one");
    expect(existsSync(data)).toBe(false);
  });

  it("starts the same with the same --seed: ids, keys and the wallets made alike", async () => {
    const runs = ["alpha", "alpha", "beta"].map((seed) => {
      const data = dataDirectory();
      return { data, server: startDevServer(["--port", "0", "--data", data, "--memory", "--seed", seed]) };
    });
    await Promise.all(runs.map((run) => run.server.ready));
    const seen = [];
    for (const run of runs) {
      const credentials = credentialsIn(join(run.data, "memory-root-api-key.json"));
      const { walletId } = await clientOf(credentials).createWallet({
        walletName: "seeded",
        accounts: [ETHEREUM_ACCOUNT],
      });
      const { accounts } = await clientOf(credentials).getWalletAccounts({ walletId });
      seen.push({ ...credentials, baseUrl: "", address: accounts[0]?.address, walletId });
      expect(run.server.output()).toContain("seeded start");
      expect(await run.server.stop()).toBe(0);
    }
    const [alpha, alphaAgain, beta] = seen;
    for (const member of ["organizationId", "userId", "apiPublicKey", "signerPublicKey", "address"] as const) {
      expect(alphaAgain?.[member]).toBe(alpha?.[member]);
      expect(beta?.[member]).not.toBe(alpha?.[member]);
    }
  });

  it("--reset starts over with a new organization, and is refused while another server holds the directory", async () => {
    const data = dataDirectory();
    const first = startDevServer(["--port", "0", "--data", data]);
    await first.ready;
    const before = credentialsIn(join(data, "root-api-key.json"));
    const refused = startDevServer(["--port", "0", "--data", data, "--reset"]);
    const error = await refused.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/is in use by pid \d+/);
    expect(credentialsIn(join(data, "root-api-key.json"))).toEqual(before);
    expect(await first.stop()).toBe(0);

    const reset = startDevServer(["--port", "0", "--data", data, "--reset"]);
    await reset.ready;
    expect(reset.output()).toContain("generated a key-encryption key");
    const after = credentialsIn(join(data, "root-api-key.json"));
    expect(after.organizationId).not.toBe(before.organizationId);
    expect(after.apiPublicKey).not.toBe(before.apiPublicKey);
    expect(readdirSync(data).sort()).toEqual(["key-encryption-key", "root-api-key.json", "store"]);
    expect(await reset.stop()).toBe(0);
  });
});
