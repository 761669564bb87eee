/**
 * One webhook POST over `node:http`/`node:https`: no redirects followed (node's client never follows them),
 * a deadline for the whole exchange, and a dial-time check that the name resolves only to public addresses
 * (unless insecure destinations are allowed), so a URL accepted when it was set cannot later be pointed at
 * a private address through DNS.
 *
 * @module
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { nonPublicPart } from "./special-addresses.js";

/** One POST to make. */
export interface WebhookPost {
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array;
  timeoutMs: number;
  /** Resolves private and link-local addresses too (the `allowInsecureWebhooks` option). */
  allowPrivate: boolean;
  /** Aborts the attempt without a verdict (the engine is closing). */
  signal: AbortSignal;
}

/** How a POST ended. */
export type WebhookPostOutcome =
  | { kind: "response"; status: number }
  /** No HTTP status: a connection or TLS failure, or the deadline passed. Retryable. */
  | { kind: "network"; error: string }
  /** The destination is not allowed. Not retryable. */
  | { kind: "refused"; error: string }
  /** `signal` aborted it: no verdict. */
  | { kind: "aborted" };

class DestinationRefused extends Error {}

/** `dns.lookup`, refusing names that resolve to any non-public address. */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOptions,
  callback: Parameters<LookupFunction>[2],
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    if (addresses.length === 0) {
      return callback(new DestinationRefused(`${hostname} resolves to nothing`), "", 0);
    }
    // One refused address refuses the name: the connection may go to any of them.
    for (const { address } of addresses) {
      const part = nonPublicPart(address);
      if (part === undefined) continue;
      const carried = part === address ? "" : ` (it carries ${part})`;
      const refused = new DestinationRefused(
        `${hostname} resolves to ${address}${carried}, which is not a public destination`,
      );
      return callback(refused, "", 0);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

/** Sends one webhook POST. Never throws: every ending is an outcome. */
export function postWebhook(post: WebhookPost): Promise<WebhookPostOutcome> {
  const send = post.url.protocol === "https:" ? httpsRequest : httpRequest;
  // One controller per attempt, aborted by the deadline or by the caller; both are let go of when the
  // exchange ends, so a long-lived caller signal collects no listeners.
  const controller = new AbortController();
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, post.timeoutMs);
  const abort = () => controller.abort();
  post.signal.addEventListener("abort", abort, { once: true });
  const release = () => {
    clearTimeout(deadline);
    post.signal.removeEventListener("abort", abort);
  };
  if (post.signal.aborted) controller.abort();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: WebhookPostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = send(post.url, {
      method: "POST",
      headers: { ...post.headers, "content-length": String(post.body.length) },
      // A fresh connection per attempt: nothing lingers after close(), and each dial is checked.
      agent: false,
      signal: controller.signal,
      ...(post.allowPrivate ? {} : { lookup: publicOnlyLookup as LookupFunction }),
    });
    request.on("close", release);
    request.on("response", (response) => {
      settle({ kind: "response", status: response.statusCode ?? 0 });
      // The receiver's body is not used; drain it (under the same deadline) so the connection can end.
      response.resume();
      response.on("error", () => {});
    });
    request.on("error", (error) => {
      if (post.signal.aborted) return settle({ kind: "aborted" });
      if (timedOut) return settle({ kind: "network", error: `no answer within ${post.timeoutMs} ms` });
      if (error instanceof DestinationRefused) return settle({ kind: "refused", error: error.message });
      settle({ kind: "network", error: error.message || (error as NodeJS.ErrnoException).code || "network error" });
    });
    request.end(post.body);
  });
}
