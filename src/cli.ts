#!/usr/bin/env node
/**
 * The `custodian` command: picks the subcommand and reports its failure in one line.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { inspect } from "./cli/inspect.js";
import { policyCommand } from "./cli/policy-check.js";
import { serve } from "./cli/serve.js";
import { UsageError } from "./cli/usage-error.js";
import { isCustodyError } from "./common/errors.js";

const USAGE = `usage: custodian <command> [options]

  custodian serve [options]        the dev server: the Activity API, a request log and a dev console
  custodian inspect [--data DIR]   the organizations and recent activities of a stopped server's data
  custodian policy check FILE      parse a policy file and explain each policy, or say where it is wrong

  custodian <command> --help       a command's options
  custodian --version              the version
`;

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  serve,
  inspect,
  policy: policyCommand,
};

/** The package's version, read from the package.json beside `src/` and `dist/` alike. */
function version(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`custodian ${version()}\n`);
    return;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run === undefined) {
    throw new UsageError(
      `unknown command "${command}"; the commands are ${Object.keys(COMMANDS).join(", ")} (custodian --help)`,
    );
  }
  await run(rest);
}

main().catch((error: unknown) => {
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
  console.error(`custodian: ${isCustodyError(error) || error instanceof Error ? error.message : String(error)}`);
  process.exit(usage ? 2 : 1);
});
