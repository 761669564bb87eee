/**
 * The adapter for fetch-style hosts (`(Request) => Promise<Response>`: Deno, Bun, workers, Next.js routes).
 *
 * @module
 */
import { readBoundedBytes } from "../common/bounded-body.js";
import type { CustodyEngine } from "../engine/engine.js";
import { trustedProxyList } from "./client-address.js";
import { type AdapterRequest, DEFAULT_MAX_BODY_BYTES, type HttpAdapterOptions, respond } from "./respond.js";

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
    const body = await readBoundedBytes(request.body, limit);
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
