/**
 * The node HTTP adapter and the dev server under hostile clients: an oversized or endless body is cut off
 * at the limit (413, connection closed), aborted uploads are counted rather than logged as errors, and
 * slow clients on many sockets are timed out without stopping anyone else being served.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.js";
import { engineWithOrganization } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";

const LIMIT = 64 * 1024;
/** What one endless upload may push before giving up: far past anything a server that cuts off accepts. */
const UPLOAD_CAP = 64 * 1024 * 1024;

interface Upload {
  /** Bytes the client managed to hand to its socket before the server closed it (or the cap). */
  written: number;
  /** What the server sent back. */
  response: string;
}

/** An endless chunked upload on a raw socket, respecting back-pressure, until the server closes it. */
function endlessUpload(baseUrl: string): Promise<Upload> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let written = 0;
    let response = "";
    let done = false;
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x61), Buffer.from("\r\n")]);
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ written, response });
    };
    const pump = () => {
      while (!done && written < UPLOAD_CAP) {
        written += chunk.length;
        if (!socket.write(chunk)) return;
      }
      if (written >= UPLOAD_CAP) finish();
    };
    socket.on("data", (data) => {
      response += data.toString("latin1");
    });
    socket.on("drain", pump);
    socket.on("close", finish);
    socket.on("error", finish);
    socket.on("connect", () => {
      socket.write(
        `POST /public/v1/query/whoami HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      pump();
    });
  });
}

describe("oversized and endless bodies", () => {
  let server: RunningServer;
  let disconnects = 0;

  beforeAll(async () => {
    const { engine } = await engineWithOrganization();
    server = await serve(engine, {
      maxBodyBytes: LIMIT,
      onClientDisconnect: () => {
        disconnects++;
      },
    });
  });
  afterAll(() => server.close());

  it("answers an endless chunked upload 413 and closes the connection instead of reading it", async () => {
    const upload = await endlessUpload(server.baseUrl);
    expect(upload.written).toBeLessThan(UPLOAD_CAP);
    expect(upload.response).toMatch(/^HTTP\/1\.1 413/);
    expect(upload.response.toLowerCase()).toContain("connection: close");
    expect(server.errors).toEqual([]);
  });

  it("cuts off twenty endless uploads at once while still serving another client", async () => {
    const uploads = Array.from({ length: 20 }, () => endlessUpload(server.baseUrl));
    const other = await post(`${server.baseUrl}/public/v1/query/whoami`, JSON.stringify({ organizationId: "x" }));
    expect(other.status).toBe(401);
    for (const upload of await Promise.all(uploads)) expect(upload.written).toBeLessThan(UPLOAD_CAP);
    expect(server.errors).toEqual([]);
  });

  it("refuses a body whose content-length is over the limit without reading it", async () => {
    const response = await post(`${server.baseUrl}/public/v1/query/whoami`, "x".repeat(LIMIT + 1));
    expect(response.status).toBe(413);
  });

  it("counts aborted uploads quietly instead of reporting them as errors", async () => {
    const before = disconnects;
    const { hostname, port } = new URL(server.baseUrl);
    await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<void>((resolve) => {
            const socket: Socket = connect(Number(port), hostname, () => {
              socket.write(
                `POST /public/v1/query/whoami HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"organ`,
                () => setTimeout(() => socket.destroy(), 20),
              );
            });
            socket.on("close", () => resolve());
          }),
      ),
    );
    for (let i = 0; i < 100 && disconnects - before < 20; i++) await new Promise((r) => setTimeout(r, 20));
    expect(disconnects - before).toBe(20);
    expect(server.errors).toEqual([]);
  });
});

describe("slow clients against the dev server", () => {
  it("times out clients that send their headers a byte at a time, and serves others meanwhile", async () => {
    const dev = startDevServer([
      "--memory",
      "--port",
      "0",
      "--headers-timeout-ms",
      "1000",
      "--request-timeout-ms",
      "2000",
    ]);
    try {
      const baseUrl = await dev.ready;
      const { hostname, port } = new URL(baseUrl);
      const closedAt: number[] = [];
      const started = Date.now();
      const sockets = Array.from({ length: 30 }, () => {
        const socket = connect(Number(port), hostname);
        const request = "POST /public/v1/query/whoami HTTP/1.1\r\nhost: x\r\nx-padding: ";
        let sent = 0;
        const drip = setInterval(() => {
          if (!socket.destroyed) socket.write(request[sent++ % request.length] as string);
        }, 200);
        socket.on("error", () => undefined);
        socket.on("close", () => {
          clearInterval(drip);
          closedAt.push(Date.now() - started);
        });
        return socket;
      });
      const other = await post(`${baseUrl}/public/v1/query/whoami`, JSON.stringify({ organizationId: "x" }));
      expect(other.status).toBe(401);
      // Node's own default would hold these sockets for a minute; give the server at most fifteen seconds.
      for (let i = 0; i < 150 && closedAt.length < sockets.length; i++) await new Promise((r) => setTimeout(r, 100));
      for (const socket of sockets) socket.destroy();
      expect(closedAt.length).toBe(sockets.length);
      expect(closedAt.every((at) => at < 15_000)).toBe(true);
    } finally {
      await dev.stop();
    }
  });
});
