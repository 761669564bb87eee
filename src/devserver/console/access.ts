/**
 * Who may see the dev console: clients on the loopback interface (unless the server was told otherwise)
 * holding the token the server printed at start-up, given once as `?token=` (then kept in a cookie scoped
 * to this server) or as `Authorization: Bearer <token>`. (A request stamped by the root user's API key is
 * let in too: see the console route.)
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const CONSOLE_COOKIE = "custodian_console";

/** Whether the request came over the loopback interface. */
export function fromLoopback(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? "";
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/** How a request presents the console token. */
export type TokenPresentation = "query" | "cookie" | "header";

/** Where the request carries the right token, or undefined when it carries none that matches. */
export function presentedToken(req: IncomingMessage, url: URL, token: string): TokenPresentation | undefined {
  if (sameToken(url.searchParams.get("token") ?? undefined, token)) return "query";
  if (sameToken(cookieValue(req, CONSOLE_COOKIE), token)) return "cookie";
  const authorization = req.headers.authorization;
  if (authorization?.startsWith("Bearer ") && sameToken(authorization.slice(7), token)) return "header";
  return undefined;
}
