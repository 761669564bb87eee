/**
 * `custodian/http`: serve a `CustodyEngine` over the wire protocol that Turnkey's official clients speak, with the
 * auth proxy, and the export, import and auth frames that `@turnkey/iframe-stamper` embeds.
 *
 * @module custodian/http
 */

export {
  type AbuseCheck,
  type AbuseCheckRequest,
  AUTH_PROXY_PATHS,
  type AuthProxyOptions,
  type AuthProxyRateLimits,
  createAuthProxyHandler,
  DEFAULT_RATE_LIMITS,
  type RateLimit,
  type RequestContact,
} from "./auth-proxy/proxy.js";
export {
  createFramesFetchHandler,
  createFramesHandler,
  FRAME_KINDS,
  type FrameKind,
  type FramesOptions,
} from "./frames/index.js";
export { createFetchHandler } from "./http/fetch.js";
export { createHttpHandler, type NodeHttpHandler } from "./http/node.js";
export type { HttpAdapterOptions } from "./http/respond.js";
