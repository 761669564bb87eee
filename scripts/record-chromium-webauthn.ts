/**
 * Records WebAuthn ceremonies of a real browser for the replay tests: Chromium's virtual authenticator
 * (CDP `WebAuthn.addVirtualAuthenticator`) registers passkeys on a page served from http://localhost, and
 * signs `X-Stamp-Webauthn` stamps that the official @turnkey/webauthn-stamper builds (its
 * `navigator.credentials.get` is bridged to the page). Writes `test/vectors/webauthn/chromium-*.json`.
 *
 * Not run by CI (it needs a Chromium); CI replays the JSON. Run it with:
 *
 *   node --import tsx scripts/record-chromium-webauthn.ts [path-to-chromium]
 *
 * Chromium is driven over `--remote-debugging-pipe` (NUL-separated JSON on file descriptors 3 and 4), so no
 * WebSocket client is needed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { CustodyEngine } from "../src/index.js";

const OUTPUT = new URL("../test/vectors/webauthn/chromium-virtual-authenticator.json", import.meta.url);

/** Engine settings the replay test reuses, so that it derives the same organization and user ids. */
const ENGINE = {
  // A fixed clock and all-zero randomness make ids depend only on how many were drawn, not on key material.
  clockMs: Date.UTC(2026, 10, 22, 12, 0, 0),
  rpId: "localhost",
};

type CdpParams = Record<string, unknown>;

/** A Chrome DevTools Protocol connection over the debugging pipe. */
class CdpPipe {
  #nextId = 1;
  #pending = new Map<number, { resolve: (value: CdpParams) => void; reject: (error: Error) => void }>();
  #listeners: ((method: string, params: CdpParams, sessionId?: string) => void)[] = [];
  #buffer = "";

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding("utf8");
    output.on("data", (chunk: string) => {
      this.#buffer += chunk;
      let end = this.#buffer.indexOf("\0");
      while (end !== -1) {
        this.#dispatch(JSON.parse(this.#buffer.slice(0, end)) as Record<string, unknown>);
        this.#buffer = this.#buffer.slice(end + 1);
        end = this.#buffer.indexOf("\0");
      }
    });
  }

  #dispatch(message: Record<string, unknown>): void {
    if (typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      const error = message.error as { message: string } | undefined;
      if (error) pending?.reject(new Error(`CDP: ${error.message}`));
      else pending?.resolve((message.result ?? {}) as CdpParams);
      return;
    }
    for (const listener of this.#listeners) {
      listener(message.method as string, (message.params ?? {}) as CdpParams, message.sessionId as string | undefined);
    }
  }

  send(method: string, params: CdpParams = {}, sessionId?: string): Promise<CdpParams> {
    const id = this.#nextId++;
    this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  once(method: string): Promise<CdpParams> {
    return new Promise((resolve) => {
      const listener = (name: string, params: CdpParams) => {
        if (name !== method) return;
        this.#listeners = this.#listeners.filter((other) => other !== listener);
        resolve(params);
      };
      this.#listeners.push(listener);
    });
  }
}

/** A page in Chromium, with the helpers the recording needs. */
class Page {
  constructor(
    private readonly cdp: CdpPipe,
    private readonly sessionId: string,
  ) {}

  send(method: string, params: CdpParams = {}): Promise<CdpParams> {
    return this.cdp.send(method, params, this.sessionId);
  }

  /** Runs an async function body in the page and returns its JSON result. */
  async evaluate<T>(body: string): Promise<T> {
    const { result, exceptionDetails } = (await this.send("Runtime.evaluate", {
      expression: `(async () => { ${body} })()`,
      awaitPromise: true,
      returnByValue: true,
    })) as { result: { value: T }; exceptionDetails?: { exception?: { description?: string } } };
    if (exceptionDetails) throw new Error(`page: ${exceptionDetails.exception?.description ?? "exception"}`);
    return result.value;
  }

  async addAuthenticator(options: CdpParams): Promise<string> {
    const { authenticatorId } = await this.send("WebAuthn.addVirtualAuthenticator", {
      options: { automaticPresenceSimulation: true, isUserVerified: true, ...options },
    });
    return authenticatorId as string;
  }

  removeAuthenticator(authenticatorId: string): Promise<CdpParams> {
    return this.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
  }
}

// In-page helpers: base64url both ways, defined once per evaluation.
const PAGE_CODECS = `
  const b64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const fromB64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
`;

interface RecordedRegistration {
  name: string;
  rpId: string;
  origin: string;
  challenge: string;
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
  fmt: string;
}

const TRANSPORTS: Record<string, string> = {
  internal: "AUTHENTICATOR_TRANSPORT_INTERNAL",
  usb: "AUTHENTICATOR_TRANSPORT_USB",
  nfc: "AUTHENTICATOR_TRANSPORT_NFC",
  ble: "AUTHENTICATOR_TRANSPORT_BLE",
  hybrid: "AUTHENTICATOR_TRANSPORT_HYBRID",
};

/** `navigator.credentials.create` in the page, returned in the wire `v1AuthenticatorParamsV2` shape. */
async function register(
  page: Page,
  origin: string,
  name: string,
  options: { attestation: string; algorithms: number[]; residentKey: "required" | "discouraged" },
): Promise<RecordedRegistration> {
  const result = await page.evaluate<Omit<RecordedRegistration, "name" | "rpId" | "origin">>(`
    ${PAGE_CODECS}
    const challenge = crypto.getRandomValues(new Uint8Array(32));
    const credential = await navigator.credentials.create({ publicKey: {
      challenge,
      rp: { id: ${JSON.stringify(ENGINE.rpId)}, name: "custodian recording" },
      user: { id: crypto.getRandomValues(new Uint8Array(16)), name: "recorder", displayName: "Recorder" },
      pubKeyCredParams: ${JSON.stringify(options.algorithms)}.map((alg) => ({ type: "public-key", alg })),
      attestation: ${JSON.stringify(options.attestation)},
      authenticatorSelection: { residentKey: ${JSON.stringify(options.residentKey)}, userVerification: "preferred" },
    } });
    const attestationObject = new Uint8Array(credential.response.attestationObject);
    // The CBOR map starts with "fmt": read its text value for the record.
    const text = new TextDecoder().decode(attestationObject.slice(0, 32));
    const fmt = ["none", "packed", "fido-u2f", "tpm", "apple", "android-key"].find((f) => text.includes(f)) ?? "unknown";
    return {
      challenge: b64url(challenge),
      credentialId: b64url(credential.rawId),
      clientDataJson: b64url(credential.response.clientDataJSON),
      attestationObject: b64url(attestationObject),
      transports: credential.response.getTransports ? credential.response.getTransports() : [],
      fmt,
    };
  `);
  return {
    name,
    rpId: ENGINE.rpId,
    origin,
    ...result,
    transports: result.transports.map((transport) => TRANSPORTS[transport] ?? transport),
  };
}

/**
 * Makes `navigator.credentials.get` in this process ask the page: the official stamper then builds its
 * stamp from a genuine browser assertion.
 */
function bridgeNavigatorCredentials(page: Page): void {
  type Binary = ArrayBuffer | Uint8Array;
  const text = (value: Binary) =>
    Buffer.from(value instanceof ArrayBuffer ? new Uint8Array(value) : value).toString("base64url");
  const get = async (options: {
    publicKey: { challenge: Binary; rpId: string; allowCredentials?: { id: Binary }[] };
  }) => {
    const challenge = text(options.publicKey.challenge);
    const allowed = (options.publicKey.allowCredentials ?? []).map((credential) => text(credential.id));
    const response = await page.evaluate<Record<string, string>>(`
      ${PAGE_CODECS}
      const credential = await navigator.credentials.get({ publicKey: {
        challenge: fromB64url(${JSON.stringify(challenge)}),
        rpId: ${JSON.stringify(options.publicKey.rpId)},
        allowCredentials: ${JSON.stringify(allowed)}.map((id) => ({ type: "public-key", id: fromB64url(id) })),
        userVerification: "preferred",
      } });
      return {
        id: credential.id,
        clientDataJSON: b64url(credential.response.clientDataJSON),
        authenticatorData: b64url(credential.response.authenticatorData),
        signature: b64url(credential.response.signature),
      };
    `);
    const buffer = (text: string) => Uint8Array.from(Buffer.from(text, "base64url")).buffer;
    return {
      type: "public-key",
      id: response.id,
      rawId: buffer(response.id as string),
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: buffer(response.clientDataJSON as string),
        authenticatorData: buffer(response.authenticatorData as string),
        signature: buffer(response.signature as string),
        userHandle: null,
      },
      getClientExtensionResults: () => ({}),
    };
  };
  Object.defineProperty(globalThis, "navigator", {
    value: { credentials: { get } },
    configurable: true,
    writable: true,
  });
}

async function servePage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>custodian WebAuthn recording</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

function launchChromium(executable: string, profile: string): { child: ChildProcess; cdp: CdpPipe } {
  const child = spawn(
    executable,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--remote-debugging-pipe",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
  );
  return { child, cdp: new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable) };
}

async function openPage(cdp: CdpPipe, url: string): Promise<Page> {
  const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
  const page = new Page(cdp, sessionId as string);
  await page.send("Page.enable");
  const loaded = cdp.once("Page.loadEventFired");
  await page.send("Page.navigate", { url });
  await loaded;
  await page.send("WebAuthn.enable", { enableUI: false });
  return page;
}

async function main(): Promise<void> {
  const executable = process.argv[2] ?? "chromium";
  const { server, origin } = await servePage();
  const profile = mkdtempSync(join(tmpdir(), "custodian-chromium-"));
  const { child, cdp } = launchChromium(executable, profile);
  try {
    const page = await openPage(cdp, `${origin}/`);
    const browser = (await cdp.send("Browser.getVersion")).product as string;

    // A platform passkey (CTAP2, internal): the credential the replayed stamps sign with.
    const platform = await page.addAuthenticator({
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
    });
    const passkey = await register(page, origin, "ES256 platform passkey, attestation none", {
      attestation: "none",
      algorithms: [-7, -257],
      residentKey: "required",
    });
    const directPacked = await register(page, origin, "ES256 platform passkey, attestation direct (packed with x5c)", {
      attestation: "direct",
      algorithms: [-7],
      residentKey: "discouraged",
    });

    // A USB security key speaking U2F: `none` is accepted, `direct` gives fido-u2f, which custodian refuses.
    const u2f = await page.addAuthenticator({ protocol: "u2f", transport: "usb" });
    const securityKey = await register(page, origin, "ES256 USB security key (U2F), attestation none", {
      attestation: "none",
      algorithms: [-7],
      residentKey: "discouraged",
    });
    const fidoU2f = await register(page, origin, "ES256 USB security key (U2F), attestation direct (fido-u2f)", {
      attestation: "direct",
      algorithms: [-7],
      residentKey: "discouraged",
    });
    await page.removeAuthenticator(u2f);

    // Stamps from the official stamper, signed by the platform passkey, over requests of a deterministic engine.
    const engine = new CustodyEngine({
      clock: () => ENGINE.clockMs,
      random: (length) => new Uint8Array(length),
      keyEncryptionKey: new Uint8Array(32),
      webauthn: { rpId: ENGINE.rpId, origins: [origin] },
    });
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Chromium recording",
      rootUsers: [
        {
          userName: "chromium user",
          authenticators: [
            {
              authenticatorName: "chromium passkey",
              challenge: passkey.challenge,
              attestation: {
                credentialId: passkey.credentialId,
                clientDataJson: passkey.clientDataJson,
                attestationObject: passkey.attestationObject,
                transports: passkey.transports as "AUTHENTICATOR_TRANSPORT_INTERNAL"[],
              },
            },
          ],
        },
      ],
    });
    const rootUserId = rootUserIds[0] as string;
    bridgeNavigatorCredentials(page);
    const stamper = new WebauthnStamper({
      rpId: ENGINE.rpId,
      allowCredentials: [{ type: "public-key", id: Buffer.from(passkey.credentialId, "base64url") }],
    });
    const bodies = [
      { path: "/public/v1/query/whoami", body: JSON.stringify({ organizationId }) },
      {
        path: "/public/v1/submit/create_user_tag",
        body: JSON.stringify({
          type: "ACTIVITY_TYPE_CREATE_USER_TAG",
          timestampMs: String(ENGINE.clockMs),
          organizationId,
          parameters: { userTagName: "recorded in chromium", userIds: [rootUserId] },
        }),
      },
      { path: "/public/v1/query/get_user", body: JSON.stringify({ organizationId, userId: rootUserId }) },
    ];
    const requests = [];
    for (const request of bodies) {
      const { stampHeaderValue } = await stamper.stamp(request.body);
      requests.push({ ...request, stamp: stampHeaderValue });
    }
    await page.removeAuthenticator(platform);

    const vectors = {
      about:
        "WebAuthn ceremonies recorded from Chromium's virtual authenticator (CDP WebAuthn domain) by " +
        "scripts/record-chromium-webauthn.ts: registrations in the wire v1AuthenticatorParamsV2 form, and " +
        "X-Stamp-Webauthn stamps built by @turnkey/webauthn-stamper from the browser's assertions, over " +
        "requests to an engine made deterministic by `engine` (fixed clock, all-zero randomness).",
      browser,
      engine: { ...ENGINE, origin, organizationId, rootUserId, registration: passkey.name },
      registrations: [passkey, securityKey],
      refusedRegistrations: [
        { ...directPacked, reason: "UNSUPPORTED_ATTESTATION_FORMAT" },
        { ...fidoU2f, reason: "UNSUPPORTED_ATTESTATION_FORMAT" },
      ],
      requests,
    };
    writeFileSync(OUTPUT, `${JSON.stringify(vectors, null, 2)}\n`);
    console.log(
      `recorded ${vectors.registrations.length + vectors.refusedRegistrations.length} registrations and ${requests.length} stamped requests with ${browser} into ${OUTPUT.pathname}`,
    );
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.exitCode === null) child.kill();
    await exited;
    server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
