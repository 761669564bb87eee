/**
 * The proxy's rate limits, per client address and per contact, built from its options.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { CustodyError } from "../common/errors.js";
import type { EndpointCost } from "./endpoints.js";
import { type AuthProxyRateLimits, DEFAULT_RATE_LIMITS, type RateLimit, type RequestContact } from "./options.js";
import { addressKey, checkRateLimit, RateLimiter, rateLimited } from "./rate-limit.js";

type LimitName = Exclude<keyof AuthProxyRateLimits, "maxTracked">;

/** The limiters of one proxy. A limit turned off has none. */
export class RateLimits {
  readonly #limiters: Partial<Record<LimitName, RateLimiter>> = {};

  constructor(configured: AuthProxyRateLimits | false | undefined) {
    if (configured === false) return;
    const maxTracked = configured?.maxTracked ?? DEFAULT_RATE_LIMITS.maxTracked;
    if (!Number.isSafeInteger(maxTracked) || maxTracked < 1) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `rateLimits.maxTracked must be a positive integer, got ${maxTracked}`,
        {
          field: "rateLimits.maxTracked",
        },
      );
    }
    for (const name of [
      "requestsPerAddress",
      "signupsPerAddress",
      "otpSendsPerAddress",
      "otpSendsPerContact",
    ] as const) {
      const limit: RateLimit | false = configured?.[name] ?? DEFAULT_RATE_LIMITS[name];
      if (limit !== false)
        this.#limiters[name] = new RateLimiter(checkRateLimit(limit, `rateLimits.${name}`), maxTracked);
    }
  }

  /** Counts any request from `address`; throws RESOURCE_EXHAUSTED past the limit. */
  request(address: string): void {
    this.#take("requestsPerAddress", addressKey(address), "requests from this address");
  }

  /** Counts what an endpoint costs (a sign-up, a code sent) against the address and the contact. */
  cost(cost: EndpointCost | undefined, address: string, contact: RequestContact | undefined): void {
    if (cost === "signup") this.#take("signupsPerAddress", addressKey(address), "sign-ups from this address");
    if (cost === "otpSend") {
      this.#take("otpSendsPerAddress", addressKey(address), "codes sent from this address");
      if (contact !== undefined) this.#take("otpSendsPerContact", contactKey(contact), "codes sent to this contact");
    }
  }

  #take(name: LimitName, key: string, what: string): void {
    const wait = this.#limiters[name]?.take(key) ?? 0;
    if (wait > 0) throw rateLimited(what, wait);
  }
}

/**
 * A contact as a fixed-size key: contacts compare as the engine compares them (email case-insensitively),
 * and hashing bounds a key's memory whatever the length of the value a client sends.
 */
function contactKey(contact: RequestContact): string {
  const value = contact.otpType === "OTP_TYPE_EMAIL" ? contact.value.toLowerCase() : contact.value;
  return createHash("sha256").update(`${contact.otpType}\n${value}`).digest("base64url");
}
