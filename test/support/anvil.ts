/**
 * A local Ethereum devnet for the transaction tests: anvil from `@foundry-rs/anvil-linux-amd64`, on a free
 * loopback port, stopped by the test that started it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { privateKeyToAccount } from "viem/accounts";

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

/** Anvil's first funded account (its well-known development key). */
export const ANVIL_FUNDER = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");

/** Calls `method` on the node at `rpcUrl`; a JSON-RPC error throws, naming the method. */
export async function anvilRpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
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
