/**
 * A local Ethereum devnet for the transaction tests: anvil from `@foundry-rs/anvil-linux-amd64`, on a free
 * loopback port, stopped by the test that started it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

export interface RunningAnvil {
  rpcUrl: string;
  chainId: number;
  /**
   * Ends anvil and resolves once it has exited; at once when it already has, by a signal too (anvil aborts
   * with SIGABRT on some inputs it does not expect, e.g. `anvil_setCode` with a malformed EIP-7702 delegation).
   */
  stop: () => Promise<void>;
  /** Ends anvil at once by SIGKILL, as a crash ends it (no clean shutdown); resolves once it has exited. */
  crash: () => Promise<void>;
}

const ANVIL_BINARY = createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/bin/anvil");
const CHAIN_ID = 31337;

export async function startAnvil(): Promise<RunningAnvil> {
  const child: ChildProcess = spawn(
    ANVIL_BINARY,
    ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(CHAIN_ID)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  // Read, so a chatty anvil never blocks on a full pipe (a crash writes its backtrace there).
  child.stderr?.resume();
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on (127\.0\.0\.1:[0-9]+)/.exec(output);
      if (listening) resolve(`http://${listening[1]}`);
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`anvil exited with ${code} before listening:\n${output}`)));
  });
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      // A process ended by a signal has a null exitCode and a signalCode; its "exit" event has gone by.
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return { rpcUrl, chainId: CHAIN_ID, stop: () => end("SIGTERM"), crash: () => end("SIGKILL") };
}
