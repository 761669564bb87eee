/**
 * The dev console explains decisions, in Chromium (playwright-core): a denied EIP-1559 signing shows its
 * policies clause by clause with the values they read and the clause that decided; a 2-of-2 approval says
 * whom it waits for by name; a submission never reads as an approval; the activity list names submitters
 * and reasons; hostile names and payloads stay text; and a pending page follows an approval by itself.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConsoleScenario, type ConsoleScenario, HOSTILE } from "../support/console-scenario.js";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];

let scenario: ConsoleScenario;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  scenario = await buildConsoleScenario();
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // The printed address sets the console cookie, then the pages are reached by path.
  await page.goto(scenario.consoleUrl);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await scenario?.server.stop();
});

async function open(path: string): Promise<string> {
  await page.goto(`${scenario.credentials.baseUrl}${path}`);
  return (await page.textContent("main")) as string;
}

describe("the dev console's explanations", () => {
  it("shows a denied EIP-1559 signing's conditions with the values they read and the clause that decided", async () => {
    await open(`/activities/${scenario.deniedActivityId}`);
    expect(await page.textContent(".verdict")).toBe(
      `Denied: a deny policy applies by policy sends over 1 ETH ${HOSTILE}`,
    );
    const deny = page.locator(`.policy[data-policy-id="${scenario.denyPolicyId}"]`);
    expect(await deny.textContent()).toContain("← settled the decision");
    const decided = deny.locator("li.clause.deciding");
    // The whole `&&` and each operand (a true `&&` needs all of them): the value clause reads 5 ETH.
    const valueClause = deny.locator("li.clause", { hasText: "eth.tx.value =" });
    expect(await valueClause.textContent()).toBe(
      "eth.tx.value = 5·10^18 (5000000000000000000) > 1·10^18 (1000000000000000000) → true",
    );
    expect(await decided.count()).toBe(1);
    const allow = page.locator(".policy", { hasText: "small sends" });
    const lessThan = allow.locator("li.clause.deciding", { hasText: "eth.tx.value =" });
    expect(await lessThan.textContent()).toBe(
      "eth.tx.value = 5·10^18 (5000000000000000000) < 1·10^18 (1000000000000000000) → false ← decided",
    );
    // The transaction decoded beside its hex.
    expect(await page.textContent("pre.intent")).toContain(scenario.unsignedTransaction.slice(2));
    const decoded = (await page.textContent("pre.decoded")) as string;
    expect(decoded).toContain('"value": "5000000000000000000"');
    expect(decoded).toContain('"to": "0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"');
  });

  it("shows a denial's only vote as the submission, never as an approval", async () => {
    const text = await open(`/activities/${scenario.deniedActivityId}`);
    const votes = page.locator("h2:has-text('Votes') + table tbody tr");
    expect(await votes.count()).toBe(1);
    expect(await votes.first().textContent()).toMatch(/^alicesubmitted it/);
    expect(text).not.toMatch(/approved|APPROVED/);
    expect(await page.textContent(".submitter")).toBe("alice");
  });

  it("says whom a pending 2-of-2 approval waits for, by name, with its consensus traced", async () => {
    const text = await open(`/activities/${scenario.pendingActivityId}`);
    expect(await page.textContent(".verdict")).toContain("waiting for bob");
    const open2of2 = page.locator("h2:has-text('What it still needs') + .policy");
    expect(await open2of2.textContent()).toContain("wallets need alice and bob");
    expect(await open2of2.locator(".waiting").textContent()).toBe("waiting for bob");
    // The consensus names users by id; the page says who they are.
    expect(await open2of2.textContent()).toContain(`${scenario.users.bob} is bob`);
    expect(text).toContain("or the root quorum: 1 more approval from");
    expect(await page.locator("meta[http-equiv=refresh]").count()).toBe(1);
  });

  it("says whose second factor an MFA-held activity waits for and which methods prove it", async () => {
    await open(`/activities/${scenario.mfaActivityId}`);
    expect(await page.textContent(".verdict")).toBe(
      'Waiting: waiting for bob to prove passkey or email otp (MFA policy "tags need a passkey", step 2 of 2)',
    );
    const steps = page.locator("h2:has-text('Second factors') + table tbody tr");
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).textContent()).toBe("bob (submitter)tags need a passkey1 of 2api keyproven");
    expect(await steps.nth(1).getAttribute("class")).toBe("mfa-open");
    expect(await page.locator("meta[http-equiv=refresh]").count()).toBe(1);
  });

  it("lists each activity with its submitter and why it failed or waits", async () => {
    await open("/");
    const row = (activityId: string) =>
      page.locator("h2:has-text('Activities') + table tbody tr", {
        has: page.locator(`a[href="/activities/${activityId}"]`),
      });
    expect(await row(scenario.deniedActivityId).locator(".submitter").textContent()).toBe("alice");
    expect(await row(scenario.deniedActivityId).locator(".why").textContent()).toBe(
      `a deny policy applies (policy "sends over 1 ETH ${HOSTILE}")`,
    );
    expect(await row(scenario.pendingActivityId).locator(".why").textContent()).toBe("waiting for bob");
    expect(await row(scenario.mfaActivityId).locator(".why").textContent()).toBe(
      'waiting for bob to prove passkey or email otp (MFA policy "tags need a passkey", step 2 of 2)',
    );
    expect(await row(scenario.typedDataActivityId).locator(".why").textContent()).toMatch(
      /^no policy allows it; its condition failed: field 'tx' of 'eth' is missing/,
    );
  });

  it("shows hostile names and EIP-712 messages as text, decoded beside the payload", async () => {
    await open(`/activities/${scenario.typedDataActivityId}`);
    const decoded = (await page.textContent("pre.decoded")) as string;
    expect(decoded).toContain('"primary_type": "Note"');
    expect(decoded).toContain(JSON.stringify(`a note ${HOSTILE}`).slice(1, -1));
    for (const path of [
      "/",
      `/activities/${scenario.typedDataActivityId}`,
      `/activities/${scenario.deniedActivityId}`,
    ]) {
      await open(path);
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.title()).not.toBe("pwned");
    }
  });

  it("follows an approval on a pending page without being reloaded", async () => {
    await open(`/activities/${scenario.pendingActivityId}`);
    expect(await page.textContent(".verdict")).toContain("waiting for bob");
    const approved = await scenario.client(scenario.bobKey).approveActivity({
      fingerprint: (await scenario.client(scenario.credentials).getActivity({ activityId: scenario.pendingActivityId }))
        .activity.fingerprint,
    });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    await page.locator(".verdict", { hasText: "Allowed" }).waitFor();
    const votes = (await page.locator("h2:has-text('Votes') + table").textContent()) as string;
    expect(votes).toContain("alicesubmitted it");
    expect(votes).toContain("bobapproved");
    // Settled: nothing more will change, so it stops refreshing.
    expect(await page.locator("meta[http-equiv=refresh]").count()).toBe(0);
  });
});
