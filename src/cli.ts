#!/usr/bin/env node
/**
 * The `custodian` command: picks the subcommand and reports its failure in one line.
 *
 * @module
 */
import { SERVE_USAGE, serve } from "./cli/serve.js";
import { CustodyError } from "./errors.js";

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "serve") return serve(rest);
  process.stdout.write(SERVE_USAGE);
  if (command !== undefined && command !== "help" && command !== "--help") process.exitCode = 2;
}

main().catch((error: unknown) => {
  console.error(
    `custodian: ${error instanceof CustodyError || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
