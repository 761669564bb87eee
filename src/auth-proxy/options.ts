/**
 * What a host configures on its auth proxy: the wallet-kit settings the hosted dashboard would hold, and the
 * guards a public endpoint needs (origins, rate limits, an abuse check).
 *
 * @module
 */
import type { IncomingMessage } from "node:http";

/** At most `requests` in any `perSeconds` window (a token bucket: a burst of `requests`, then an even pace). */
export interface RateLimit {
  requests: number;
  perSeconds: number;
}

/** The proxy's rate limits; `false` turns one off. */
export interface AuthProxyRateLimits {
  /** Every request, per client address. Default 300 per 5 minutes. */
  requestsPerAddress?: RateLimit | false;
  /** Sign-ups (`signup`, `signup_v2`), per client address. Default 20 per hour. */
  signupsPerAddress?: RateLimit | false;
  /** One-time codes sent (`otp_init`, `otp_init_v2`), per client address. Default 30 per hour. */
  otpSendsPerAddress?: RateLimit | false;
  /** One-time codes sent to one email address or phone number, whoever asks. Default 5 per 15 minutes. */
  otpSendsPerContact?: RateLimit | false;
  /**
   * Clients (and contacts) each limit remembers; past it the least recently seen is forgotten, which bounds
   * memory whatever the number of addresses a flood comes from. Default 100 000.
   */
  maxTracked?: number;
}

/** The defaults: what a public deployment can keep (a person signs up or logs in with a handful of requests). */
export const DEFAULT_RATE_LIMITS = {
  requestsPerAddress: { requests: 300, perSeconds: 300 },
  signupsPerAddress: { requests: 20, perSeconds: 3600 },
  otpSendsPerAddress: { requests: 30, perSeconds: 3600 },
  otpSendsPerContact: { requests: 5, perSeconds: 900 },
  maxTracked: 100_000,
} as const satisfies Required<AuthProxyRateLimits>;

/** A contact a request names: the email address or phone number a code goes to, signs up or looks up. */
export interface RequestContact {
  otpType: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS";
  value: string;
}

/** What the abuse check sees of a request, after the origin and rate limits let it through. */
export interface AbuseCheckRequest {
  /** The endpoint: `signup_v2`, `otp_init_v2`, `account`, ... */
  route: string;
  /** The client address the rate limits count (see {@link AuthProxyOptions.clientAddress}). */
  clientAddress: string;
  /** The contact the request names, when it names one. */
  contact?: RequestContact;
  /** `X-Captcha-Token`, which `@turnkey/core` sends on `signup` and `otp_init` when given one. */
  captchaToken?: string;
  /** The `Origin` header, when the request has one (it is on the allow-list). */
  origin?: string;
  /** The request's headers as node received them. */
  headers: IncomingMessage["headers"];
  /** The parsed JSON body. */
  body: Readonly<Record<string, unknown>>;
}

/**
 * A host's own captcha or abuse check, run before each request reaches the engine. It refuses a request by
 * throwing a `CustodyError` (say `PERMISSION_DENIED` with the reason `CAPTCHA_INVALID`), which the client
 * receives as it is; any other error answers 500 and goes to `onError`, so a broken check fails closed.
 */
export type AbuseCheck = (request: AbuseCheckRequest) => Promise<void>;

/** How the proxy behaves: the wallet-kit configuration the hosted dashboard would hold, and its guards. */
export interface AuthProxyOptions {
  /** The parent organization: new users get sub-organizations of it, and codes are sent in its name. */
  organizationId: string;
  /** The user of that organization whose authority the proxy's activities run with (a root user, say). */
  userId: string;
  /** When set, requests must carry it in `X-Auth-Proxy-Config-ID`. */
  configId?: string;
  /** Sign-up and log-in methods on (`email`, `sms`, `passkey`, `wallet`, `google`, `apple`, ...). Default: all. */
  enabledProviders?: readonly string[];
  /** Session lifetime in seconds for `otp_login` and `oauth_login`, and reported to the kit. Default `"900"`. */
  sessionExpirationSeconds?: string;
  /** The app name one-time-code messages name. Default `custodian`. */
  appName?: string;
  /** Code length (6–9) and alphabet of one-time codes. Defaults: 9, alphanumeric. */
  otpLength?: number;
  otpAlphanumeric?: boolean;
  /** Reported to the kit by `wallet_kit_config`. */
  oauthClientIds?: Readonly<Record<string, string>>;
  oauthRedirectUrl?: string;
  /**
   * Origins a browser may call the proxy from, besides the proxy's own (an `Origin` whose host is the
   * request's `Host`): exact origins (`https://app.example`), a predicate, or `"*"` for any. Default none:
   * only same-origin pages and clients that send no `Origin` (servers, native apps).
   */
  allowedOrigins?: "*" | readonly string[] | ((origin: string) => boolean);
  /** Rate limits; see {@link AuthProxyRateLimits} for the defaults. `false` turns them all off. */
  rateLimits?: AuthProxyRateLimits | false;
  /**
   * The address a request's limits count against. Default: the socket's peer address. Behind a reverse
   * proxy every request comes from the proxy's address: read the client's from the header that proxy sets.
   */
  clientAddress?: (req: IncomingMessage) => string;
  /** A host's captcha or abuse check; see {@link AbuseCheck}. */
  abuseCheck?: AbuseCheck;
  /** The Cloudflare Turnstile site key `wallet_kit_client_params` hands the kits, when the check wants tokens. */
  turnstileSiteKey?: string;
  /** Largest accepted body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Told about unexpected errors (answered with 500). */
  onError?: (error: unknown) => void;
}
