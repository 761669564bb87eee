/**
 * Which browser origins may call the proxy, and the CORS headers that tell the browser so. A request with no
 * `Origin` header (a server, a native app, curl) is not a browser's cross-origin call and passes; its limits
 * still apply.
 *
 * @module
 */
import type { IncomingMessage } from "node:http";
import { CustodyError } from "../common/errors.js";
import type { AuthProxyOptions } from "./options.js";

const ALLOWED_HEADERS = "Content-Type, X-Auth-Proxy-Config-ID, X-Captcha-Token";

/** What the origin check decided: the CORS headers of an allowed request, or the refusal. */
export type OriginDecision = { allowed: true; cors: Record<string, string> } | { allowed: false; error: CustodyError };

/** Whether `origin` is the page's own: its host is the host the request was sent to. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || !URL.canParse(origin)) return false;
  return new URL(origin).host === host.toLowerCase();
}

function listed(allowed: NonNullable<AuthProxyOptions["allowedOrigins"]>, origin: string): boolean {
  if (allowed === "*") return true;
  if (typeof allowed === "function") return allowed(origin);
  return allowed.includes(origin);
}

/** The origin decision for a request. */
export function decideOrigin(
  allowedOrigins: AuthProxyOptions["allowedOrigins"],
  headers: IncomingMessage["headers"],
): OriginDecision {
  const origin = headers.origin;
  if (origin === undefined) return { allowed: true, cors: {} };
  const allowed = allowedOrigins ?? [];
  if (!sameOrigin(origin, headers.host) && !listed(allowed, origin)) {
    return {
      allowed: false,
      error: new CustodyError("PERMISSION_DENIED", `the origin ${origin.slice(0, 200)} may not call this auth proxy`, {
        field: "Origin",
        reason: "ORIGIN_NOT_ALLOWED",
      }),
    };
  }
  // Answers name the origin (not "*" even when any is allowed) so caches keep one answer per origin.
  return { allowed: true, cors: { "access-control-allow-origin": origin, vary: "Origin" } };
}

/** The headers of an allowed preflight (`OPTIONS`). */
export function preflightHeaders(cors: Record<string, string>): Record<string, string> {
  return {
    ...cors,
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": ALLOWED_HEADERS,
    "access-control-max-age": "600",
  };
}
