/**
 * The runtime-neutral core of the HTTP adapter: one request in (method, path, headers, raw body bytes),
 * one response out. The node and fetch handlers only move bytes in and out of it.
 *
 * @module
 */

import { CustodyError, isCustodyError } from "../common/errors.js";
import { decodeUtf8Strict } from "../crypto/bytes.js";
import type { CustodyEngine } from "../engine/engine.js";
import { operationByUrlPath } from "../operations/table.js";
import { clientAddressOf } from "./client-address.js";
import { HOSTED_API_PATHS } from "./generated/hosted-api-paths.js";
import { exceedsJsonDepth } from "./json-depth.js";
import { unservedGroup } from "./unserved-operations.js";

/** Options shared by both handlers. */
export interface HttpAdapterOptions {
  /** Largest accepted body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Origins allowed to call cross-origin: `"*"` (default) or an exact list such as `["https://app.test"]`. */
  allowedOrigins?: "*" | readonly string[];
  /** Deepest accepted JSON nesting. Default 64. */
  maxJsonDepth?: number;
  /** Called with unexpected errors (those answered with 500), for the host's logs. Never given secrets. */
  onError?: (error: unknown) => void;
  /**
   * Addresses (or CIDR blocks) of the reverse proxies in front of this server whose `X-Forwarded-For` is
   * believed: a request arriving from one of them is held to the address that proxy appended, read from the
   * right, through as many trusted proxies as it passed. Default: none, so IP allow-lists see the socket's
   * peer address only. List only proxies that overwrite or append to the header, never one a client reaches
   * around.
   */
  trustedProxies?: readonly string[];
  /**
   * Called once for each request whose client went away before it was answered (an aborted upload, a
   * closed socket): an ordinary event, counted rather than logged as an error. Node handler only.
   */
  onClientDisconnect?: () => void;
}

/** A request as the adapter sees it. Header names are lowercase; a repeated header has several values. */
export interface AdapterRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, readonly string[]>>;
  /** The body bytes, or null when the body went over the limit before it was read whole. */
  body: Uint8Array | null;
  /**
   * The peer address the transport saw (the socket's remote address); absent when the host cannot tell it,
   * which IP allow-lists treat as an evaluation error (their `onEvaluationError`).
   */
  clientAddress?: string;
}

export interface AdapterResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /**
   * The error the body answers, for the host's log: in-process its details say more than the wire may (a
   * denial's name the activity and the deciding policies). Never sent.
   */
  error?: CustodyError;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_JSON_DEPTH = 64;
const PREFIX = "/public/v1/";
const ALLOWED_HEADERS = "Content-Type, X-Stamp, X-Stamp-Webauthn, X-Stamp-Attested, X-Session, X-Client-Version";

function json(status: number, body: unknown, extra?: Record<string, string>): AdapterResponse {
  // Assigned, not spread: this line meets every kind of extra header set, and a spread there goes megamorphic
  // on every request's path.
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (extra !== undefined) Object.assign(headers, extra);
  return { status, headers, body: JSON.stringify(body) };
}

/** An error answered with a status of its own (404, 405, 413) rather than its code's. */
function errorResponse(
  error: CustodyError,
  status = error.httpStatus,
  extra: Record<string, string> = {},
): AdapterResponse {
  const response = json(status, error.toRpcStatus(), extra);
  response.error = error;
  return response;
}

function corsHeaders(request: AdapterRequest, options: HttpAdapterOptions): Record<string, string> | undefined {
  const origin = request.headers.origin?.[0];
  if (origin === undefined) return {};
  const allowed = options.allowedOrigins ?? "*";
  if (allowed !== "*" && !allowed.includes(origin)) return undefined;
  return { "access-control-allow-origin": allowed === "*" ? "*" : origin, vary: "Origin" };
}

/** The single value of a header that must not repeat; a repeated stamp is refused as ambiguous. */
function single(request: AdapterRequest, name: string): string | undefined {
  const values = request.headers[name];
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) {
    throw new CustodyError("UNAUTHENTICATED", `the ${name} header appears more than once`, {
      reason: "MALFORMED_STAMP",
    });
  }
  return values[0];
}

function parseBody(bytes: Uint8Array, options: HttpAdapterOptions): { text: string; body: Record<string, unknown> } {
  const text = decodeUtf8Strict(bytes);
  if (text === undefined)
    throw new CustodyError("INVALID_ARGUMENT", "the request body is not valid UTF-8", { reason: "REQUEST_INVALID" });
  if (exceedsJsonDepth(text, options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH)) {
    throw new CustodyError("INVALID_ARGUMENT", "the request body nests JSON too deeply", { reason: "REQUEST_INVALID" });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CustodyError("INVALID_ARGUMENT", "the request body is not valid JSON", { reason: "REQUEST_INVALID" });
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new CustodyError("INVALID_ARGUMENT", "the request body must be a JSON object", { reason: "REQUEST_INVALID" });
  }
  return { text, body: body as Record<string, unknown> };
}

/** Where receivers fetch the webhook signing keys: the one unauthenticated GET (docs/spec/wire-protocol.md §8). */
export const WEBHOOK_JWKS_PATH = "/public/v1/discovery/webhooks/jwks";
/** As the hosted service answers it (`api-reference/queries/get-webhook-jwks.mdx`). */
const JWKS_CACHE_CONTROL = "public, max-age=86400, s-maxage=86400, stale-if-error=604800";

/** Answers the JWKS path: GET without a stamp, a preflight, or 405. */
async function webhookJwks(
  engine: CustodyEngine,
  request: AdapterRequest,
  cors: Record<string, string>,
  options: HttpAdapterOptions,
): Promise<AdapterResponse> {
  if (request.method === "OPTIONS") {
    return {
      status: 204,
      headers: { ...cors, "access-control-allow-methods": "GET, OPTIONS", "access-control-max-age": "600" },
      body: "",
    };
  }
  if (request.method !== "GET") {
    const error = new CustodyError("INVALID_ARGUMENT", `${request.method} is not allowed here; use GET`, {
      reason: "METHOD_NOT_ALLOWED",
    });
    return errorResponse(error, 405, { ...cors, allow: "GET, OPTIONS" });
  }
  try {
    return json(200, await engine.webhookJwks(), { ...cors, "cache-control": JWKS_CACHE_CONTROL });
  } catch (error) {
    if (isCustodyError(error)) return errorResponse(error, error.httpStatus, cors);
    options.onError?.(error);
    return errorResponse(new CustodyError("INTERNAL", "internal error"), 500, cors);
  }
}

/** Whether this adapter serves `path` at all (hosts use it to pass other paths to their next handler). */
export function servesPath(path: string): boolean {
  return path.startsWith(PREFIX);
}

/**
 * Why no row serves `path`: an operation of the hosted API that custodian does not serve yet (501, naming
 * it), or a path that is no operation at all (404).
 */
function noOperation(path: string): CustodyError {
  const tail = path.slice(PREFIX.length);
  if (path.startsWith(PREFIX) && HOSTED_API_PATHS.has(tail)) {
    const group = unservedGroup(tail);
    return new CustodyError(
      "UNIMPLEMENTED",
      `custodian does not serve ${tail}, an operation of the hosted API (${group.name}): ${group.why} (docs/operations.md lists what it serves)`,
      { reason: "OPERATION_NOT_SERVED", operation: tail, group: group.name },
    );
  }
  return new CustodyError("NOT_FOUND", `no operation at ${path}`, { reason: "UNKNOWN_PATH" });
}

/** Answers one request. Never throws: every failure becomes a JSON error response. */
export async function respond(
  engine: CustodyEngine,
  request: AdapterRequest,
  options: HttpAdapterOptions,
): Promise<AdapterResponse> {
  const cors = corsHeaders(request, options);
  if (cors === undefined) {
    return errorResponse(
      new CustodyError("PERMISSION_DENIED", "this origin is not allowed", { reason: "ORIGIN_NOT_ALLOWED" }),
    );
  }
  if (request.path === WEBHOOK_JWKS_PATH) return webhookJwks(engine, request, cors, options);
  const operation = operationByUrlPath(request.path);
  if (request.method === "OPTIONS") {
    return {
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": "600",
      },
      body: "",
    };
  }
  if (!operation) return errorResponse(noOperation(request.path), undefined, cors);
  if (request.method !== "POST") {
    const error = new CustodyError("INVALID_ARGUMENT", `${request.method} is not allowed here; use POST`, {
      reason: "METHOD_NOT_ALLOWED",
    });
    return errorResponse(error, 405, { ...cors, allow: "POST, OPTIONS" });
  }
  if (request.body === null) {
    const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const error = new CustodyError("INVALID_ARGUMENT", `the request body is larger than ${limit} bytes`, {
      reason: "BODY_TOO_LARGE",
      limit,
    });
    return errorResponse(error, 413, cors);
  }
  try {
    const { text, body } = parseBody(request.body, options);
    const stamps = {
      apiKey: single(request, "x-stamp"),
      webauthn: single(request, "x-stamp-webauthn"),
      attested: single(request, "x-stamp-attested"),
      session: single(request, "x-session"),
    };
    const organizationId = body.organizationId;
    if (typeof organizationId !== "string" || organizationId === "") {
      throw new CustodyError("INVALID_ARGUMENT", "organizationId: expected a non-empty string", {
        field: "organizationId",
        reason: "REQUEST_INVALID",
      });
    }
    const clientAddress = clientAddressOf(
      request.clientAddress,
      request.headers["x-forwarded-for"],
      options.trustedProxies,
    );
    const principal = await engine.authenticate({ stamps, body: request.body, organizationId, clientAddress });
    const result = await engine.execute({ operation, bodyText: text, body, principal });
    return json(200, result, cors);
  } catch (error) {
    if (isCustodyError(error)) return errorResponse(error, error.httpStatus, cors);
    options.onError?.(error);
    return errorResponse(new CustodyError("INTERNAL", "internal error"), 500, cors);
  }
}
