/**
 * Strict parsing of the JSON documents a payload can carry (EIP-712 typed data, EIP-7702 authorizations).
 * The payload comes from the requester, so it is treated as hostile: nesting is bounded before parsing and
 * `__proto__` keys are refused.
 *
 * @module
 */
import { invalidArgument } from "../../common/errors.js";
import { MAX_JSON_DEPTH } from "./limits.js";

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses `text` as JSON or throws `INVALID_ARGUMENT` naming `field`. `what` names the expected document in
 * messages ("an EIP-712 typed-data document").
 */
export function parsePayloadJson(text: string, field: string, what: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw invalidArgument(`${field} nests deeper than ${MAX_JSON_DEPTH} levels`, field, { limit: MAX_JSON_DEPTH });
  }
  let protoKey = false;
  let parsed: unknown;
  try {
    // JSON.parse makes `__proto__` an own property, but any later copy by assignment would turn it into a
    // prototype; no EIP-712 or EIP-7702 document needs the name, so refusing it is simpler than defending
    // every consumer.
    // The reviver costs a call per value, so it runs only when a key could spell the name: a text without
    // "__proto__" and without `\u` escapes has no such key.
    parsed =
      text.includes("__proto__") || text.includes("\\u")
        ? JSON.parse(text, (key, value: unknown) => {
            if (key === "__proto__") protoKey = true;
            return value;
          })
        : JSON.parse(text);
  } catch {
    throw invalidArgument(`${field} is not valid JSON; expected ${what}`, field);
  }
  if (protoKey) throw invalidArgument(`${field} must not contain a "__proto__" key`, field);
  return parsed;
}

/** Whether brackets outside strings nest deeper than `limit`; a linear scan that allocates nothing. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
