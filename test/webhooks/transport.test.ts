/**
 * One webhook POST: the dial-time destination check (a name resolving to a private address is refused
 * unless private destinations are allowed), and an abort that yields no verdict.
 */
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "../../src/webhooks/transport.js";
import { deferred, type Receiver, startReceiver } from "./receiver.js";

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function post(url: string, allowPrivate: boolean, signal = new AbortController().signal) {
  return postWebhook({
    url: new URL(url),
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode("{}"),
    timeoutMs: 5_000,
    allowPrivate,
    signal,
  });
}

describe("postWebhook", () => {
  it("refuses, at dial time, a name that resolves to a loopback address", async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const url = receiver.url.replace("127.0.0.1", "localhost");
    const outcome = await post(url, false);
    expect(outcome.kind).toBe("refused");
    expect(outcome.kind === "refused" && outcome.error).toMatch(/not a public destination/);
    expect(receiver.received).toHaveLength(0);
    expect(await post(url, true)).toEqual({ kind: "response", status: 200 });
  });

  it("ends with no verdict when aborted by its signal", async () => {
    const never = deferred<number>();
    const receiver = await startReceiver(() => never.promise);
    receivers.push(receiver);
    const controller = new AbortController();
    const outcome = post(receiver.url, true, controller.signal);
    await receiver.waitFor(1);
    controller.abort();
    expect(await outcome).toEqual({ kind: "aborted" });
  });
});
