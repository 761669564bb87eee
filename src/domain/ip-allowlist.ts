/**
 * IP allow-lists: the CIDR rules `set_ip_allowlist` accepts (normalized as the hosted service prints them) and
 * the check the HTTP adapter asks the engine for, with the client address it saw.
 *
 * Which list speaks for a request (features/ip-allowlisting/overview.mdx): only an organization without a
 * parent has lists, and only while its organization-level list is enabled. Then the list of the API key that
 * stamped the request, if it has one, is the only one checked; otherwise the organization's list is. A list
 * with no rules allows no address. An address the adapter could not tell (`null`) is an evaluation error,
 * settled by the list's `onEvaluationError` (DENY unless set to ALLOW).
 *
 * Matching uses node's `BlockList`; the normalizing parser below only prints a CIDR the node parser accepted.
 *
 * @module
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";
import { CustodyError } from "../common/errors.js";
import { type DataReader, ipAllowlistRecordId } from "../model/data.js";
import type { IpAllowlistRecord } from "../model/records.js";

/** At most this many CIDRs of each family in one list. */
export const MAX_RULES_PER_FAMILY = 10;
/** The widest prefix a rule may name, per family (`/20` for IPv4, `/48` for IPv6). */
export const WIDEST_PREFIX = { 4: 20, 6: 48 } as const;

/** A CIDR as stored: the network address with its host bits cleared, in canonical spelling. */
export interface NormalizedCidr {
  cidr: string;
  family: 4 | 6;
}

/**
 * Why a CIDR is refused, or the normalized CIDR. Allow-list rules are held to {@link WIDEST_PREFIX};
 * `anyWidth` lifts that (a host's own trusted proxies).
 */
export function normalizeCidr(
  text: string,
  options: { anyWidth?: boolean } = {},
): NormalizedCidr | { problem: string } {
  const slash = text.indexOf("/");
  if (slash < 0) return { problem: "must be a CIDR block with a prefix length, such as 192.168.1.0/24" };
  const address = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const family = isIPv4(address) ? 4 : isIPv6(address) && !address.includes("%") ? 6 : 0;
  if (family === 0) return { problem: "must start with an IPv4 or IPv6 address" };
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return { problem: "must end with a decimal prefix length" };
  const prefix = Number(prefixText);
  const bits = family === 4 ? 32 : 128;
  if (prefix > bits) return { problem: `must have a prefix length of at most ${bits}` };
  if (options.anyWidth !== true && prefix < WIDEST_PREFIX[family]) {
    return { problem: `must have a prefix length of at least /${WIDEST_PREFIX[family]} for IPv${family}` };
  }
  const words = family === 4 ? ipv4Words(address) : ipv6Words(address);
  masked(words, prefix, family === 4 ? 8 : 16);
  const network = family === 4 ? words.join(".") : printIpv6(words);
  return { cidr: `${network}/${prefix}`, family };
}

/** The four octets of a dotted IPv4 address node accepted. */
function ipv4Words(address: string): number[] {
  return address.split(".").map(Number);
}

/** The eight 16-bit groups of an IPv6 address node accepted (a dotted IPv4 tail counts as two). */
function ipv6Words(address: string): number[] {
  const [head = "", tail] = address.toLowerCase().split("::");
  const groups = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = ipv4Words(group);
          return [(a << 8) | b, (c << 8) | d];
        });
  const headGroups = groups(head);
  if (tail === undefined) return headGroups;
  const tailGroups = groups(tail);
  return [...headGroups, ...Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

/** Clears the bits after `prefix` in `words` of `width` bits each. */
function masked(words: number[], prefix: number, width: number): void {
  for (let index = 0; index < words.length; index++) {
    const kept = Math.min(Math.max(prefix - index * width, 0), width);
    const mask = kept === 0 ? 0 : ((2 ** width - 1) >>> (width - kept)) << (width - kept);
    words[index] = (words[index] as number) & mask;
  }
}

/** RFC 5952 spelling: lowercase, no leading zeros, the first longest run of two or more zero groups as `::`. */
function printIpv6(words: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < words.length; ) {
    if (words[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < words.length && words[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = words.map((word) => word.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** A client address as matched: IPv4-mapped IPv6 (`::ffff:192.0.2.1`, how a dual-stack socket reports IPv4) as IPv4. */
export function plainAddress(raw: string): { address: string; family: "ipv4" | "ipv6" } | undefined {
  const address = raw.trim();
  if (isIPv4(address)) return { address, family: "ipv4" };
  if (!isIPv6(address) || address.includes("%")) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return { address: mapped, family: "ipv4" };
  return { address, family: "ipv6" };
}

/** Whether `address` falls in one of the list's CIDRs. */
export function inList(cidrs: readonly string[], address: { address: string; family: "ipv4" | "ipv6" }): boolean {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = "", prefix = "0"] = cidr.split("/");
    list.addSubnet(network, Number(prefix), isIPv4(network) ? "ipv4" : "ipv6");
  }
  return list.check(address.address, address.family);
}

/** The list that speaks for a request by `organizationId`'s API key `publicKey` (null for other credentials). */
export async function listInEffect(
  data: DataReader,
  organizationId: string,
  publicKey: string | null,
): Promise<IpAllowlistRecord | undefined> {
  const organizationList = await data.get("ipAllowlists", ipAllowlistRecordId(organizationId, null));
  if (organizationList === undefined || organizationList.enabled !== true) return undefined;
  if (publicKey === null) return organizationList;
  return (await data.get("ipAllowlists", ipAllowlistRecordId(organizationId, publicKey))) ?? organizationList;
}

/**
 * Refuses a request from `clientAddress` (null: the adapter could not tell it) when `list`, the one in effect for
 * its credential ({@link listInEffect}), does not allow it: PERMISSION_DENIED, naming the address and which list
 * refused it. Called only once the credential's stamp is verified, so the refusal tells no stranger of a list.
 */
export function checkClientAddress(list: IpAllowlistRecord | undefined, clientAddress: string | null): void {
  if (list === undefined) return;
  const which = list.publicKey === null ? "the organization's IP allowlist" : "the API key's IP allowlist";
  const address = clientAddress === null ? undefined : plainAddress(clientAddress);
  if (address === undefined) {
    if (list.onEvaluationError === "ALLOW") return;
    throw new CustodyError(
      "PERMISSION_DENIED",
      `the request's source IP address could not be determined, and ${which} denies such requests`,
      { reason: "IP_NOT_ALLOWED" },
    );
  }
  if (
    inList(
      list.rules.map((rule) => rule.cidr),
      address,
    )
  )
    return;
  throw new CustodyError("PERMISSION_DENIED", `requests from ${address.address} are not allowed by ${which}`, {
    reason: "IP_NOT_ALLOWED",
    clientAddress: address.address,
  });
}
