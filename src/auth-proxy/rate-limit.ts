/**
 * Token-bucket rate limits keyed by client address or contact, in bounded memory.
 *
 * @module
 */
import { isIPv4, isIPv6 } from "node:net";
import { CustodyError } from "../common/errors.js";
import type { RateLimit } from "./options.js";

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * One limit over many keys. Buckets live in a map kept in least-recently-seen order; past `maxTracked` keys
 * the oldest is forgotten (it starts afresh if it comes back), so a flood from many addresses costs a fixed
 * amount of memory.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;

  constructor(
    readonly limit: RateLimit,
    readonly maxTracked: number,
    readonly clock: () => number = Date.now,
  ) {
    this.#perMs = limit.requests / (limit.perSeconds * 1000);
  }

  /** Takes one request from `key`'s bucket: 0 when allowed, else the whole seconds until one is. */
  take(key: string): number {
    const now = this.clock();
    const known = this.#buckets.get(key);
    const bucket: Bucket = known ?? { tokens: this.limit.requests, updatedMs: now };
    bucket.tokens = Math.min(this.limit.requests, bucket.tokens + Math.max(0, now - bucket.updatedMs) * this.#perMs);
    bucket.updatedMs = now;
    if (known) this.#buckets.delete(key);
    else if (this.#buckets.size >= this.maxTracked) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#perMs / 1000));
  }
}

/** Checks a configured limit, naming the option at fault. */
export function checkRateLimit(limit: RateLimit, option: string): RateLimit {
  const { requests, perSeconds } = limit;
  if (!Number.isSafeInteger(requests) || requests < 1 || !Number.isFinite(perSeconds) || perSeconds <= 0) {
    throw new CustodyError(
      "INVALID_ARGUMENT",
      `${option} must allow at least one request over a positive number of seconds`,
      { field: option },
    );
  }
  return limit;
}

/**
 * The key a client address is counted under: IPv4 addresses (mapped ones too) as they are, IPv6 addresses by
 * their /64 network, the smallest block a single subscriber is handed.
 */
export function addressKey(address: string): string {
  const plain = address.split("%")[0] as string;
  if (plain.toLowerCase().startsWith("::ffff:") && isIPv4(plain.slice(7))) return plain.slice(7);
  if (!isIPv6(plain)) return plain;
  const [head = "", tail] = plain.toLowerCase().split("::");
  const headGroups = head === "" ? [] : head.split(":");
  // A dotted IPv4 tail (`64:ff9b::192.0.2.1`) stands for two groups; only the first four matter here.
  const tailGroups = (tail === undefined || tail === "" ? [] : tail.split(":")).flatMap((group) =>
    group.includes(".") ? ["0", "0"] : [group],
  );
  const groups = [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

/** A refusal for a request over `limit`, with the seconds the client should wait (`Retry-After`). */
export function rateLimited(what: string, retryAfterSeconds: number): CustodyError {
  return new CustodyError("RESOURCE_EXHAUSTED", `too many ${what}: try again in ${retryAfterSeconds} s`, {
    reason: "RATE_LIMITED",
    retryAfterSeconds,
  });
}
