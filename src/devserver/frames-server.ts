/**
 * The dev server's second listener: the export, import and auth frames on an origin of their own (another
 * port), so the app's page, served elsewhere, cannot read what the frames show or what the user types in them.
 * It is bound with the main port, before the engine opens, and answers 503 until the engine's bundle signer
 * key is known.
 *
 * @module
 */
import { createServer, type Server } from "node:http";
import { createFramesHandler, type FramesOptions } from "../frames/index.js";

/** The frames' server and the switch that starts serving them. */
export interface FramesServer {
  server: Server;
  /** Starts answering with the frames for this engine's signer key. */
  serve(options: FramesOptions): void;
}

export function createFramesServer(): FramesServer {
  let frames: ReturnType<typeof createFramesHandler> | undefined;
  const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    if (frames === undefined) {
      res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "1" });
      res.end("the dev server is starting");
      return;
    }
    frames(req, res)
      .then((served) => {
        if (!served) res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not a frame");
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end("the frame could not be served");
      });
  });
  return {
    server,
    serve(options) {
      frames = createFramesHandler(options);
    },
  };
}
