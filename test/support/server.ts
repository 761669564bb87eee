/**
 * Starts the HTTP adapter on a loopback port for the compatibility tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpAdapterOptions } from "../../src/http/respond.js";
import { createHttpHandler } from "../../src/http.js";
import type { CustodyEngine } from "../../src/index.js";

export interface RunningServer {
  baseUrl: string;
  close: () => Promise<void>;
  errors: unknown[];
}

export async function serve(engine: CustodyEngine, options: HttpAdapterOptions = {}): Promise<RunningServer> {
  const errors: unknown[] = [];
  const server: Server = createServer(createHttpHandler(engine, { ...options, onError: (e) => errors.push(e) }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    errors,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A raw POST with explicit headers, for requests the official clients refuse to send. */
export async function post(url: string, body: string | Uint8Array, headers: Record<string, string | string[]> = {}) {
  const flat = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) flat.append(name, v);
  }
  if (!flat.has("content-type")) flat.set("content-type", "application/json");
  const response = await fetch(url, {
    method: "POST",
    body: typeof body === "string" ? body : Buffer.from(body),
    headers: flat,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}
