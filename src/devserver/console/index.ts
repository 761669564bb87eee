/**
 * The dev console at `GET /`: a read-only view of what the dev server holds, for a person at a browser.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isCustodyError } from "../../common/errors.js";
import type { DevRoute } from "../handler.js";
import { type AccessRules, admit, CONSOLE_COOKIE } from "./access.js";
import { activityPage } from "./activity-page.js";
import { type Html, html, markup } from "./html.js";
import { organizationPage } from "./pages.js";
import { type ConsoleSources, page } from "./parts.js";

export type { ConsoleSources, OutboxReader } from "./parts.js";

/** Options of {@link createConsoleRoute}. */
export interface ConsoleOptions extends ConsoleSources, AccessRules {}

// No script runs on these pages, and none may: the inline style is the only thing allowed to load.
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function send(res: ServerResponse, status: number, body: Html, extra: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS, ...extra });
  res.end(markup(body));
}

function notice(res: ServerResponse, status: number, title: string, text: string): void {
  send(res, status, page(title, html`<h1>${title}</h1><p>${text}</p>`));
}

/** The page for `path`, or undefined when the console has none there. */
function pageFor(sources: ConsoleSources, path: string): (() => Promise<Html>) | undefined {
  if (path === "/") return () => organizationPage(sources, sources.organizationId);
  const organization = /^\/organizations\/([^/]+)$/.exec(path);
  if (organization) return () => organizationPage(sources, decodeURIComponent(organization[1] as string));
  const activity = /^\/activities\/([^/]+)$/.exec(path);
  if (activity) return () => activityPage(sources, decodeURIComponent(activity[1] as string));
  return undefined;
}

/** The console as a route of the dev server. */
export function createConsoleRoute(options: ConsoleOptions): DevRoute {
  return async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const render = pageFor(options, path);
    if (render === undefined) return false;
    const url = new URL(req.url ?? "/", "http://console.invalid");
    const admission = await admit(req, url, options);
    if (!admission.admitted) {
      if (admission.status === 403) notice(res, 403, "Not here", admission.message);
      else
        notice(
          res,
          401,
          "Token needed",
          "open the console address the dev server printed at start-up (it carries ?token=)",
        );
      return true;
    }
    const { presented } = admission;
    if (req.method !== "GET" && req.method !== "HEAD") {
      notice(res, 405, "Read-only", "the dev console only shows; change things through the Activity API");
      return true;
    }
    if (presented === "query") {
      // Keep the token out of the address bar and history: a cookie for this server, then the same page.
      res.writeHead(303, {
        location: path,
        "set-cookie": `${CONSOLE_COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`,
        ...SECURITY_HEADERS,
      });
      res.end();
      return true;
    }
    try {
      send(res, 200, await render());
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      notice(res, error.httpStatus, error.code, error.message);
    }
    return true;
  };
}
