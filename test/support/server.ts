/**
 * Starts the HTTP adapter on a loopback port for the compatibility tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Turnkey } from "@turnkey/sdk-server";
import type { HttpAdapterOptions } from "../../src/http/respond.js";
import { createHttpHandler } from "../../src/http.js";
import type { CustodyEngine } from "../../src/index.js";
import type { ApiKeyPair } from "./engine.js";

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

/**
 * An `@turnkey/sdk-server` API client of `server` in `organizationId`, stamping with `key`. It polls a pending
 * activity once, briefly, so an activity awaiting approval comes back as it stands.
 */
export function sdkClient(server: RunningServer, key: ApiKeyPair, organizationId: string) {
  return new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId: organizationId,
    activityPoller: { intervalMs: 20, numRetries: 1 },
  }).apiClient();
}
