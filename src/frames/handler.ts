/**
 * Serves the export, import and auth frames: `GET /export`, `/import`, `/auth` and their scripts under
 * `/frame-scripts/`. Serve them from an origin of their own (another port or host than the app's pages): the
 * browser then keeps the app's page out of the frames' documents and storage, which is what keeps a mnemonic
 * shown in the export frame, or typed into the import frame, away from the app.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { invalidArgument } from "../common/errors.js";
import { FRAME_KINDS, type FrameKind } from "./kinds.js";
import { framePage } from "./pages.js";
import { frameScript } from "./scripts.js";

/** Options of {@link createFramesHandler} and {@link createFramesFetchHandler}. */
export interface FramesOptions {
  /**
   * The engine's bundle signer public key (`await engine.signerPublicKey()`): 65-byte uncompressed P-256 hex.
   * The export and import frames refuse bundles signed by any other key.
   */
  signerPublicKey: string;
  /**
   * Origins that may embed the frames (the CSP `frame-ancestors`), e.g. `["https://app.example"]`. Default `["*"]`:
   * any page, as the hosted frames allow.
   */
  frameAncestors?: readonly string[];
}

/** A frames answer, independent of the server it goes out through. */
interface FramesResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const SCRIPT_PREFIX = "/frame-scripts/";

const COMMON_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function checkedSignerKey(value: unknown): string {
  if (typeof value !== "string" || !/^04[0-9a-fA-F]{128}$/.test(value)) {
    throw invalidArgument(
      "signerPublicKey must be the bundle signer's 65-byte uncompressed P-256 public key in hex (engine.signerPublicKey())",
      "signerPublicKey",
    );
  }
  return value.toLowerCase();
}

function checkedAncestors(values: readonly string[] | undefined): string {
  const ancestors = values ?? ["*"];
  if (ancestors.length === 0) throw invalidArgument("frameAncestors must name at least one origin", "frameAncestors");
  for (const [index, origin] of ancestors.entries()) {
    const valid = origin === "*" || (URL.canParse(origin) && new URL(origin).origin === origin);
    if (!valid) {
      throw invalidArgument(
        `frameAncestors[${index}] must be '*' or an origin such as https://app.example, got ${JSON.stringify(origin)}`,
        `frameAncestors[${index}]`,
      );
    }
  }
  return ancestors.join(" ");
}

/** The frame kind a path names, or undefined. */
function kindOf(name: string): FrameKind | undefined {
  return (FRAME_KINDS as readonly string[]).includes(name) ? (name as FrameKind) : undefined;
}

/** Builds the answer function both handlers share; it resolves undefined for paths that are not the frames'. */
function createResponder(
  options: FramesOptions,
): (method: string, path: string) => Promise<FramesResponse | undefined> {
  const signerPublicKey = checkedSignerKey(options.signerPublicKey);
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    // The frames talk to nobody but their parent page, and only through the message channel.
    "connect-src 'none'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${checkedAncestors(options.frameAncestors)}`,
  ].join("; ");
  return async (method, path) => {
    const page = kindOf(path.slice(1));
    const script =
      path.startsWith(SCRIPT_PREFIX) && path.endsWith(".js")
        ? kindOf(path.slice(SCRIPT_PREFIX.length, -".js".length))
        : undefined;
    if (page === undefined && script === undefined) return undefined;
    if (method !== "GET" && method !== "HEAD") {
      return { status: 405, headers: { ...COMMON_HEADERS, allow: "GET, HEAD" }, body: "" };
    }
    if (page !== undefined) {
      return {
        status: 200,
        headers: { ...COMMON_HEADERS, "content-type": "text/html; charset=utf-8", "content-security-policy": csp },
        body: framePage(page, signerPublicKey, `${SCRIPT_PREFIX.slice(1)}${page}.js`),
      };
    }
    return {
      status: 200,
      headers: { ...COMMON_HEADERS, "content-type": "text/javascript; charset=utf-8" },
      body: await frameScript(script as FrameKind),
    };
  };
}

/**
 * The frames as a Node route: `(req, res)` resolves true when it answered, false for paths that are not the
 * frames' (so a host can chain it before its own 404). Mount it on an origin of its own:
 *
 * ```ts
 * const frames = createFramesHandler({ signerPublicKey: await engine.signerPublicKey() });
 * createServer(async (req, res) => {
 *   if (!(await frames(req, res))) res.writeHead(404).end();
 * }).listen(8081);
 * ```
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `signerPublicKey` or `frameAncestors[i]` for bad options.
 */
export function createFramesHandler(
  options: FramesOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const respond = createResponder(options);
  return async (req, res) => {
    const method = req.method ?? "GET";
    const response = await respond(method, new URL(req.url ?? "/", "http://frames").pathname);
    if (response === undefined) return false;
    res.writeHead(response.status, response.headers);
    res.end(method === "HEAD" ? undefined : response.body);
    return true;
  };
}

/**
 * The frames as a fetch handler (`(Request) => Promise<Response | undefined>`; undefined for other paths),
 * for Deno, Bun, workers and framework routes.
 *
 * @throws `CustodyError` `INVALID_ARGUMENT` naming `signerPublicKey` or `frameAncestors[i]` for bad options.
 */
export function createFramesFetchHandler(options: FramesOptions): (request: Request) => Promise<Response | undefined> {
  const respond = createResponder(options);
  return async (request) => {
    const response = await respond(request.method, new URL(request.url).pathname);
    if (response === undefined) return undefined;
    const body = request.method === "HEAD" || response.body === "" ? null : response.body;
    return new Response(body, { status: response.status, headers: response.headers });
  };
}
