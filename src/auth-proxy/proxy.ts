/**
 * The Auth Proxy API that `@turnkey/core` (and the wallet kits built on it) call for sign-up, one-time codes,
 * OAuth log-in and account look-up, without a backend of their own: the 13 `POST /v1/*` paths of the
 * `auth_proxy.swagger.json` that `@turnkey/core` ships. Every path is an engine call made as one user of the
 * parent organization (`userId`), so policies, activities and the outbox see the proxy like any other
 * client; there is no second path to storage.
 *
 * Strangers reach it, so each request passes, in order: the origin allow-list, the per-address rate limit,
 * the configuration id, the body limits, the per-endpoint limits (sign-ups and codes sent, per address and
 * per contact), then the host's abuse check (a captcha, say), before any engine call.
 *
 * ```ts
 * const proxy = createAuthProxyHandler(engine, { organizationId, userId, allowedOrigins: ["https://app.example"] });
 * http.createServer((req, res) => proxy(req, res, () => api(req, res))); // authProxyUrl = the server's URL
 * ```
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CustodyError, isCustodyError } from "../common/errors.js";
import { decodeUtf8Strict } from "../crypto/bytes.js";
import type { CustodyEngine } from "../engine/engine.js";
import { type NodeHttpHandler, readBody } from "../http/node.js";
import { DEFAULT_MAX_BODY_BYTES } from "../http/respond.js";
import { AuthProxy, type Body } from "./context.js";
import { ENDPOINTS } from "./endpoints.js";
import { RateLimits } from "./guards.js";
import type { AuthProxyOptions } from "./options.js";
import { decideOrigin, preflightHeaders } from "./origins.js";

export type {
  AbuseCheck,
  AbuseCheckRequest,
  AuthProxyOptions,
  AuthProxyRateLimits,
  RateLimit,
  RequestContact,
} from "./options.js";
export { DEFAULT_RATE_LIMITS } from "./options.js";

const PREFIX = "/v1/";

/** The auth-proxy paths this handler serves (`/v1/signup`, ...). */
export const AUTH_PROXY_PATHS: readonly string[] = Object.keys(ENDPOINTS).map((name) => `${PREFIX}${name}`);

interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function json(status: number, body: unknown, headers: Record<string, string>): ProxyResponse {
  return { status, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}

function failure(error: CustodyError, headers: Record<string, string>, status = error.httpStatus): ProxyResponse {
  const retryAfter = error.details.retryAfterSeconds;
  return json(
    status,
    error.toRpcStatus(),
    typeof retryAfter === "number" ? { ...headers, "retry-after": String(retryAfter) } : headers,
  );
}

/** What the handler needs of one request. */
interface ProxyRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  clientAddress: string;
  read: () => Promise<Uint8Array | null>;
}

function parseBody(bytes: Uint8Array | null): Body {
  if (bytes === null) {
    throw new CustodyError("INVALID_ARGUMENT", "the request body is too large", { reason: "BODY_TOO_LARGE" });
  }
  const text = decodeUtf8Strict(bytes);
  let body: unknown;
  try {
    body = text === undefined || text === "" ? {} : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new CustodyError("INVALID_ARGUMENT", "the request body must be a JSON object", {
      reason: "REQUEST_INVALID",
    });
  }
  return body as Body;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function answer(proxy: AuthProxy, limits: RateLimits, request: ProxyRequest): Promise<ProxyResponse> {
  const { headers, method, path, clientAddress } = request;
  const origin = decideOrigin(proxy.options.allowedOrigins, headers);
  if (!origin.allowed) return failure(origin.error, {});
  const { cors } = origin;
  if (method === "OPTIONS") return { status: 204, headers: preflightHeaders(cors), body: "" };
  const name = path.slice(PREFIX.length);
  const endpoint = Object.hasOwn(ENDPOINTS, name) ? ENDPOINTS[name] : undefined;
  if (!endpoint) return failure(new CustodyError("NOT_FOUND", `no auth proxy endpoint at ${path}`), cors, 404);
  if (method !== "POST") {
    return failure(
      new CustodyError("INVALID_ARGUMENT", `${method} is not allowed here; use POST`),
      { ...cors, allow: "POST, OPTIONS" },
      405,
    );
  }
  try {
    limits.request(clientAddress);
    const configId = proxy.options.configId;
    if (configId !== undefined && headers["x-auth-proxy-config-id"] !== configId) {
      throw new CustodyError("UNAUTHENTICATED", "X-Auth-Proxy-Config-ID does not name this auth proxy", {
        reason: "AUTH_PROXY_CONFIG_MISMATCH",
      });
    }
    const body = parseBody(await request.read());
    const contact = endpoint.contactOf?.(body);
    limits.cost(endpoint.cost, clientAddress, contact);
    const captchaToken = headerText(headers["x-captcha-token"]);
    await proxy.options.abuseCheck?.({
      route: name,
      clientAddress,
      headers,
      body,
      ...(contact === undefined ? {} : { contact }),
      ...(captchaToken === undefined ? {} : { captchaToken }),
      ...(headers.origin === undefined ? {} : { origin: headers.origin }),
    });
    return json(200, await endpoint.handle(proxy, body), cors);
  } catch (error) {
    if (isCustodyError(error)) return failure(error, cors);
    proxy.options.onError?.(error);
    return failure(new CustodyError("INTERNAL", "internal error"), cors, 500);
  }
}

/**
 * Serves the Auth Proxy API on a node server at `/v1/*` (point the kit's `authProxyUrl` at the server);
 * other paths go to `next` (or get 404 without one). Throws `INVALID_ARGUMENT` for a rate limit that
 * allows nothing.
 */
export function createAuthProxyHandler(engine: CustodyEngine, options: AuthProxyOptions): NodeHttpHandler {
  const proxy = new AuthProxy(engine, options);
  const limits = new RateLimits(options.rateLimits);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req: IncomingMessage, res: ServerResponse, next) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (!path.startsWith(PREFIX)) {
      if (next) next();
      else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify(new CustodyError("NOT_FOUND", `no auth proxy endpoint at ${path}`).toRpcStatus()));
      }
      return;
    }
    // A client that went away reads as no body: its answer (a 413) reaches no one.
    const read = async () => {
      const outcome = await readBody(req, limit);
      return "disconnected" in outcome ? null : outcome.body;
    };
    Promise.resolve()
      .then(() => {
        const clientAddress = options.clientAddress?.(req) ?? req.socket.remoteAddress ?? "unknown";
        return answer(proxy, limits, { method: req.method ?? "GET", path, headers: req.headers, clientAddress, read });
      })
      .then((response) => {
        res.writeHead(response.status, response.headers);
        res.end(response.body);
      })
      .catch((error: unknown) => {
        options.onError?.(error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 13, message: "internal error", details: [] }));
      });
  };
}
