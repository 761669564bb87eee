/**
 * A real loopback port for a test organization, for the official clients that fetch through their own copy of
 * `fetch` (`@turnkey/http`'s `TurnkeyClient` uses `cross-fetch`) and so never see an in-process one.
 *
 * @module
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CustodyEngine } from "../engine/engine.js";
import { createHttpHandler } from "../http/node.js";

/** A listening server: where it answers, and how to stop it. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** Stops listening and drops the clients' kept-alive connections, so a suite exits promptly. */
  close(): Promise<void>;
}

/** Serves `engine`'s Activity API on 127.0.0.1 at a port the system picks. */
export async function listenOnLoopback(engine: CustodyEngine): Promise<LoopbackServer> {
  const server = createServer(createHttpHandler(engine));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
