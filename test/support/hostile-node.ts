/**
 * A JSON-RPC node that answers badly on purpose, on a loopback port: an endless answer, a huge one (with or
 * without announcing its length), one that trickles in a byte at a time, or a JSON-RPC error or result as
 * long as asked. It counts the bytes the socket accepted, so a test can tell how much its client read
 * before it hung up. Shared by the chain tests and the adversarial run.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type HostileAnswer =
  /** `result` that never ends (chunked, as fast as the client reads). */
  | { kind: "endless" }
  /** `bytes` of answer, its `content-length` announced or not (chunked). */
  | { kind: "huge"; bytes: number; announced: boolean }
  /** A valid answer, sent one byte every `intervalMs`. */
  | { kind: "trickle"; intervalMs: number }
  /** This JSON-RPC error. */
  | { kind: "error"; error: { code: number; message: string; data?: unknown } }
  /** This exact `result`. */
  | { kind: "result"; result: unknown };

export interface HostileNode {
  readonly url: string;
  /** What the next requests are answered with: one answer for every method, or one per method. */
  answer: HostileAnswer | ((method: string) => HostileAnswer);
  /** Bytes the sockets accepted since the last {@link reset}. */
  readonly written: number;
  /** Requests received since the last {@link reset}, by JSON-RPC method. */
  readonly methods: string[];
  reset(): void;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x31);

/** Writes `total` bytes (endless when undefined) of `"1111…` as the socket takes them, then ends the JSON. */
function pour(response: ServerResponse, total: number | undefined, count: (bytes: number) => void): void {
  let sent = 0;
  const pump = () => {
    while (!response.destroyed && (total === undefined || sent < total)) {
      const chunk = total === undefined ? CHUNK : CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
      sent += chunk.length;
      count(chunk.length);
      if (!response.write(chunk)) return;
    }
    if (!response.destroyed && total !== undefined) response.end('"}');
  };
  response.on("drain", pump);
  pump();
}

export async function startHostileNode(initial: HostileNode["answer"]): Promise<HostileNode> {
  let written = 0;
  let methods: string[] = [];
  const count = (bytes: number) => {
    written += bytes;
  };
  const node: HostileNode & { url: string } = {
    answer: initial,
    url: "",
    get written() {
      return written;
    },
    get methods() {
      return methods;
    },
    reset() {
      written = 0;
      methods = [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const call = JSON.parse(Buffer.concat(parts).toString()) as { method: string; id: number };
      methods.push(call.method);
      const head = `{"jsonrpc":"2.0","id":${call.id},"result":"`;
      const answer = typeof node.answer === "function" ? node.answer(call.method) : node.answer;
      response.on("error", () => undefined);
      switch (answer.kind) {
        case "endless":
          response.writeHead(200, { "content-type": "application/json" });
          response.write(head);
          pour(response, undefined, count);
          return;
        case "huge": {
          const body = answer.bytes - head.length - 2;
          response.writeHead(200, {
            "content-type": "application/json",
            ...(answer.announced ? { "content-length": String(answer.bytes) } : {}),
          });
          response.write(head);
          pour(response, body, count);
          return;
        }
        case "trickle": {
          const text = Buffer.from(`{"jsonrpc":"2.0","id":${call.id},"result":"0x1"}`);
          response.writeHead(200, { "content-type": "application/json", "content-length": String(text.length) });
          let at = 0;
          const timer = setInterval(() => {
            if (response.destroyed || at >= text.length) {
              clearInterval(timer);
              if (!response.destroyed) response.end();
              return;
            }
            count(1);
            response.write(text.subarray(at, ++at));
          }, answer.intervalMs);
          response.on("close", () => clearInterval(timer));
          return;
        }
        case "error": {
          const text = JSON.stringify({ jsonrpc: "2.0", id: call.id, error: answer.error });
          count(text.length);
          response.writeHead(200, { "content-type": "application/json" });
          response.end(text);
          return;
        }
        case "result": {
          const text = JSON.stringify({ jsonrpc: "2.0", id: call.id, result: answer.result });
          count(text.length);
          response.writeHead(200, { "content-type": "application/json" });
          response.end(text);
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return node;
}
