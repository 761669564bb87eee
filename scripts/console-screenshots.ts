/**
 * Screenshots of the dev console's explanations for the docs: a denied EIP-1559 signing
 * (`docs/images/console-denial.png`) and a wallet waiting for a 2-of-2 approval
 * (`docs/images/console-pending.png`), from a dev server filled by the console tests' scenario.
 *
 * Run by hand (it needs Chromium; playwright-core drives it) after a change to the console's pages:
 *
 *   node --import tsx scripts/console-screenshots.ts [path-to-chromium]
 */
import { chromium } from "playwright-core";
import { buildConsoleScenario } from "../test/support/console-scenario.js";

const executablePath = process.argv[2] ?? "/usr/bin/chromium";
const scenario = await buildConsoleScenario({ hostile: false });
const browser = await chromium.launch({ executablePath, headless: true, args: ["--headless", "--no-sandbox"] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  await page.goto(scenario.consoleUrl);
  const shots = [
    { activityId: scenario.deniedActivityId, file: "console-denial.png" },
    { activityId: scenario.pendingActivityId, file: "console-pending.png" },
  ];
  for (const { activityId, file } of shots) {
    await page.goto(`${scenario.credentials.baseUrl}/activities/${activityId}`);
    // Down to the votes: the verdict, what it waits for, and the policies clause by clause.
    const votes = await page.locator("h2:has-text('Votes')").boundingBox();
    const height = Math.ceil(votes?.y ?? 1200);
    const path = new URL(`../docs/images/${file}`, import.meta.url).pathname;
    await page.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width: 1200, height } });
    console.log(`wrote ${path}`);
  }
} finally {
  await browser.close();
  await scenario.server.stop();
}
