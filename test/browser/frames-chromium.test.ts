/**
 * The export, import and auth frames in a real browser (Debian's Chromium through playwright-core), driven the
 * way an app drives Turnkey's hosted frames: an app page on its own origin embeds `@turnkey/iframe-stamper`
 * pointed at the frames `custodian serve` prints, on a third origin. The test plays the app's backend with the
 * official server client. It reads the mnemonic from the frame's document, as the user would, and checks that
 * nothing the app page could see (its document, its console, its network traffic, the frames' messages to it)
 * ever held it.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { Turnkey } from "@turnkey/sdk-server";
import type { Browser, Frame, Page } from "playwright-core";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { CHROMIUM, launchChromium } from "../support/browser.js";
import { type DevCredentials, type DevServer, startDevServer } from "../support/dev-server.js";

const PAGE_DIRECTORY = join(import.meta.dirname, "frames-page");
const EMAIL = "frames@example.test";

/** What the page's script puts on `window` (test/browser/frames-page/page.ts). */
interface FramesPage {
  open(kind: string, url: string): Promise<string>;
  injectWalletExportBundle(bundle: string, organizationId: string): Promise<boolean>;
  injectKeyExportBundle(bundle: string, organizationId: string, keyFormat?: string): Promise<boolean>;
  injectImportBundle(bundle: string, organizationId: string, userId: string): Promise<boolean>;
  extractWalletEncryptedBundle(): Promise<string>;
  extractKeyEncryptedBundle(keyFormat?: string): Promise<string>;
  applySettings(kind: string, styles: Record<string, string>): Promise<boolean>;
  injectCredentialBundle(bundle: string): Promise<boolean>;
  whoami(baseUrl: string, organizationId: string): Promise<{ userId: string; organizationId: string }>;
  errorOf(call: () => Promise<unknown>): Promise<string | undefined>;
  received(): string[];
}
declare const framesPage: FramesPage;

let server: DevServer;
let app: Server;
let appUrl: string;
let browser: Browser;
let credentials: DevCredentials;
let frameUrls: Record<"export" | "import" | "auth", string>;

function root() {
  return new Turnkey({
    apiBaseUrl: credentials.baseUrl,
    apiPublicKey: credentials.apiPublicKey,
    apiPrivateKey: credentials.apiPrivateKey,
    defaultOrganizationId: credentials.organizationId,
    activityPoller: { intervalMs: 10, numRetries: 1 },
  }).apiClient();
}

async function bundlePage(): Promise<string> {
  const esbuild = await import("esbuild");
  const built = await esbuild.build({
    entryPoints: [join(PAGE_DIRECTORY, "page.ts")],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return (built.outputFiles[0] as { text: string }).text;
}

/** Everything the app page could observe, recorded as it happens. */
interface Observed {
  page: Page;
  console: string[];
  network: string[];
  /** Resolves once every response body seen so far is in `network`. */
  settled(): Promise<unknown>;
}

async function openApp(): Promise<Observed> {
  const page = await browser.newPage();
  const consoleLines: string[] = [];
  const network: string[] = [];
  const bodies: Promise<unknown>[] = [];
  page.on("console", (message) => consoleLines.push(message.text()));
  page.on("pageerror", (error) => consoleLines.push(String(error)));
  page.on("request", (request) => network.push(`${request.method()} ${request.url()} ${request.postData() ?? ""}`));
  page.on("response", (response) =>
    bodies.push(
      response.text().then(
        (text) => network.push(`${response.status()} ${response.url()} ${text}`),
        () => undefined,
      ),
    ),
  );
  await page.goto(appUrl);
  return { page, console: consoleLines, network, settled: () => Promise.all(bodies) };
}

function frameOf(page: Page, url: string): Frame {
  const frame = page.frames().find((candidate) => candidate.url() === url);
  if (frame === undefined) throw new Error(`no frame at ${url}`);
  return frame;
}

/** Checks that none of what the app page saw holds the secret or a run of its first words. */
async function expectUnseen(observed: Observed, secret: string): Promise<void> {
  await observed.settled();
  const firstWords = secret.split(" ").slice(0, 3).join(" ");
  const { page } = observed;
  const seen = {
    document: await page.evaluate(() => document.documentElement.outerHTML),
    // The frame's document is another origin's: the page gets no handle on it.
    frameDocument: await page.evaluate(() =>
      Array.from(document.querySelectorAll("iframe")).map((iframe) => iframe.contentDocument === null),
    ),
    messages: await page.evaluate(() => framesPage.received()),
    console: observed.console,
    network: observed.network,
  };
  expect(seen.frameDocument.every((blocked) => blocked)).toBe(true);
  for (const text of [seen.document, ...seen.messages, ...seen.console, ...seen.network]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(firstWords);
  }
  // The recordings did record: the frames' pages and scripts crossed the network, their messages reached the page.
  expect(seen.network.some((line) => line.includes("/frame-scripts/"))).toBe(true);
  expect(seen.messages.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), "custodian-frames-"));
  server = startDevServer(["--port", "0", "--data", data, "--memory"]);
  await server.ready;
  const printed = (kind: string) =>
    (server.output().match(new RegExp(`^${kind} frame (\\S+)$`, "m")) as RegExpMatchArray)[1] as string;
  frameUrls = { export: printed("export"), import: printed("import"), auth: printed("auth") };
  credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as DevCredentials;

  const script = await bundlePage();
  const html = readFileSync(join(PAGE_DIRECTORY, "index.html"), "utf8");
  app = createServer((req, res) => {
    if (req.url === "/page.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  app?.close();
});

describe("the frames with @turnkey/iframe-stamper in Chromium", () => {
  it("are served on their own origin, apart from the API and the app", () => {
    expect(existsSync(CHROMIUM)).toBe(true);
    const origins = new Set(
      [credentials.baseUrl, appUrl, ...Object.values(frameUrls)].map((url) => new URL(url).origin),
    );
    expect(origins.size).toBe(3);
  });

  it("export: the mnemonic shows in the frame's document and nowhere the app page can see", async () => {
    const tk = root();
    const { walletId, addresses } = await tk.createWallet({ walletName: "to export", accounts: [ETHEREUM_ACCOUNT] });
    const observed = await openApp();
    const { page } = observed;
    const targetPublicKey = await page.evaluate(
      ([url]) => framesPage.open("export", url as string),
      [frameUrls.export],
    );
    expect(targetPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    const { exportBundle } = await tk.exportWallet({ walletId, targetPublicKey });

    // A bundle for another organization is refused before anything is opened.
    const wrongOrganization = await page.evaluate(
      ([bundle]) => framesPage.errorOf(() => framesPage.injectWalletExportBundle(bundle as string, "another-org")),
      [exportBundle],
    );
    expect(wrongOrganization).toContain("organizationId does not match expected value");
    // So is one signed by another key, or whose signed data was altered.
    const envelope = JSON.parse(exportBundle) as Record<string, string>;
    const forged = [
      JSON.stringify({ ...envelope, enclaveQuorumPublic: targetPublicKey }),
      JSON.stringify({ ...envelope, data: `${envelope.data}20` }),
    ];
    const refusals = await page.evaluate(
      ([bundles, organizationId]) =>
        Promise.all(
          (bundles as string[]).map((bundle) =>
            framesPage.errorOf(() => framesPage.injectWalletExportBundle(bundle, organizationId as string)),
          ),
        ),
      [forged, credentials.organizationId] as const,
    );
    expect(refusals[0]).toContain("not by this server's bundle signer");
    expect(refusals[1]).toContain("failed to verify the bundle's signature");

    const injected = await page.evaluate(
      ([bundle, organizationId]) => framesPage.injectWalletExportBundle(bundle as string, organizationId as string),
      [exportBundle, credentials.organizationId],
    );
    expect(injected).toBe(true);
    const mnemonic = ((await frameOf(page, frameUrls.export).locator("#key-div").textContent()) ?? "").trim();
    expect(mnemonic.split(" ")).toHaveLength(12);
    expect(mnemonicToAccount(mnemonic).address).toBe(addresses[0]);

    // The embedded key is single-use: the same bundle does not open twice.
    const again = await page.evaluate(
      ([bundle, organizationId]) =>
        framesPage.errorOf(() => framesPage.injectWalletExportBundle(bundle as string, organizationId as string)),
      [exportBundle, credentials.organizationId],
    );
    expect(again).toContain("no embedded key");
    await expectUnseen(observed, mnemonic);
    await page.close();
  });

  it("export: a private key shows in the frame as hex, and it is the key's", async () => {
    const tk = root();
    const { privateKeys } = await tk.createPrivateKeys({
      privateKeys: [
        {
          privateKeyName: "to export",
          curve: "CURVE_SECP256K1",
          addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          privateKeyTags: [],
        },
      ],
    });
    const { privateKeyId, addresses } = privateKeys[0] as { privateKeyId: string; addresses: { address: string }[] };
    const observed = await openApp();
    const { page } = observed;
    const targetPublicKey = await page.evaluate(
      ([url]) => framesPage.open("export", url as string),
      [frameUrls.export],
    );
    const { exportBundle } = await tk.exportPrivateKey({ privateKeyId, targetPublicKey });
    const injected = await page.evaluate(
      ([bundle, organizationId]) => framesPage.injectKeyExportBundle(bundle as string, organizationId as string),
      [exportBundle, credentials.organizationId],
    );
    expect(injected).toBe(true);
    const shown = ((await frameOf(page, frameUrls.export).locator("#key-div").textContent()) ?? "").trim();
    expect(shown).toMatch(/^0x[0-9a-f]{64}$/);
    expect(privateKeyToAccount(shown as `0x${string}`).address).toBe(addresses[0]?.address);
    await expectUnseen(observed, shown);
    await page.close();
  });

  it("export: a Solana account's key shows as the base58 keypair Phantom takes", async () => {
    const tk = root();
    const { addresses } = await tk.createWallet({
      walletName: "solana",
      accounts: [
        {
          curve: "CURVE_ED25519",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/501'/0'/0'",
          addressFormat: "ADDRESS_FORMAT_SOLANA",
        },
      ],
    });
    const address = addresses[0] as string;
    const observed = await openApp();
    const { page } = observed;
    const targetPublicKey = await page.evaluate(
      ([url]) => framesPage.open("export", url as string),
      [frameUrls.export],
    );
    const { exportBundle } = await tk.exportWalletAccount({ address, targetPublicKey });
    await page.evaluate(
      ([bundle, organizationId]) =>
        framesPage.injectKeyExportBundle(bundle as string, organizationId as string, "SOLANA"),
      [exportBundle, credentials.organizationId],
    );
    const shown = ((await frameOf(page, frameUrls.export).locator("#key-div").textContent()) ?? "").trim();
    const keypair = base58.decode(shown);
    expect(keypair).toHaveLength(64);
    expect(base58.encode(keypair.subarray(32))).toBe(address);
    expect(base58.encode(ed25519.getPublicKey(keypair.subarray(0, 32)))).toBe(address);
    await expectUnseen(observed, shown);
    await page.close();
  });

  it("import: the mnemonic typed into the frame reaches the app only sealed, and imports the same wallet", async () => {
    const tk = root();
    const mnemonic = generateMnemonic(wordlist, 128);
    const observed = await openApp();
    const { page } = observed;
    expect(await page.evaluate(([url]) => framesPage.open("import", url as string), [frameUrls.import])).toBe("");
    const { importBundle } = await tk.initImportWallet({ userId: credentials.userId });
    const injected = await page.evaluate(
      ([bundle, organizationId, userId]) =>
        framesPage.injectImportBundle(bundle as string, organizationId as string, userId as string),
      [importBundle, credentials.organizationId, credentials.userId],
    );
    expect(injected).toBe(true);

    const textArea = frameOf(page, frameUrls.import).locator("#plaintext");
    await textArea.fill(mnemonic);
    const encryptedBundle = await page.evaluate(() => framesPage.extractWalletEncryptedBundle());
    expect(Object.keys(JSON.parse(encryptedBundle) as object).sort()).toEqual(["ciphertext", "encappedPublic"]);
    expect(await textArea.inputValue()).toBe("");

    const { addresses } = await tk.importWallet({
      userId: credentials.userId,
      walletName: "imported through the frame",
      encryptedBundle,
      accounts: [ETHEREUM_ACCOUNT],
    });
    expect(addresses[0]).toBe(mnemonicToAccount(mnemonic).address);
    await expectUnseen(observed, mnemonic);
    await page.close();
  });

  it("import: a private key pasted into the frame imports as the same key; the app may restyle the text area only", async () => {
    const tk = root();
    const secret = secp256k1.utils.randomSecretKey();
    const typed = `0x${bytesToHex(secret)}`;
    const observed = await openApp();
    const { page } = observed;
    await page.evaluate(([url]) => framesPage.open("import", url as string), [frameUrls.import]);
    const textArea = frameOf(page, frameUrls.import).locator("#plaintext");

    expect(await page.evaluate(() => framesPage.applySettings("import", { color: "rgb(1, 2, 3)" }))).toBe(true);
    expect(await textArea.evaluate((element) => getComputedStyle(element).color)).toBe("rgb(1, 2, 3)");
    const refused = await page.evaluate(() =>
      framesPage.errorOf(() => framesPage.applySettings("import", { backgroundImage: "url(https://evil.test/)" })),
    );
    expect(refused).toContain("unsupported style property: backgroundImage");

    // Nothing is sealed before an import bundle names the target.
    await textArea.fill(typed);
    const early = await page.evaluate(() =>
      framesPage.errorOf(() => framesPage.extractKeyEncryptedBundle("HEXADECIMAL")),
    );
    expect(early).toContain("no import bundle injected");
    expect(await textArea.inputValue()).toBe(typed);

    const { importBundle } = await tk.initImportPrivateKey({ userId: credentials.userId });
    await page.evaluate(
      ([bundle, organizationId, userId]) =>
        framesPage.injectImportBundle(bundle as string, organizationId as string, userId as string),
      [importBundle, credentials.organizationId, credentials.userId],
    );
    const encryptedBundle = await page.evaluate(() => framesPage.extractKeyEncryptedBundle("HEXADECIMAL"));
    const { addresses } = await tk.importPrivateKey({
      userId: credentials.userId,
      privateKeyName: "imported through the frame",
      encryptedBundle,
      curve: "CURVE_SECP256K1",
      addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
    });
    expect(addresses[0]?.address).toBe(privateKeyToAccount(typed as `0x${string}`).address);
    await expectUnseen(observed, typed);
    await expectUnseen(observed, bytesToHex(secret));
    await page.close();
  });

  it("auth: an OTP credential bundle injected into the frame stamps the page's whoami", async () => {
    const tk = root();
    const { userIds } = await tk.createUsers({
      users: [
        {
          userName: "frames user",
          userEmail: EMAIL,
          apiKeys: [],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    });
    const userId = userIds[0] as string;
    const observed = await openApp();
    const { page } = observed;
    const targetPublicKey = await page.evaluate(([url]) => framesPage.open("auth", url as string), [frameUrls.auth]);
    expect(targetPublicKey).toMatch(/^04[0-9a-f]{128}$/);

    // Nothing to stamp with before a bundle is injected.
    const unstamped = await page.evaluate(
      ([baseUrl, organizationId]) =>
        framesPage.errorOf(() => framesPage.whoami(baseUrl as string, organizationId as string)),
      [credentials.baseUrl, credentials.organizationId],
    );
    expect(unstamped).toContain("cannot sign payload without credential");

    const { otpId } = await tk.initOtpAuth({ otpType: "OTP_TYPE_EMAIL", contact: EMAIL, appName: "frames test" });
    let otpCode = "";
    await expect
      .poll(() => {
        otpCode = new RegExp(`outbox: email to ${EMAIL} code (\\S+)`).exec(server.output())?.[1] ?? "";
        return otpCode;
      })
      .not.toBe("");
    const { credentialBundle } = await tk.otpAuth({ otpId, otpCode, targetPublicKey });
    expect(
      await page.evaluate(([bundle]) => framesPage.injectCredentialBundle(bundle as string), [credentialBundle]),
    ).toBe(true);
    const whoami = await page.evaluate(
      ([baseUrl, organizationId]) => framesPage.whoami(baseUrl as string, organizationId as string),
      [credentials.baseUrl, credentials.organizationId],
    );
    expect(whoami).toMatchObject({ userId, organizationId: credentials.organizationId });
    await page.close();
  });
});
