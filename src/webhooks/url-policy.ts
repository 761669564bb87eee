/**
 * Where webhooks may go. Turnkey's rules (docs `features/webhooks/overview.mdx`, "Endpoint validation and
 * reachability"): `https` only, a valid host, no user info, and a public destination: no localhost, private
 * ranges, link-local (cloud metadata) or other special addresses, checked when a URL is set and again when
 * the connection is dialled, so a name that later resolves somewhere private is refused too.
 *
 * `allowInsecure` (the `allowInsecureWebhooks` engine option) is for tests and local development: it lets
 * `http` reach loopback receivers (`127.0.0.0/8`, `::1`, `localhost`) and lets any URL reach private and
 * link-local addresses.
 *
 * @module
 */
import { BlockList, isIP } from "node:net";
import { CustodyError } from "../common/errors.js";

/** How strict the URL rules are. */
export interface WebhookUrlRules {
  readonly allowInsecure: boolean;
}

/** Longest accepted URL (browsers and most servers stop around here). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Addresses that are not a public destination (IANA special-purpose registries). */
const SPECIAL_ADDRESSES = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ["0.0.0.0", 8], // "this network"
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local, including cloud metadata at 169.254.169.254
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // IETF protocol assignments
    ["192.0.2.0", 24], // documentation
    ["192.168.0.0", 16], // private
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24], // documentation
    ["203.0.113.0", 24], // documentation
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, and the broadcast address
  ] as const) {
    list.addSubnet(network, prefix, "ipv4");
  }
  for (const [network, prefix] of [
    ["::", 128], // unspecified
    ["::1", 128], // loopback
    ["64:ff9b:1::", 48], // local-use NAT64
    ["100::", 64], // discard-only
    ["2001:db8::", 32], // documentation
    ["fc00::", 7], // unique local
    ["fe80::", 10], // link-local
    ["ff00::", 8], // multicast
  ] as const) {
    list.addSubnet(network, prefix, "ipv6");
  }
  return list;
})();

const LOOPBACK = (() => {
  const list = new BlockList();
  list.addSubnet("127.0.0.0", 8, "ipv4");
  list.addAddress("::1", "ipv6");
  return list;
})();

/** `::ffff:10.0.0.1` (and its hex spelling) is the IPv4 address it maps, for the range checks. */
function unmapped(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  if (family === "ipv4") return { address, family };
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted?.[1]) return { address: dotted[1], family: "ipv4" };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: "ipv4" };
  }
  return { address, family };
}

/** Whether an IP address (v4 or v6 text) is anything but a public unicast destination. */
export function isSpecialAddress(address: string): boolean {
  const { address: plain, family } = unmapped(address);
  return SPECIAL_ADDRESSES.check(plain, family);
}

/** Whether a URL host (an IPv6 literal without brackets, an IPv4 literal or a name) is the local machine. */
function isLoopbackHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 0) return false;
  const { address, family } = unmapped(host);
  return LOOPBACK.check(address, family);
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
  if (!rules.allowInsecure && (loopback || (isIP(host) !== 0 && isSpecialAddress(host)))) {
    throw refuse(
      `${host} is not a public destination (localhost, private, link-local and other special addresses are refused)`,
      field,
      "WEBHOOK_URL_NOT_PUBLIC",
    );
  }
  return url;
}
