/**
 * A local Ethereum devnet for the transaction tests: anvil from `@foundry-rs/anvil-linux-amd64`, on a free
 * loopback port, stopped by the test that started it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

export interface RunningAnvil {
  rpcUrl: string;
  chainId: number;
  stop: () => Promise<void>;
}

const ANVIL_BINARY = createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/bin/anvil");
const CHAIN_ID = 31337;

export async function startAnvil(): Promise<RunningAnvil> {
  const child: ChildProcess = spawn(
    ANVIL_BINARY,
    ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(CHAIN_ID)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
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
  return {
    rpcUrl,
    chainId: CHAIN_ID,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
