/**
 * The load generator of `http.bench.ts`: HTTP/1.1 over kept-alive loopback sockets, each request's bytes encoded
 * before any is timed, each answer framed by its `content-length` and checked for status 200. It does what wrk
 * does, in the few lines this benchmark needs.
 *
 * Why not `node:http`: its client spent 110–180 µs of CPU per request here (request and response objects,
 * header parsing, streams), about half of what the server spent answering. The load generator shares the
 * machine's two cores with the server, so that cost was taken from the server being measured. These sockets
 * cost about 50 µs per request.
 *
 * @module
 */
import { connect, type Socket } from "node:net";

/** One request, as the client sends it. */
export interface PostRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The bytes of `request` on the wire. */
export function encodePost({ path, headers, body }: PostRequest): Buffer {
  const lines = [`POST ${path} HTTP/1.1`, "host: 127.0.0.1", `content-length: ${Buffer.byteLength(body)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

const HEAD_END = Buffer.from("\r\n\r\n");

/** One kept-alive connection with at most one request in flight. */
class Connection {
  private received: Buffer = Buffer.alloc(0);
  private pending: { resolve: () => void; reject: (error: Error) => void } | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly release: (connection: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (error) => this.fail(error));
    socket.on("close", () => this.fail(new Error("the server closed the connection")));
  }

  send(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  close(): void {
    this.socket.removeAllListeners("close");
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const headEnd = this.received.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.received.toString("latin1", 0, headEnd);
    const length = /\r\ncontent-length: *([0-9]+)/i.exec(head);
    if (!length) {
      this.fail(new Error(`an answer without content-length: ${head}`));
      return;
    }
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (this.received.length < end) return;
    const body = this.received.toString("utf8", headEnd + HEAD_END.length, end);
    this.received = this.received.subarray(end);
    const pending = this.pending;
    this.pending = undefined;
    this.release(this);
    if (head.startsWith("HTTP/1.1 200 ")) pending?.resolve();
    else pending?.reject(new Error(`${head.split("\r\n")[0]}: ${body}`));
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}

/** `connections` kept-alive sockets to `port` on 127.0.0.1; each `post` takes an idle one. */
export class LoopbackClient {
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];

  private constructor() {}

  static async open(port: number, connections: number): Promise<LoopbackClient> {
    const client = new LoopbackClient();
    await Promise.all(
      Array.from(
        { length: connections },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(port, "127.0.0.1", () => resolve());
            socket.once("error", reject);
            const connection = new Connection(socket, (released) => client.idle.push(released));
            client.idle.push(connection);
            client.all.push(connection);
          }),
      ),
    );
    return client;
  }

  /** Sends `bytes` (from {@link encodePost}) and resolves on a 200 answer; rejects on any other. */
  post(bytes: Buffer): Promise<void> {
    const connection = this.idle.pop();
    if (!connection) return Promise.reject(new Error("more requests in flight than connections"));
    return connection.send(bytes);
  }

  close(): void {
    for (const connection of this.all) connection.close();
  }
}
