/**
 * `custodian serve` as a child process, for tests that drive the dev server the way a developer does.
 */
import { type ChildProcess, spawn } from "node:child_process";

export interface DevServer {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output: () => string;
  /** Resolves to the base URL once the start-up banner is complete; rejects if the process exits first. */
  ready: Promise<string>;
  /** Sends SIGINT and resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `custodian serve <args>` from the source tree. */
export function startDevServer(args: readonly string[]): DevServer {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
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
    if (child.exitCode !== null) return Promise.resolve(child.exitCode);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    return exited;
  };
  return { child, output: () => output, ready, stop };
}
