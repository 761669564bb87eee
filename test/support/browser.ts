/**
 * A browser app's test bench: the app in test/browser/app bundled with esbuild, served on `http://localhost`
 * (a secure context, where WebAuthn, WebCrypto and IndexedDB work) next to `custodian serve`, whose relying
 * party is that origin, and Debian's Chromium driven by playwright-core, each page with a CTAP2 virtual
 * authenticator attached over CDP.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import type { App, AppConfig } from "../browser/app/main.js";
import { type DevServer, memoryRootCredentials, startDevServer } from "./dev-server.js";

/** Debian's Chromium, which the browser tests drive. */
export const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // The page is served on 127.0.0.1 only; "localhost" must not be tried on ::1 first.
  "--host-resolver-rules=MAP localhost 127.0.0.1",
];

/** Launches Debian's Chromium headless, as every browser test drives it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

const APP_DIR = fileURLToPath(new URL("../browser/app/", import.meta.url));
const APP_SOURCES = ["main.ts", "index.html"];

/** The lockfile names every installed version the bundle is made of. */
const LOCKFILE = fileURLToPath(new URL("../../package-lock.json", import.meta.url));

/**
 * The bundled app's directory. The bundle is kept in the temporary directory under a hash of the app's
 * sources and the lockfile, so test files running in parallel, and later runs, bundle it once.
 */
async function bundledApp(): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [...APP_SOURCES.map((name) => join(APP_DIR, name)), LOCKFILE]) hash.update(readFileSync(file));
  const dir = join(tmpdir(), `custodian-browser-app-${hash.digest("hex").slice(0, 16)}`);
  const bundle = join(dir, "app.js");
  if (existsSync(bundle)) return dir;
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: a parallel test file never reads half a bundle.
  const partial = mkdtempSync(join(dir, "build-"));
  await build({
    entryPoints: [join(APP_DIR, "main.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    minify: true,
    outfile: join(partial, "app.js"),
    logLevel: "error",
  });
  renameSync(join(partial, "app.js"), bundle);
  rmSync(partial, { recursive: true, force: true });
  return dir;
}

/** Serves the bundled app and its `config.json` on 127.0.0.1. */
async function serveApp(dir: string, config: () => AppConfig) {
  const files: Record<string, { type: string; body: () => string | Buffer }> = {
    "/": { type: "text/html", body: () => readFileSync(join(APP_DIR, "index.html")) },
    "/app.js": { type: "text/javascript", body: () => readFileSync(join(dir, "app.js")) },
    "/config.json": { type: "application/json", body: () => JSON.stringify(config()) },
  };
  const server: Server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://app.invalid").pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A credential of a virtual authenticator, as CDP's `WebAuthn.getCredentials` reports it. */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** A CTAP2 platform authenticator with user verification, which answers without a prompt. */
export class VirtualAuthenticator {
  private constructor(
    private readonly cdp: CDPSession,
    readonly authenticatorId: string,
  ) {}

  static async attach(page: Page): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return new VirtualAuthenticator(cdp, authenticatorId);
  }

  async credentials(): Promise<VirtualCredential[]> {
    const { credentials } = await this.cdp.send("WebAuthn.getCredentials", { authenticatorId: this.authenticatorId });
    return credentials as VirtualCredential[];
  }

  /** Puts a credential of another authenticator on this one: the same passkey on another device. */
  async addCredential(credential: VirtualCredential): Promise<void> {
    await this.cdp.send("WebAuthn.addCredential", { authenticatorId: this.authenticatorId, credential });
  }
}

/** A page of the app with its authenticator, in a browser context of its own (its own storage). */
export interface AppPage {
  page: Page;
  context: BrowserContext;
  authenticator: VirtualAuthenticator;
  /** Calls one of the app's methods in the page, as a button of its would. */
  call<K extends keyof App>(method: K, ...args: Parameters<App[K]>): Promise<Awaited<ReturnType<App[K]>>>;
  /** Waits until the app shows `state` in `body[data-state]`; a failed start throws with its reason. */
  waitForState(state: string): Promise<void>;
}

/** Waits for `body[data-state=state]`, failing at once with the reason when the app shows `failed`. */
async function waitForState(page: Page, state: string): Promise<void> {
  await page.waitForSelector(`body[data-state="${state}"], body[data-state="failed"]`);
  if ((await page.getAttribute("body", "data-state")) === "failed") {
    throw new Error(`the app failed: ${await page.textContent("#status")}`);
  }
}

/** What the dev server the app talks to prints and writes, as the tests need it. */
export interface BrowserBench {
  browser: Browser;
  server: DevServer;
  baseUrl: string;
  /** The app's origin: the dev server's relying party and passkey origin. */
  origin: string;
  credentials: Record<string, string>;
  /** Opens the app in a fresh context with a virtual authenticator and waits until it is ready. */
  openApp(): Promise<AppPage>;
  /** The one-time codes the dev server sent to `contact`, oldest first (`GET /dev/outbox`). */
  codesSentTo(contact: string): Promise<string[]>;
  /** What went wrong unasked: errors the server logged and exceptions no page script caught. */
  problems(): { serverErrors: string[]; pageErrors: string[] };
  close(): Promise<void>;
}

export interface BrowserBenchOptions {
  /** Issuers the dev server trusts (`--oidc-issuer`) and the one the app's OAuth button goes to. */
  oidc?: { issuer: string; jwksUri: string; authorizeUrl: string; clientId: string };
}

/** Bundles and serves the app, starts `custodian serve` for it, and launches Chromium. */
export async function startBrowserBench(options: BrowserBenchOptions = {}): Promise<BrowserBench> {
  const dir = await bundledApp();
  let config: AppConfig | undefined;
  const app = await serveApp(dir, () => config as AppConfig);
  const data = mkdtempSync(join(tmpdir(), "custodian-browser-data-"));
  const server = startDevServer([
    ...["--port", "0", "--data", data, "--memory", "--quiet"],
    ...["--rp-id", "localhost", "--origin", app.origin],
    ...(options.oidc ? ["--oidc-issuer", `${options.oidc.issuer}=${options.oidc.jwksUri}`] : []),
  ]);
  // Chromium starts while the server does; whichever started is stopped when the other fails.
  const [ready, launched] = await Promise.allSettled([server.ready, launchChromium()]);
  if (ready.status === "rejected" || launched.status === "rejected") {
    if (launched.status === "fulfilled") await launched.value.close();
    await server.stop();
    await app.close();
    throw ready.status === "rejected" ? ready.reason : (launched as PromiseRejectedResult).reason;
  }
  const baseUrl = ready.value;
  const browser = launched.value;
  const credentials = memoryRootCredentials(data);
  const consoleToken = (server.output().match(/^console \S+\?token=(\S+)$/m) as RegExpMatchArray)[1] as string;
  config = {
    apiBaseUrl: baseUrl,
    authProxyUrl: baseUrl,
    authProxyConfigId: "custodian-dev",
    organizationId: credentials.organizationId as string,
    signerPublicKey: credentials.signerPublicKey as string,
    tokenSignerPublicKey: credentials.tokenSignerPublicKey as string,
    oidc: { authorizeUrl: options.oidc?.authorizeUrl ?? "", clientId: options.oidc?.clientId ?? "" },
  };

  const pageErrors: string[] = [];
  const openApp = async (): Promise<AppPage> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const authenticator = await VirtualAuthenticator.attach(page);
    await page.goto(`${app.origin}/`);
    await waitForState(page, "ready");
    const call = (<K extends keyof App>(method: K, ...args: Parameters<App[K]>) =>
      page.evaluate(
        ([name, parameters]) => {
          const target = window.custodianApp as unknown as Record<string, (...a: unknown[]) => unknown>;
          const method = target[name as string];
          if (!method) throw new Error(`the app has no method ${String(name)}`);
          return method(...(parameters as unknown[]));
        },
        [method, args] as const,
      )) as AppPage["call"];
    return { page, context, authenticator, call, waitForState: (state) => waitForState(page, state) };
  };

  const codesSentTo = async (contact: string) => {
    const response = await fetch(`${baseUrl}/dev/outbox`, { headers: { authorization: `Bearer ${consoleToken}` } });
    const { messages } = (await response.json()) as { messages: { to: string; otpCode?: string }[] };
    return messages.filter((message) => message.to === contact && message.otpCode).map((m) => m.otpCode as string);
  };

  return {
    browser,
    server,
    baseUrl,
    origin: app.origin,
    credentials,
    openApp,
    codesSentTo,
    problems: () => ({
      serverErrors: server
        .output()
        .split("\n")
        .filter((line) => / ERROR /.test(line)),
      pageErrors,
    }),
    close: async () => {
      await browser.close();
      await server.stop();
      await app.close();
      rmSync(data, { recursive: true, force: true });
    },
  };
}
