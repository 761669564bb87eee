/**
 * `custodian serve`'s proxy flags: `--proxy-origin` and `--proxy-limit`, as the auth proxy's options, and
 * `--trusted-proxy`, as the HTTP adapter's `trustedProxies`.
 *
 * @module
 */
import type { AuthProxyOptions, AuthProxyRateLimits } from "../auth-proxy/options.js";
import { isCustodyError } from "../common/errors.js";
import { trustedProxyList } from "../http/client-address.js";

const LIMIT_NAMES = ["requestsPerAddress", "signupsPerAddress", "otpSendsPerAddress", "otpSendsPerContact"] as const;
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Loopback hosts a developer's app runs on, on any port. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `origin` is a page served from this machine (`http://localhost:5173`, `http://127.0.0.1:3000`, ...). */
export function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * `--proxy-origin` values as `allowedOrigins`: `*` for any, else exact origins. Without one, the dev server
 * takes pages on this machine (any loopback origin) besides its own.
 */
export function allowedOriginsOf(values: readonly string[]): AuthProxyOptions["allowedOrigins"] {
  if (values.length === 0) return isLoopbackOrigin;
  if (values.includes("*")) {
    if (values.length > 1) throw new Error("--proxy-origin '*' allows every origin: give it alone");
    return "*";
  }
  for (const value of values) {
    if (!URL.canParse(value) || new URL(value).origin !== value) {
      throw new Error(`--proxy-origin must be an origin such as https://app.example (no path), got ${value}`);
    }
  }
  return values;
}

/**
 * `--proxy-limit NAME=COUNT/PERIOD` (`signupsPerAddress=100/1h`), `NAME=off`, or `off` for none, as
 * `rateLimits`; limits not named keep their defaults.
 */
export function rateLimitsOf(values: readonly string[]): AuthProxyRateLimits | false {
  if (values.includes("off")) {
    if (values.length > 1) throw new Error("--proxy-limit off turns every limit off: give it alone");
    return false;
  }
  const limits: AuthProxyRateLimits = {};
  for (const value of values) {
    const match = /^([A-Za-z]+)=(?:off|([1-9][0-9]{0,8})\/([1-9][0-9]{0,8})?([smhd]))$/.exec(value);
    const name = match?.[1] as (typeof LIMIT_NAMES)[number] | undefined;
    if (!match || name === undefined || !LIMIT_NAMES.includes(name)) {
      throw new Error(
        `--proxy-limit must be NAME=COUNT/PERIOD (e.g. signupsPerAddress=100/1h) or NAME=off, NAME one of ${LIMIT_NAMES.join(", ")}; got ${value}`,
      );
    }
    if (limits[name] !== undefined) throw new Error(`--proxy-limit names ${name} twice`);
    limits[name] =
      match[2] === undefined
        ? false
        : {
            requests: Number(match[2]),
            perSeconds: Number(match[3] ?? "1") * (UNIT_SECONDS[match[4] as string] as number),
          };
  }
  return limits;
}

/** `--trusted-proxy` values as the adapter's `trustedProxies`, each checked (an address or a CIDR block). */
export function trustedProxiesOf(values: readonly string[]): readonly string[] | undefined {
  if (values.length === 0) return undefined;
  for (const value of values) {
    try {
      trustedProxyList([value]);
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      throw new Error(`--trusted-proxy must be an IP address or CIDR block, got ${JSON.stringify(value)}`);
    }
  }
  return values;
}
