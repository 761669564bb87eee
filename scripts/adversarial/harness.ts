/**
 * What every attack of the adversarial run (`npm run adversarial`) shares: the dev server it attacks, the
 * record of cases tried and failed, the figures it prints, and raw and stamped requests whose response bodies
 * are kept for the final secret scan.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { Turnkey } from "@turnkey/sdk-server";

/** The data directory of the run's dev server; removed when the run ends. */
export const data = mkdtempSync(join(tmpdir(), "custodian-adversarial-"));

/** Everything the servers printed, for the secret scan. */
export const output = { text: "" };

/** Every response body the run saw, for the secret scan. */
export const bodies: string[] = [];

const failures: string[] = [];
const figures: string[] = [];
let tried = 0;

/** Records one case: its name, whether it held, and what was seen when it did not. */
export function check(name: string, ok: boolean, detail = ""): void {
  tried++;
  if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ""}`);
}

/** Records a measured figure (a delay, a rate) printed beside the cases. */
export function figure(name: string, value: number, unit: string): void {
  figures.push(`${name}: ${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`);
}

/** Prints the cases tried, the figures and the failures; returns whether every case held. */
export function report(): boolean {
  console.log(`cases tried: ${tried}`);
  for (const line of figures) console.log(`  ${line}`);
  console.log(`failures: ${failures.length}`);
  for (const failure of failures) console.log(`  FAIL ${failure}`);
  return failures.length === 0;
}

export interface Server {
  child: ChildProcess;
  baseUrl: string;
}

export interface ApiKey {
  publicKey: string;
  privateKey: string;
}

/**
 * `custodian serve` on `directory` (the run's data directory unless given), on a free loopback port, with
 * further command-line options.
 */
export async function startServer(options: { args?: string[]; directory?: string } = {}): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli.ts",
      "serve",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--data",
      options.directory ?? data,
      ...(options.args ?? []),
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      // The run is about the file store: a CUSTODIAN_PG_URL in the environment would move state to PostgreSQL.
      env: { ...process.env, CUSTODIAN_PG_URL: "" },
    },
  );
  let banner = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 60 s: ${banner}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      banner += chunk.toString();
      output.text += chunk.toString();
      const match = banner.match(/listening on (http:\/\/\S+)/);
      if (match && /^storage: /m.test(banner)) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output.text += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${banner}`)));
  });
  return { child, baseUrl };
}

export async function stopServer(server: Server, signal: NodeJS.Signals = "SIGINT"): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill(signal);
  await exited;
}

export interface Credentials {
  organizationId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  signerPublicKey: string;
}

/** The root credentials the dev server wrote into `directory` (the run's data directory unless given). */
export const credentials = (directory = data) =>
  JSON.parse(readFileSync(join(directory, "root-api-key.json"), "utf8")) as Credentials;

export function clientFor(baseUrl: string, key: ApiKey, organizationId: string) {
  return new Turnkey({
    apiBaseUrl: baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
}

export type Client = ReturnType<typeof clientFor>;

/** A POST of `body` as it is; the response body is kept for the secret scan. */
export async function raw(url: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    body: typeof body === "string" ? body : Buffer.from(body),
    headers: { "content-type": "application/json", ...headers },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, text, headers: response.headers };
}

export async function stampHeader(key: ApiKey, body: string) {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
  return { [stampHeaderName]: stampHeaderValue };
}

/** What an attack on the running server is handed. */
export interface Target {
  server: Server;
  /** The root user's API key of the server's organization. */
  root: ApiKey;
  organizationId: string;
}
