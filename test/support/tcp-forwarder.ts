/**
 * A TCP forwarder on a loopback port in front of another server (PostgreSQL): stopping it cuts every
 * connection through it and refuses new ones, as a database outage does, without touching the server behind
 * it, which other tests share; starting it again on the same port ends the outage.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpForwarder {
  readonly port: number;
  /** Cuts every connection and stops listening: new connections are refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startTcpForwarder(target: { host: string; port: number }): Promise<TcpForwarder> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  let server: Server;
  let port = 0;
  const listen = async () => {
    const next = createServer((client) => {
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        next.off("error", reject);
        resolve();
      });
    });
    server = next;
  };
  // A port below the ephemeral range (32768 and up on Linux): once the forwarder stops, a port from that range
  // may be taken by any outgoing connection on the machine, and the forwarder could not start on it again.
  for (let attempt = 0; ; attempt++) {
    port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      await listen();
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
  return {
    get port() {
      return port;
    },
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    start: listen,
  };
}

/** `url` (a PostgreSQL connection string) with its host and port replaced by the forwarder's. */
export function throughForwarder(url: string, forwarder: TcpForwarder): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(forwarder.port);
  return parsed.toString();
}
