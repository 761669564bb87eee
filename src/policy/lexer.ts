/**
 * Tokenizer of the policy expression language. Positions are 0-based offsets in UTF-16 code units, the
 * same offsets `String.prototype.slice` uses, so a client can underline the spot.
 *
 * @module
 */

import { expressionError, syntaxError } from "./expression-errors.js";

/**
 * Longest accepted expression, in characters. Real policies are a few hundred characters; the cap keeps a
 * hostile policy from costing more than a bounded scan before it is refused.
 */
export const MAX_EXPRESSION_LENGTH = 64 * 1024;

/** Integer literals are at most u256 (the language's widest integer type). */
const MAX_INT_LITERAL = (1n << 256n) - 1n;
const MAX_INT_LITERAL_DIGITS = MAX_INT_LITERAL.toString().length;

export type TokenKind = "int" | "string" | "ident" | "punct" | "eof";

export interface Token {
  kind: TokenKind;
  /** The punctuation or identifier text; the decoded value for strings; the digits for ints. */
  text: string;
  start: number;
  end: number;
  /** The value of an int literal. */
  int?: bigint;
}

// Longest first, so `==` is not read as `=` `=` and `..` not as `.` `.`.
const PUNCTUATION = ["==", "!=", "<=", ">=", "&&", "||", "..", "<", ">", "!", ".", ",", "(", ")", "[", "]"];

const MISTAKES: Record<string, string> = {
  "=": "'=' is not an operator; compare with '=='",
  "&": "'&' is not an operator; use '&&'",
  "|": "'|' is not an operator; use '||'",
  '"': "strings are written in single quotes",
};

const isDigit = (c: string) => c >= "0" && c <= "9";
const isIdentStart = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isIdentPart = (c: string) => isIdentStart(c) || isDigit(c);
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";

/** Splits `source` into tokens, ending with one `eof` token. Throws a `CustodyError` at the first fault. */
export function tokenize(source: string): Token[] {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw expressionError(
      "POLICY_EXPRESSION_TOO_LONG",
      `expression is ${source.length} characters long; the limit is ${MAX_EXPRESSION_LENGTH}`,
      MAX_EXPRESSION_LENGTH,
    );
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (isSpace(c)) {
      i++;
    } else if (isDigit(c)) {
      i = readInt(source, i, tokens);
    } else if (isIdentStart(c)) {
      const start = i;
      while (i < source.length && isIdentPart(source[i]!)) i++;
      tokens.push({ kind: "ident", text: source.slice(start, i), start, end: i });
    } else if (c === "'") {
      // Escapes are undocumented; a string simply runs to the next quote, backslashes included.
      const close = source.indexOf("'", i + 1);
      if (close < 0) throw syntaxError("unterminated string", i);
      tokens.push({ kind: "string", text: source.slice(i + 1, close), start: i, end: close + 1 });
      i = close + 1;
    } else {
      const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
      if (punct === undefined) {
        throw syntaxError(MISTAKES[c] ?? `unexpected character ${JSON.stringify(c)}`, i);
      }
      tokens.push({ kind: "punct", text: punct, start: i, end: i + punct.length });
      i += punct.length;
    }
  }
  tokens.push({ kind: "eof", text: "", start: source.length, end: source.length });
  return tokens;
}

function readInt(source: string, start: number, tokens: Token[]): number {
  let i = start;
  while (i < source.length && isDigit(source[i]!)) i++;
  const next = source[i];
  if (next === "." && isDigit(source[i + 1] ?? "")) {
    throw syntaxError("decimal numbers are not supported; the language has integers only", start);
  }
  if (next !== undefined && isIdentStart(next)) throw syntaxError("invalid number", start);
  const digits = source.slice(start, i);
  const significant = digits.replace(/^0+(?=\d)/, "");
  const value = significant.length > MAX_INT_LITERAL_DIGITS ? MAX_INT_LITERAL + 1n : BigInt(significant);
  if (value > MAX_INT_LITERAL) throw syntaxError("integer literal is larger than 2^256 - 1", start);
  tokens.push({ kind: "int", text: digits, start, end: i, int: value });
  return i;
}
