/**
 * The client address the HTTP adapter holds a request to (IP allow-lists): the peer the transport saw, or,
 * when that peer is one of the host's trusted proxies, the address that proxy put in `X-Forwarded-For`.
 *
 * @module
 */
import { BlockList } from "node:net";
import { CustodyError } from "../common/errors.js";
import { normalizeCidr, plainAddress } from "../domain/ip-allowlist.js";

/** The trusted proxies of one options object, parsed once. */
const parsedProxies = new WeakMap<readonly string[], BlockList>();

/**
 * Parses `trustedProxies` (addresses, or CIDR blocks of any width): INVALID_ARGUMENT naming the entry at
 * fault. Hosts call it through the handler constructors, so a typo stops the server at start-up.
 */
export function trustedProxyList(proxies: readonly string[]): BlockList {
  const cached = parsedProxies.get(proxies);
  if (cached !== undefined) return cached;
  const list = new BlockList();
  for (const [index, entry] of proxies.entries()) {
    const field = `trustedProxies[${index}]`;
    const address = plainAddress(entry);
    if (address !== undefined) {
      list.addAddress(address.address, address.family);
      continue;
    }
    const [network = "", prefix = ""] = entry.split("/");
    const family = plainAddress(network)?.family;
    const normalized = family === undefined ? undefined : normalizeCidr(`${network}/${prefix}`, { anyWidth: true });
    if (family === undefined || normalized === undefined || "problem" in normalized) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `${field}: ${JSON.stringify(entry)} is not an IP address or CIDR block`,
        {
          field,
        },
      );
    }
    list.addSubnet(network, Number(prefix), family);
  }
  parsedProxies.set(proxies, list);
  return list;
}

/** Whether `address` is one of the trusted proxies. */
function trusted(proxies: BlockList, address: string): boolean {
  const plain = plainAddress(address);
  return plain !== undefined && proxies.check(plain.address, plain.family);
}

/**
 * The address a request is held to: `peer` (null when the transport could not tell it), or, while the address
 * in hand is a trusted proxy, the entry that proxy appended to `X-Forwarded-For` (read from the right, so a
 * client cannot choose what a proxy it passed through believes). An entry that is no IP address gives null: the
 * allow-list's `onEvaluationError` then decides.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: readonly string[] | undefined,
  proxies: readonly string[] | undefined,
): string | null {
  if (peer === undefined || peer === "") return null;
  if (proxies === undefined || proxies.length === 0 || forwardedFor === undefined) return peer;
  const list = trustedProxyList(proxies);
  const hops = forwardedFor.flatMap((value) => value.split(","));
  let address = peer;
  while (trusted(list, address)) {
    const hop = hops.pop();
    if (hop === undefined) return address;
    const plain = plainAddress(hop.trim());
    if (plain === undefined) return null;
    address = plain.address;
  }
  return address;
}
