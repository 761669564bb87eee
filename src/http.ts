/**
 * `custodian/http`: serve a `CustodyEngine` over the wire protocol that Turnkey's official clients speak.
 *
 * @module custodian/http
 */

export { AUTH_PROXY_PATHS, type AuthProxyOptions, createAuthProxyHandler } from "./auth-proxy/proxy.js";
export { createFetchHandler } from "./http/fetch.js";
export { createHttpHandler, type NodeHttpHandler } from "./http/node.js";
export type { HttpAdapterOptions } from "./http/respond.js";
