/**
 * A small client bound to one API key: it stamps each body as `@turnkey/api-key-stamper` does and POSTs it
 * through a `fetch` (the in-process one of a test organization, or the global one for a running server).
 * It lets a suite drive the HTTP surface without depending on the official clients.
 *
 * @module
 */
import { CustodyError, type ErrorCode, type ErrorDetails, type RpcStatus } from "../common/errors.js";
import type { ApiKeyPair } from "./api-keys.js";
import { stampWithApiKey } from "./api-keys.js";
import type { FetchFunction } from "./in-process-fetch.js";

/** Options of {@link createStampedClient}. */
export interface StampedClientOptions {
  /** Where the Activity API is served, e.g. a test organization's `baseUrl` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The API key that stamps every request. */
  apiKey: ApiKeyPair;
  /** The organization a body names when it names none. */
  organizationId: string;
  /** Default: the global `fetch`. */
  fetch?: FetchFunction;
  /** The clock `timestampMs` is read from when a body has none. Default: the wall clock. */
  now?: () => number;
}

/** Sends stamped requests to the Activity API. */
export interface StampedClient {
  /**
   * POSTs `body` to `path` (`/public/v1/submit/create_wallet`, `/public/v1/query/whoami`, ...), adding
   * `organizationId` and, for activities, `timestampMs` when absent. Resolves with the response body;
   * rejects with the {@link CustodyError} the server answered.
   */
  post<T = unknown>(path: string, body?: Record<string, unknown>): Promise<T>;
}

/** Makes a {@link StampedClient}. */
export function createStampedClient(options: StampedClientOptions): StampedClient {
  const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  return {
    async post<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
      const isActivity = path.startsWith("/public/v1/submit/");
      const full = {
        organizationId: options.organizationId,
        ...(isActivity && body.timestampMs === undefined ? { timestampMs: String(now()) } : {}),
        ...body,
      };
      const text = JSON.stringify(full);
      const stamp = stampWithApiKey(text, options.apiKey);
      const response = await send(new URL(path, options.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/json", [stamp.stampHeaderName]: stamp.stampHeaderValue },
        body: text,
      });
      const answer: unknown = await response.json();
      if (!response.ok) throw custodyErrorOf(response.status, answer);
      return answer as T;
    },
  };
}

/** Rebuilds the error a custodian server answered from its wire body (custodian's own detail carries it). */
function custodyErrorOf(status: number, body: unknown): CustodyError {
  const rpc = body as Partial<RpcStatus>;
  const own = rpc.details?.find((detail) => detail["@type"] === "type.googleapis.com/custodian.v1.ErrorDetail");
  if (!own) {
    // Not a custodian answer (a proxy's, say): keep what it said.
    return new CustodyError("INTERNAL", `HTTP ${status}: ${JSON.stringify(body).slice(0, 500)}`, {
      httpStatus: status,
    });
  }
  const { "@type": _type, code, ...details } = own;
  return new CustodyError(code as ErrorCode, rpc.message ?? "", details as ErrorDetails);
}
