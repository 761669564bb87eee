/**
 * The adapter for `node:http` servers and the middleware stacks built on them (express, connect).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CustodyEngine } from "../engine/engine.js";
import { trustedProxyList } from "./client-address.js";
import {
  type AdapterRequest,
  type AdapterResponse,
  DEFAULT_MAX_BODY_BYTES,
  type HttpAdapterOptions,
  respond,
  servesPath,
} from "./respond.js";

/** A node/express/connect handler; `next` is called for paths outside `/public/v1/`. */
export type NodeHttpHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** Why a body was not read whole: over the size limit, or the client went away before it ended. */
export type BodyOutcome = { body: Uint8Array | null } | { disconnected: true };

/**
 * Reads the body up to `limit` bytes. Past the limit (or a `content-length` announcing more) it stops
 * reading at once and gives `body: null`: the connection is then answered 413 and closed, so an endless
 * upload costs at most `limit` bytes of reading, not the whole stream. A client that disconnects first
 * gives `disconnected`.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  // A body parser mounted earlier may have consumed the stream into a Buffer or string already.
  const preRead = (req as IncomingMessage & { body?: unknown }).body;
  if (preRead instanceof Uint8Array) return Promise.resolve({ body: preRead.length > limit ? null : preRead });
  if (typeof preRead === "string") {
    const bytes = Buffer.from(preRead, "utf8");
    return Promise.resolve({ body: bytes.length > limit ? null : bytes });
  }
  const announced = Number(req.headers["content-length"]);
  if (Number.isFinite(announced) && announced > limit) return Promise.resolve({ body: null });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: BodyOutcome) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("aborted", onGone);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle({ body: null });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle({ body: Buffer.concat(chunks) });
    const onGone = () => settle({ disconnected: true });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onGone);
    req.on("aborted", onGone);
  });
}

/**
 * After a 413 the rest of the body is never read: the socket stops reading, says it is done and is torn
 * down shortly after (the grace lets the answer reach a client that reads while it uploads).
 */
function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.once("finish", () => {
    const { socket } = req;
    socket.pause();
    socket.end();
    const teardown = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    teardown.unref();
    socket.once("close", () => clearTimeout(teardown));
  });
}

const CLOSE_GRACE_MS = 500;

/** The request headers, lowercase names, each with all its values. */
export function headersOf(req: IncomingMessage): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = Object.create(null);
  // headersDistinct keeps repeated headers apart (plain `headers` joins them with ", ").
  for (const [name, values] of Object.entries(req.headersDistinct)) if (values) out[name] = values;
  return out;
}

/**
 * Serves the Activity API on a node server:
 *
 * ```ts
 * http.createServer(createHttpHandler(engine)).listen(8080);
 * app.use(createHttpHandler(engine)); // express or connect, before any JSON body parser
 * ```
 *
 * Stamps are verified over the raw body bytes, so mount it before body parsers (or let them keep a Buffer).
 */
export function createHttpHandler(engine: CustodyEngine, options: HttpAdapterOptions = {}): NodeHttpHandler {
  if (options.trustedProxies !== undefined) trustedProxyList(options.trustedProxies);
  return (req, res, next) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (next && !servesPath(path)) {
      next();
      return;
    }
    serveApiRequest(engine, req, res, options).catch((error: unknown) => {
      options.onError?.(error);
      if (res.destroyed) return;
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 13, message: "internal error", details: [] }));
    });
  };
}

/** One Activity API exchange as {@link serveApiRequest} served it. */
export interface ServedApiRequest {
  /** The body read, or null when it was over the limit. */
  readonly body: Uint8Array | null;
  readonly response: AdapterResponse;
}

/**
 * Serves one Activity API request on `res`: reads the body within the limit, answers, and closes the connection
 * after a 413. Resolves with what was asked and answered (for a host's request log), or undefined when the
 * client went away first. A host serving other routes beside the API (the dev server) calls this for API paths,
 * so every server shares one body-reading path.
 */
export async function serveApiRequest(
  engine: CustodyEngine,
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpAdapterOptions = {},
): Promise<ServedApiRequest | undefined> {
  const path = (req.url ?? "/").split("?")[0] as string;
  const outcome = await readBody(req, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  if ("disconnected" in outcome) {
    options.onClientDisconnect?.();
    return undefined;
  }
  const { body } = outcome;
  const request: AdapterRequest = { method: req.method ?? "GET", path, headers: headersOf(req), body };
  const peer = req.socket.remoteAddress;
  if (peer !== undefined) request.clientAddress = peer;
  const response = await respond(engine, request, options);
  if (body === null) {
    response.headers.connection = "close";
    closeAfterResponse(req, res);
  }
  if (res.destroyed) {
    options.onClientDisconnect?.();
    return undefined;
  }
  // A stated length: without one, node frames the answer in chunks, three buffers in a writev. A 204
  // states none (RFC 9110 §8.6).
  if (response.status !== 204) response.headers["content-length"] = String(Buffer.byteLength(response.body));
  res.writeHead(response.status, response.headers);
  res.end(response.body);
  return { body, response };
}
