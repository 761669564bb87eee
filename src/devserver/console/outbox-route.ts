/**
 * `GET /dev/outbox`: the messages the dev server sent, one-time codes included, as JSON for scripts and
 * tests. Whoever reads a code can verify its contact, so the route keeps the dev console's access rules.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CustodyError } from "../../common/errors.js";
import type { DevRoute } from "../handler.js";
import { type AccessRules, admit } from "./access.js";

/** The path of the outbox route. */
export const OUTBOX_PATH = "/dev/outbox";

const HEADERS = {
  "content-type": "application/json",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** The outbox as a route of the dev server, answering with `{ messages }` from `messages()`. */
export function createOutboxRoute(rules: AccessRules, messages: () => readonly object[]): DevRoute {
  return async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path !== OUTBOX_PATH) return false;
    const admission = await admit(req, new URL(req.url ?? "/", "http://outbox.invalid"), rules);
    if (!admission.admitted) {
      res.writeHead(admission.status, HEADERS);
      const code = admission.status === 403 ? "PERMISSION_DENIED" : "UNAUTHENTICATED";
      res.end(JSON.stringify(new CustodyError(code, admission.message).toRpcStatus()));
    } else if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { ...HEADERS, allow: "GET, HEAD" });
      res.end(JSON.stringify(new CustodyError("INVALID_ARGUMENT", "the outbox only lists; use GET").toRpcStatus()));
    } else {
      res.writeHead(200, HEADERS);
      res.end(req.method === "HEAD" ? undefined : JSON.stringify({ messages: messages() }));
    }
    return true;
  };
}
