/**
 * A real webhook receiver on 127.0.0.1 for the delivery tests: it records every request (headers and raw
 * body bytes) as it arrives, then answers with whatever the test's `answer` decides, which may be a
 * promise the test resolves later (a receiver that holds the request).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { expect } from "vitest";
import type { CustodyEngine, WebhookDeliveryRecord, WebhookJwks } from "../../src/index.js";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as parsed JSON. */
  json: Record<string, unknown>;
  /** Resolves when the connection closes, answered or not. */
  closed: Promise<void>;
}

/** A status, or a status with response headers. */
export type Reply = number | { status: number; headers: Record<string, string> };

/** How to answer the request at `index` (0 for the first): a reply, or a promise of one. */
export type Answer = (request: ReceivedRequest, index: number) => Reply | Promise<Reply>;

export interface Receiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  received: ReceivedRequest[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answer = () => 200): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const request: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        json: JSON.parse(body.toString("utf8")) as Record<string, unknown>,
        closed: new Promise((resolve) => res.on("close", () => resolve())),
      };
      const index = received.push(request) - 1;
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      void Promise.resolve(answer(request, index)).then((reply) => {
        const { status, headers } = typeof reply === "number" ? { status: reply, headers: {} } : reply;
        if (!res.destroyed) res.writeHead(status, { "content-type": "text/plain", ...headers }).end("ok");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(received.slice()) }));
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A receiver that accepts connections and never answers: every attempt at it runs to its deadline. */
export interface SilentReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections accepted and not yet ended by the sender. */
  readonly open: number;
  close(): Promise<void>;
}

export async function startSilentReceiver(): Promise<SilentReceiver> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let open = 0;
  const server = createTcpServer((socket) => {
    accepted++;
    open++;
    sockets.add(socket);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      open--;
      sockets.delete(socket);
    };
    socket.on("error", () => {});
    // Read (and drop) the request, so the sender's giving up is seen as the connection's end.
    socket.resume();
    socket.on("end", end);
    socket.on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get accepted() {
      return accepted;
    },
    get open() {
      return open;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A promise the test settles later: the answer of a receiver that holds a request. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Waits until the deliveries of `organizationId` satisfy `done` (the dispatcher records each attempt in
 * the store; this reads that state, with no timing assumption beyond the test's own timeout).
 */
export async function deliveriesWhen(
  engine: CustodyEngine,
  organizationId: string,
  done: (deliveries: WebhookDeliveryRecord[]) => boolean,
): Promise<WebhookDeliveryRecord[]> {
  for (;;) {
    const deliveries = await engine.listWebhookDeliveries(organizationId);
    if (done(deliveries)) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Every delivery of `organizationId` settled (no longer pending). */
export function allSettled(deliveries: WebhookDeliveryRecord[]): boolean {
  return deliveries.length > 0 && deliveries.every((delivery) => delivery.status !== "PENDING");
}

/** The header's single value. */
export function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name.toLowerCase()];
  expect(typeof value).toBe("string");
  return value as string;
}

/** Short retry settings, so retry tests run quickly. */
export const FAST_RETRIES = { initialBackoffMs: 5, maxBackoffMs: 20, timeoutMs: 5_000 } as const;

/** The JWKS keys in the form `verifyTurnkeyWebhookSignature` takes them (hex public keys). */
export function verificationKeys(jwks: WebhookJwks): { keyId: string; publicKey: string; algorithm: "ed25519" }[] {
  return jwks.keys.map((key) => ({
    keyId: key.kid,
    publicKey: Buffer.from(key.x, "base64url").toString("hex"),
    algorithm: "ed25519" as const,
  }));
}
