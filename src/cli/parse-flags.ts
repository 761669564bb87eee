/**
 * `node:util`'s `parseArgs` for the commands, strict, with a mistyped flag answered by the closest one:
 * `unknown option --prot; did you mean --port?`.
 *
 * @module
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { closeMatches } from "../common/close-matches.js";
import { UsageError } from "./usage-error.js";

/** What node says of an option it does not know: `Unknown option '--prot'. To specify ...`. */
const UNKNOWN_OPTION = /^Unknown option '(-{1,2})([^'=]*)/;

/** Parses `args` against `options` (strict); an unknown flag is a {@link UsageError} naming the closest flag. */
export function parseFlags<const T extends ParseArgsConfig & { args: string[]; options: object }>(
  config: T,
  command: string,
): ReturnType<typeof parseArgs<T & { strict: true }>> {
  try {
    return parseArgs({ ...config, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const match = error instanceof Error ? UNKNOWN_OPTION.exec(error.message) : null;
    if (code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION" || match === null) throw error;
    const [, dashes, name] = match as unknown as [string, string, string];
    const known = Object.keys(config.options ?? {});
    const near = closeMatches(name, known, 1)[0];
    const hint = near === undefined ? "" : `; did you mean --${near}?`;
    throw new UsageError(`unknown option ${dashes}${name}${hint} (custodian ${command} --help lists them)`);
  }
}
