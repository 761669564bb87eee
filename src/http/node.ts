/**
 * The adapter for `node:http` servers and the middleware stacks built on them (express, connect).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CustodyEngine } from "../engine/engine.js";
import {
  type AdapterRequest,
  DEFAULT_MAX_BODY_BYTES,
  type HttpAdapterOptions,
  respond,
  servesPath,
} from "./respond.js";

/** A node/express/connect handler; `next` is called for paths outside `/public/v1/`. */
export type NodeHttpHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Reads the body up to `limit` bytes. Past the limit it stops collecting (the rest is drained, not kept)
 * and resolves null, so a 10 MB body costs at most `limit` bytes of memory.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  // A body parser mounted earlier may have consumed the stream into a Buffer or string already.
  const preRead = (req as IncomingMessage & { body?: unknown }).body;
  if (preRead instanceof Uint8Array) return Promise.resolve(preRead.length > limit ? null : preRead);
  if (typeof preRead === "string") {
    const bytes = Buffer.from(preRead, "utf8");
    return Promise.resolve(bytes.length > limit ? null : bytes);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

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
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req, res, next) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (next && !servesPath(path)) {
      next();
      return;
    }
    readBody(req, limit)
      .then(async (body) => {
        const request: AdapterRequest = { method: req.method ?? "GET", path, headers: headersOf(req), body };
        const response = await respond(engine, request, options);
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
