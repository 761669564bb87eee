/**
 * A `fetch` that answers one base URL in-process, through the fetch adapter, with no port: what the
 * official clients are handed (or find as the global `fetch`) in a test suite.
 *
 * @module
 */

/** The `fetch` function type of the platform. */
export type FetchFunction = typeof globalThis.fetch;

/**
 * Routes requests whose origin is `baseUrl`'s to `handler` and every other request to `fallback` (by
 * default the global `fetch` as it was when this was called, so installing the result as the global
 * `fetch` does not loop).
 */
export function createInProcessFetch(
  baseUrl: string,
  handler: (request: Request) => Promise<Response>,
  fallback: FetchFunction = globalThis.fetch,
): FetchFunction {
  const origin = new URL(baseUrl).origin;
  return async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).origin !== origin) return fallback(input, init);
    return handler(request);
  };
}

/**
 * Installs `fetch` as `globalThis.fetch` (where `@turnkey/sdk-server` looks for it) and returns the function
 * that puts the previous one back. In vitest, `vi.stubGlobal("fetch", fetch)` does the same.
 */
export function installGlobalFetch(fetch: FetchFunction): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = fetch;
  return () => {
    globalThis.fetch = previous;
  };
}
