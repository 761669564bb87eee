/**
 * `custodian serve` as a child process, for tests that drive the dev server the way a developer does, and
 * `custodian <command>` run to completion.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";

export interface DevServer {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output: () => string;
  /** Resolves to the base URL once the start-up banner is complete; rejects if the process exits first. */
  ready: Promise<string>;
  /** Sends SIGINT and resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Extra environment for the child (e.g. `FORCE_COLOR`). `NO_COLOR`, `FORCE_COLOR` and `CUSTODIAN_PG_URL` (which
 * CI sets for the storage tests, and which would move the server's state into PostgreSQL) are otherwise unset.
 */
export interface ChildOptions {
  env?: Record<string, string>;
}

function childEnv(options: ChildOptions): NodeJS.ProcessEnv {
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, CUSTODIAN_PG_URL: _postgres, ...env } = process.env;
  return { ...env, ...options.env };
}

/** Starts `custodian serve <args>` from the source tree. */
export function startDevServer(args: readonly string[], options: ChildOptions = {}): DevServer {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: childEnv(options),
  });
  let output = "";
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/\S+)/);
      // The storage line closes the banner.
      if (match && /^storage: /m.test(output)) resolve(match[1] as string);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  const stop = () => {
    // A process already gone (exited, or killed by a signal) will not report its exit again.
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    return exited;
  };
  return { child, output: () => output, ready, stop };
}

/** What a finished command printed and its exit code. */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `custodian <args>` from the source tree to completion. */
export function runCli(args: readonly string[], options: ChildOptions = {}): Promise<CommandRun> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: childEnv(options),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** The root credentials file a dev server wrote. */
export interface DevCredentials {
  baseUrl: string;
  organizationId: string;
  userId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  signerPublicKey: string;
}

/** What a `--memory` dev server wrote to `memory-root-api-key.json` in its data directory `dataDir`. */
export function memoryRootCredentials(dataDir: string): Record<string, string> {
  return JSON.parse(readFileSync(join(dataDir, "memory-root-api-key.json"), "utf8")) as Record<string, string>;
}

/** An `@turnkey/sdk-server` API client of the dev server at `baseUrl`, stamping with its root `credentials`. */
export function rootSdkClient(baseUrl: string, credentials: Record<string, string>) {
  return new Turnkey({
    apiBaseUrl: baseUrl,
    apiPublicKey: credentials.apiPublicKey as string,
    apiPrivateKey: credentials.apiPrivateKey as string,
    defaultOrganizationId: credentials.organizationId as string,
  }).apiClient();
}
