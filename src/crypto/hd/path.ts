/**
 * BIP32 path notation (`PATH_FORMAT_BIP32`): `m/44'/60'/0'/0/0`.
 *
 * Parsing is strict so that one key has one spelling: decimal indices without leading zeros, each below
 * 2^31, hardened with `'` (or `h`/`H`, BIP-380's alternatives), at most 255 levels (BIP32 stores the depth
 * in one byte). {@link formatDerivationPath} gives the canonical `'` spelling.
 *
 * @module
 */
import { invalidArgument } from "../../common/errors.js";

/** Offset of hardened child indices (2^31). */
export const HARDENED_OFFSET = 0x80000000;

/** Deepest path accepted: BIP32 serialises the depth in one byte. */
export const MAX_PATH_DEPTH = 255;

/** One level of a path: an index below 2^31 and whether the child is hardened. */
export interface PathSegment {
  /** The index as written, below 2^31; the derived child number adds 2^31 when hardened. */
  readonly index: number;
  readonly hardened: boolean;
}

/** A parsed path: its levels below the master key `m` (empty for `m` itself). */
export type DerivationPath = readonly PathSegment[];

const SEGMENT = /^(0|[1-9][0-9]{0,9})(['hH]?)$/;

/**
 * Parses a BIP32 path, or throws `INVALID_ARGUMENT` naming `field` (e.g. `parameters.accounts[0].path`).
 * Paths are not secret, so the message quotes the level at fault.
 */
export function parseDerivationPath(path: string, field = "path"): DerivationPath {
  if (path === "") throw invalidArgument(`${field} is empty; a BIP32 path starts with "m"`, field);
  const [root, ...levels] = path.split("/");
  if (root !== "m") throw invalidArgument(`${field} must start with "m/" (BIP32 notation), got "${root}"`, field);
  if (levels.length > MAX_PATH_DEPTH) {
    throw invalidArgument(`${field} has ${levels.length} levels; at most ${MAX_PATH_DEPTH} are allowed`, field);
  }
  return levels.map((level, position) => {
    const match = SEGMENT.exec(level);
    if (match === null) {
      throw invalidArgument(
        `${field} level ${position + 1} ("${level}") is not a decimal index, optionally hardened with '`,
        field,
      );
    }
    const [, digits = "", marker = ""] = match;
    const index = Number(digits);
    if (index >= HARDENED_OFFSET) {
      throw invalidArgument(
        `${field} level ${position + 1} (${digits}) is not below 2^31; write a hardened index as n' with n < 2^31`,
        field,
      );
    }
    return { index, hardened: marker !== "" };
  });
}

/** The canonical spelling of a path: `m`, then each level with `'` for hardened. */
export function formatDerivationPath(path: DerivationPath): string {
  return ["m", ...path.map((segment) => `${segment.index}${segment.hardened ? "'" : ""}`)].join("/");
}
