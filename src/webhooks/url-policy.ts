/**
 * Where webhooks may go. Turnkey's rules (docs `features/webhooks/overview.mdx`, "Endpoint validation and
 * reachability"): `https` only, a valid host, no user info, and a public destination: no localhost, private
 * ranges, link-local (cloud metadata) or other special addresses, nor an IPv6 address that carries one of
 * them (see `special-addresses.ts`), checked when a URL is set, before each attempt, and when the
 * connection is dialled, so a name that later resolves somewhere private is refused too.
 *
 * `allowInsecure` (the `allowInsecureWebhooks` engine option) is for tests and local development: it lets
 * `http` reach loopback receivers (`127.0.0.0/8`, `::1`, `localhost`) and lets any URL reach private and
 * link-local addresses.
 *
 * @module
 */
import { isIP } from "node:net";
import { CustodyError } from "../common/errors.js";
import { isLoopbackAddress, nonPublicPart } from "./special-addresses.js";

/** How strict the URL rules are. */
export interface WebhookUrlRules {
  readonly allowInsecure: boolean;
}

/** Longest accepted URL (browsers and most servers stop around here). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Whether a URL host (an IPv6 literal without brackets, an IPv4 literal or a name) is the local machine. */
function isLoopbackHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && isLoopbackAddress(host);
}

function refuse(message: string, field: string, reason: string): CustodyError {
  return new CustodyError("INVALID_ARGUMENT", message, { field, reason });
}

/**
 * Parses a webhook URL and checks it against the rules. Refusals are `INVALID_ARGUMENT` naming `field`,
 * with reasons `WEBHOOK_URL_INVALID`, `WEBHOOK_URL_INSECURE`, `WEBHOOK_URL_USERINFO` and
 * `WEBHOOK_URL_NOT_PUBLIC`.
 */
export function checkWebhookUrl(value: string, rules: WebhookUrlRules, field: string): URL {
  if (value.length > MAX_WEBHOOK_URL_LENGTH) {
    throw refuse(`the URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`, field, "WEBHOOK_URL_INVALID");
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse("not a valid absolute URL", field, "WEBHOOK_URL_INVALID");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw refuse(`webhook URLs must use https, not ${url.protocol.slice(0, -1)}`, field, "WEBHOOK_URL_INSECURE");
  }
  if (url.username !== "" || url.password !== "") {
    throw refuse("webhook URLs must not carry user info (user:password@)", field, "WEBHOOK_URL_USERINFO");
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw refuse("the URL has no host", field, "WEBHOOK_URL_INVALID");
  const loopback = isLoopbackHost(host);
  if (url.protocol === "http:" && !(rules.allowInsecure && loopback)) {
    throw refuse(
      rules.allowInsecure
        ? "http is allowed only for loopback receivers (127.0.0.1, ::1, localhost); use https"
        : "webhook URLs must use https (the allowInsecureWebhooks option allows http to loopback receivers)",
      field,
      "WEBHOOK_URL_INSECURE",
    );
  }
  if (rules.allowInsecure) return url;
  const refused = isIP(host) === 0 ? undefined : nonPublicPart(host);
  if (loopback || refused !== undefined) {
    const embedded = refused !== undefined && refused !== host ? `, as it carries the IPv4 address ${refused}` : "";
    throw refuse(
      `${host} is not a public destination${embedded} (localhost, private, link-local and other special addresses are refused)`,
      field,
      "WEBHOOK_URL_NOT_PUBLIC",
    );
  }
  return url;
}
