/**
 * The 13 `POST /v1/*` endpoints of the `auth_proxy.swagger.json` that `@turnkey/core` ships, with what the
 * proxy's guards need to know of each: which rate limits it counts against and the contact it names.
 *
 * @module
 */
import { account, accountContact, oauthLogin, signup, signupContact } from "./account-endpoints.js";
import { type AuthProxy, type Body, DEFAULT_PROVIDERS } from "./context.js";
import { oauth2Authenticate } from "./oauth2-endpoint.js";
import type { RequestContact } from "./options.js";
import { initOtp, otpInitContact, otpLogin, otpLoginContact, verifyOtp } from "./otp-endpoints.js";

/** What a request costs beyond the per-address limit: a sub-organization, or a message to a contact. */
export type EndpointCost = "signup" | "otpSend";

export interface Endpoint {
  handle: (proxy: AuthProxy, body: Body) => Promise<Body>;
  cost?: EndpointCost;
  /** The contact the request names, if any, read from the raw body (for limits and the abuse check). */
  contactOf?: (body: Body) => RequestContact | undefined;
}

async function walletKitConfig(proxy: AuthProxy): Promise<Body> {
  const { options } = proxy;
  return {
    enabledProviders: [...(options.enabledProviders ?? DEFAULT_PROVIDERS)],
    sessionExpirationSeconds: options.sessionExpirationSeconds ?? "900",
    organizationId: options.organizationId,
    oauthClientIds: { ...options.oauthClientIds },
    ...(options.oauthRedirectUrl === undefined ? {} : { oauthRedirectUrl: options.oauthRedirectUrl }),
    otpAlphanumeric: options.otpAlphanumeric ?? true,
    otpLength: String(options.otpLength ?? 9),
  };
}

export const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  account: { handle: account, contactOf: accountContact },
  oauth2_authenticate: { handle: oauth2Authenticate },
  oauth_login: { handle: oauthLogin },
  otp_init: { handle: (proxy, body) => initOtp(proxy, body, false), cost: "otpSend", contactOf: otpInitContact },
  otp_init_v2: { handle: (proxy, body) => initOtp(proxy, body, true), cost: "otpSend", contactOf: otpInitContact },
  otp_login: { handle: (proxy, body) => otpLogin(proxy, body, 1), contactOf: otpLoginContact },
  otp_login_v2: { handle: (proxy, body) => otpLogin(proxy, body, 2), contactOf: otpLoginContact },
  otp_verify: { handle: (proxy, body) => verifyOtp(proxy, body, 1) },
  otp_verify_v2: { handle: (proxy, body) => verifyOtp(proxy, body, 2) },
  signup: { handle: signup, cost: "signup", contactOf: signupContact },
  signup_v2: { handle: signup, cost: "signup", contactOf: signupContact },
  wallet_kit_client_params: {
    handle: async (proxy) =>
      proxy.options.turnstileSiteKey === undefined ? {} : { turnstileSiteKey: proxy.options.turnstileSiteKey },
  },
  wallet_kit_config: { handle: walletKitConfig },
};
