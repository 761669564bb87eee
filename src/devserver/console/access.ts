/**
 * Who may see the dev console and the outbox beside it (which holds every one-time code): clients on the
 * loopback interface (unless the server was told otherwise) holding the token the server printed at
 * start-up, given once as `?token=` (then kept in a cookie scoped to this server) or as
 * `Authorization: Bearer <token>`, or stamping the request target with the root user's API key.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isCustodyError } from "../../common/errors.js";
import type { CustodyEngine } from "../../engine/engine.js";

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

/** What the access rules need to know of the server. */
export interface AccessRules {
  engine: CustodyEngine;
  /** The dev organization, whose root user's API key may stamp a request instead of the token. */
  organizationId: string;
  rootUserId: string;
  /** The secret a browser presents: printed by the server at start-up. */
  token: string;
  /** Serve clients beyond the loopback interface too (they still need the token). */
  allowRemote: boolean;
}

/**
 * Whether the request carries an `X-Stamp` made by the root user's API key over the request target (path and
 * query), as any official stamper makes one over a body: scripts can read the console with the credentials
 * file alone.
 */
async function stampedByRoot(req: IncomingMessage, rules: AccessRules): Promise<"stamp" | undefined> {
  const stamp = req.headers["x-stamp"];
  if (typeof stamp !== "string") return undefined;
  try {
    const principal = await rules.engine.authenticate({
      stamps: { apiKey: stamp },
      body: new TextEncoder().encode(req.url ?? "/"),
      organizationId: rules.organizationId,
    });
    return principal.userId === rules.rootUserId ? "stamp" : undefined;
  } catch (error) {
    if (isCustodyError(error)) return undefined;
    throw error;
  }
}

/** The access rules' answer: how the request proved itself, or why it is refused (403 or 401). */
export type Admission =
  | { admitted: true; presented: TokenPresentation | "stamp" }
  | { admitted: false; status: 403 | 401; message: string };

/** Applies the access rules to a request. */
export async function admit(req: IncomingMessage, url: URL, rules: AccessRules): Promise<Admission> {
  if (!rules.allowRemote && !fromLoopback(req)) {
    return { admitted: false, status: 403, message: "the dev console answers the loopback interface only" };
  }
  const presented = presentedToken(req, url, rules.token) ?? (await stampedByRoot(req, rules));
  if (presented === undefined) {
    return {
      admitted: false,
      status: 401,
      message: "present the console token the dev server printed at start-up (?token=, its cookie, or Bearer)",
    };
  }
  return { admitted: true, presented };
}
