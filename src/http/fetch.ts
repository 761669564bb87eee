/**
 * The adapter for fetch-style hosts (`(Request) => Promise<Response>`: Deno, Bun, workers, Next.js routes).
 *
 * @module
 */
import type { CustodyEngine } from "../engine/engine.js";
import { trustedProxyList } from "./client-address.js";
import { type AdapterRequest, DEFAULT_MAX_BODY_BYTES, type HttpAdapterOptions, respond } from "./respond.js";

/** Reads a fetch body up to `limit` bytes; null past it (the stream is cancelled, not buffered). */
async function readBody(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/**
 * Serves the Activity API as a fetch handler: `Bun.serve({ fetch: createFetchHandler(engine) })`.
 *
 * A fetch `Request` does not carry the client's address: pass the one the runtime gives as the second argument
 * (`Deno.serve((request, info) => handler(request, info.remoteAddr.hostname))`,
 * `Bun.serve({ fetch: (request, server) => handler(request, server.requestIP(request)?.address) })`). Without
 * it, IP allow-lists meet an address they cannot tell and apply their `onEvaluationError`.
 */
export function createFetchHandler(
  engine: CustodyEngine,
  options: HttpAdapterOptions = {},
): (request: Request, clientAddress?: string) => Promise<Response> {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (options.trustedProxies !== undefined) trustedProxyList(options.trustedProxies);
  return async (request, clientAddress) => {
    const headers: Record<string, string[]> = Object.create(null);
    // Fetch joins repeated headers with ", "; a stamp never contains ", ", so splitting recovers repeats.
    request.headers.forEach((value, name) => {
      headers[name] = name.startsWith("x-stamp") ? value.split(", ") : [value];
    });
    const body = await readBody(request, limit);
    const adapterRequest: AdapterRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      headers,
      body,
    };
    if (clientAddress !== undefined) adapterRequest.clientAddress = clientAddress;
    const response = await respond(engine, adapterRequest, options);
    return new Response(response.status === 204 ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };
}
