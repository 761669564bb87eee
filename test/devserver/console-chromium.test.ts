/**
 * The dev console in a real browser: Debian's Chromium, headless, driven by playwright-core. The dev server
 * runs as a developer runs it; the data comes in through the official client; the browser opens the
 * printed console address, follows an activity waiting for approval to its policy explanation, and
 * screenshots the page.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { Turnkey } from "@turnkey/sdk-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { CHROMIUM, launchChromium } from "../support/browser.js";
import { type DevCredentials, type DevServer, startDevServer } from "../support/dev-server.js";

/** A wallet name that would run script if the console inserted it as markup. */
const HOSTILE_NAME = `<img src=x onerror="document.title='pwned'">`;

let server: DevServer;
let receiver: Server;
let browser: Browser;
let credentials: DevCredentials;
let consoleUrl: string;
let pendingActivityId: string;
let policyId: string;
let subOrganizationId: string;
let bobKey: { apiPublicKey: string; apiPrivateKey: string };

function client(apiPublicKey: string, apiPrivateKey: string) {
  return new Turnkey({
    apiBaseUrl: credentials.baseUrl,
    apiPublicKey,
    apiPrivateKey,
    defaultOrganizationId: credentials.organizationId,
    activityPoller: { intervalMs: 10, numRetries: 1 },
  }).apiClient();
}

beforeAll(async () => {
  receiver = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const data = mkdtempSync(join(tmpdir(), "custodian-console-"));
  server = startDevServer([
    "--port",
    "0",
    "--data",
    data,
    "--memory",
    "--seed",
    "console",
    "--allow-insecure-webhooks",
  ]);
  await server.ready;
  consoleUrl = (server.output().match(/^console (\S+)$/m) as RegExpMatchArray)[1] as string;
  credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as DevCredentials;
  const root = client(credentials.apiPublicKey, credentials.apiPrivateKey);

  await root.createWebhookEndpoint({
    name: "local receiver",
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    subscriptions: [{ eventType: "ACTIVITY_UPDATES" }],
  });
  await root.createWallet({ walletName: HOSTILE_NAME, accounts: [ETHEREUM_ACCOUNT] });
  const bobSecret = p256.utils.randomSecretKey();
  const bobPublicKey = bytesToHex(p256.getPublicKey(bobSecret, true));
  const { userIds } = await root.createUsers({
    users: [
      {
        userName: "bob",
        apiKeys: [{ apiKeyName: "bob's key", publicKey: bobPublicKey, curveType: "API_KEY_CURVE_P256" }],
        authenticators: [],
        oauthProviders: [],
        userTags: [],
      },
    ],
  });
  ({ policyId } = await root.createPolicy({
    policyName: "wallets need two approvals",
    effect: "EFFECT_ALLOW",
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: "approvers.count() >= 2",
    notes: "",
  }));
  ({ subOrganizationId } = await root.createSubOrganization({
    subOrganizationName: "alice's org",
    rootUsers: [{ userName: "alice", apiKeys: [], authenticators: [], oauthProviders: [] }],
    rootQuorumThreshold: 1,
  }));
  const pending = await client(bobPublicKey, bytesToHex(bobSecret)).createWallet({
    walletName: "bob's wallet",
    accounts: [ETHEREUM_ACCOUNT],
  });
  expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
  expect(userIds).toHaveLength(1);
  bobKey = { apiPublicKey: bobPublicKey, apiPrivateKey: bytesToHex(bobSecret) };
  pendingActivityId = pending.activity.id;

  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.close();
});

describe("the dev console in Chromium", () => {
  it("is installed where the test expects it", () => {
    expect(existsSync(CHROMIUM)).toBe(true);
  });

  it("turns a browser without the token away", async () => {
    const page = await browser.newPage();
    const response = await page.goto(credentials.baseUrl);
    expect(response?.status()).toBe(401);
    expect(await page.textContent("main")).toContain("open the console address the dev server printed");
    await page.close();
  });

  it("lets a script in with the root user's stamp over the request target, and no one else's", async () => {
    const target = `/activities/${pendingActivityId}`;
    const read = async (key: { apiPublicKey: string; apiPrivateKey: string }, stamped: string) => {
      const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper(key).stamp(stamped);
      return fetch(`${credentials.baseUrl}${target}`, { headers: { [stampHeaderName]: stampHeaderValue } });
    };
    const root = await read(credentials, target);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain("waiting for approvals under policy");
    expect((await read(bobKey, target)).status).toBe(401);
    expect((await read(credentials, "/")).status).toBe(401);
  });

  it("shows the organization, follows a pending activity to its policy explanation, and renders it", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(consoleUrl);
    // The token went into a cookie and out of the address bar.
    expect(new URL(page.url()).search).toBe("");
    const home = (await page.textContent("main")) as string;
    expect(home).toContain("Organization custodian dev");
    expect(home).toContain(credentials.organizationId);
    expect(home).toContain("bob's key");
    expect(home).toContain(credentials.apiPublicKey);
    expect(home).toContain("wallets need two approvals");
    expect(home).toContain("alice's org");
    // Shown as text, not run.
    expect(home).toContain(HOSTILE_NAME);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.title()).not.toBe("pwned");
    const deliveries = page.locator("h2:has-text('Webhook deliveries') + table tbody tr");
    expect(await deliveries.count()).toBeGreaterThan(0);
    const pendingRows = page.locator("h2:has-text('Pending approvals') + table tbody tr");
    expect(await pendingRows.count()).toBe(1);
    expect(await pendingRows.first().textContent()).toContain("ACTIVITY_STATUS_CONSENSUS_NEEDED");

    await pendingRows.first().locator(`a[href="/activities/${pendingActivityId}"]`).click();
    await page.waitForURL(`**/activities/${pendingActivityId}`);
    const activity = (await page.textContent("main")) as string;
    expect(activity).toContain("Activity ACTIVITY_TYPE_CREATE_WALLET");
    expect(activity).toContain("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(await page.textContent(".summary")).toBe(`waiting for approvals under policy ${policyId}`);
    expect(activity).toContain("wallets need two approvals");
    expect(activity).toContain("OUTCOME_REQUIRES_CONSENSUS");
    expect(activity).toContain("bob's wallet");

    const screenshot = join(tmpdir(), "custodian-console-activity.png");
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);

    await page.goto(`${credentials.baseUrl}/organizations/${subOrganizationId}`);
    expect(await page.textContent("h1")).toBe("Organization alice's org");
    expect(await page.textContent("main")).toContain("alice");
    await context.close();
  });
});
