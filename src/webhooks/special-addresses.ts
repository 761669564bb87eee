/**
 * Which IP addresses are a public destination for a webhook. An IPv4 address is checked against the IANA
 * special-purpose ranges. An IPv6 address is checked against the IPv6 ones, and so is every IPv4 address
 * it carries by a standard translation or tunnelling scheme: a mapped `::ffff:127.0.0.1`, a NAT64
 * `64:ff9b::7f00:1` or a 6to4 `2002:7f00:1::1` can reach the IPv4 address inside it, so each is exactly as
 * public as that address. Every spelling is read the same way: addresses are first put in the canonical
 * form of the WHATWG URL parser (the one that reads webhook URLs), whatever their case, zero padding,
 * compression or dotted tail.
 *
 * @module
 */
import { BlockList, isIP } from "node:net";

/** IPv4 addresses that are not a public destination (IANA IPv4 special-purpose address registry). */
const SPECIAL_IPV4 = (() => {
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
  return list;
})();

/** IPv6 ranges that are not a public destination, whatever they embed (IANA IPv6 special-purpose registry). */
const SPECIAL_IPV6 = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ["::", 128], // unspecified
    ["::1", 128], // loopback
    ["64:ff9b:1::", 48], // local-use NAT64: translated by a site's own gateway, into its own networks
    ["100::", 64], // discard-only
    ["2001:db8::", 32], // documentation
    ["3fff::", 20], // documentation
    ["fc00::", 7], // unique local
    ["fe80::", 10], // link-local
    ["fec0::", 10], // site-local (deprecated, still routed inside some sites)
    ["ff00::", 8], // multicast
  ] as const) {
    list.addSubnet(network, prefix, "ipv6");
  }
  return list;
})();

/** The eight 16-bit groups of an IPv6 address in any spelling, or undefined when it is not one (a zone id). */
function ipv6Groups(address: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  // The canonical form is lowercase hex groups, with at most one `::` and never a dotted tail.
  const [head = "", tail] = canonical.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv4(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

const allZero = (groups: number[]) => groups.every((group) => group === 0);

/**
 * The IPv4 addresses an IPv6 address carries: IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`,
 * IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32` (its server, and its
 * client as the inverted last 32 bits) and ISATAP (interface id `0:5efe` or `200:5efe`, under any prefix).
 */
function embeddedIpv4(groups: readonly number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const last = ipv4(g6, g7);
  const found: string[] = [];
  if (allZero([g0, g1, g2, g3, g4]) && (g5 === 0xffff || g5 === 0)) found.push(last);
  if (allZero([g0, g1, g2, g3]) && g4 === 0xffff && g5 === 0) found.push(last);
  if (g0 === 0x64 && g1 === 0xff9b && allZero([g2, g3, g4, g5])) found.push(last);
  if (g0 === 0x2002) found.push(ipv4(g1, g2));
  if (g0 === 0x2001 && g1 === 0) found.push(ipv4(g2, g3), ipv4(g6 ^ 0xffff, g7 ^ 0xffff));
  if ((g4 & 0xfcff) === 0 && g5 === 0x5efe) found.push(last);
  return found;
}

/**
 * What makes `address` (IPv4 or IPv6 text) other than a public unicast destination: the address itself, or
 * the refused IPv4 address it embeds. Undefined for a public address. Text that is no IP address, or an
 * IPv6 address with a zone id, is refused as itself.
 */
export function nonPublicPart(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return SPECIAL_IPV4.check(address, "ipv4") ? address : undefined;
  const groups = family === 6 ? ipv6Groups(address) : undefined;
  if (groups === undefined || groups.length !== 8) return address;
  const canonical = groups.map((group) => group.toString(16)).join(":");
  if (SPECIAL_IPV6.check(canonical, "ipv6")) return address;
  return embeddedIpv4(groups).find((embedded) => SPECIAL_IPV4.check(embedded, "ipv4"));
}

/**
 * Whether an IP address is this machine: `127.0.0.0/8`, `::1`, or a loopback address mapped into IPv6
 * (`::ffff:127.0.0.1`), which a dual-stack socket connects to over IPv4. Other embeddings of a loopback
 * address lead off the machine (to a NAT64 gateway, a 6to4 relay), so they are not loopback.
 */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return address.startsWith("127.");
  const groups = family === 6 ? ipv6Groups(address) : undefined;
  if (groups === undefined || groups.length !== 8) return false;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  if (allZero([g0, g1, g2, g3, g4, g5, g6] as number[]) && g7 === 1) return true;
  return allZero([g0, g1, g2, g3, g4] as number[]) && g5 === 0xffff && (g6 as number) >> 8 === 127;
}
