/**
 * Schema validation that reports the first problem as `INVALID_ARGUMENT` naming the field path, in the
 * wire's dotted form (`parameters.rootUsers[0].apiKeys[1].curveType`).
 *
 * @module
 */
import * as v from "valibot";
import { closeMatches } from "../../common/close-matches.js";
import { invalidArgument } from "../../common/errors.js";
import type { AnySchema } from "../../contract/operation.js";

function pathOf(issue: v.BaseIssue<unknown>, prefix: string): string {
  let path = prefix;
  for (const item of issue.path ?? []) {
    const key = (item as { key: unknown }).key;
    if (typeof key === "number") path += `[${key}]`;
    else path += path === "" ? String(key) : `.${String(key)}`;
  }
  return path;
}

const PARSE_CONFIG = { abortEarly: true } as const;

/** Deeper than any request the HTTP adapter admits; past it values are left for the schema to refuse. */
const MAX_DEPTH = 64;

/**
 * Drops object members whose value is `null`: in proto3 JSON a `null` field is an unset field, and the
 * Rust and Go SDKs send them (`"userEmail": null`). Dropping them here lets every optional schema accept
 * them and keeps them out of the recorded intent ("null/unset fields dropped"); the fingerprint is over
 * the raw body, so it is unaffected.
 */
export function withoutNulls(value: unknown, maxDepth = MAX_DEPTH, depth = 0): unknown {
  if (depth > maxDepth || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = withoutNulls(value[i], maxDepth, depth + 1);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === null) continue;
    const kept = withoutNulls(member, maxDepth, depth + 1);
    // defineProperty, not assignment: a "__proto__" member stays plain data.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    else out[key] = kept;
  }
  return out;
}

/**
 * An activity body with its nulls dropped once for both of its parses (the envelope, then its `parameters`
 * with the row's schema), one level deeper than {@link parseWith} would go, since `parameters` sit one level
 * down: the same values the two parses would each have made, for one copy instead of two.
 */
export function bodyWithoutNulls(body: unknown): unknown {
  return withoutNulls(body, MAX_DEPTH + 1);
}

/** The options of a picklist issue, from its `expected` text (`("A" | "B")`); undefined when not one. */
function picklistOptions(issue: v.BaseIssue<unknown>): string[] | undefined {
  if ((issue.type !== "picklist" && issue.type !== "enum") || !issue.expected) return undefined;
  const list = issue.expected.startsWith("(") ? issue.expected.slice(1, -1) : issue.expected;
  try {
    return list.split(" | ").map((option) => JSON.parse(option) as string);
  } catch {
    return undefined;
  }
}

/**
 * The message of a value outside an enum: the field, the value, and the few accepted values closest to it
 * (an enum such as the address formats has dozens; listing them all buries the answer).
 */
function enumMessage(where: string, input: unknown, options: readonly string[]): string {
  const examples = options.slice(0, 3).join(", ");
  if (typeof input !== "string") {
    const received = input === undefined ? "missing" : `received ${typeof input}`;
    return `${where}: expected one of ${options.length} values, e.g. ${examples} (${received})`;
  }
  const shown = JSON.stringify(input.length > 80 ? `${input.slice(0, 80)}...` : input);
  const near = closeMatches(input, options);
  if (near.length > 0) return `${where}: ${shown} is not an accepted value; did you mean ${near.join(" or ")}?`;
  return `${where}: ${shown} is not an accepted value (one of ${options.length}, e.g. ${examples})`;
}

/**
 * Parses `value` with `schema` or throws `INVALID_ARGUMENT` for the first issue, naming its field. `nullsDropped`
 * says the caller already passed `value` through {@link withoutNulls}.
 */
export function parseWith<S extends AnySchema>(
  schema: S,
  value: unknown,
  prefix: string,
  nullsDropped = false,
): v.InferOutput<S> {
  const outcome = v.safeParse(schema, nullsDropped ? value : withoutNulls(value), PARSE_CONFIG);
  if (outcome.success) return outcome.output;
  const issue = outcome.issues[0];
  const field = pathOf(issue, prefix);
  const where = field === "" ? "request body" : field;
  const received = issue.received === "undefined" ? "missing" : `received ${issue.received}`;
  const options = picklistOptions(issue);
  const message = options
    ? enumMessage(where, issue.input, options)
    : issue.kind === "schema"
      ? `${where}: expected ${issue.expected} (${received})`
      : `${where}: ${issue.message}`;
  throw invalidArgument(message, field === "" ? undefined : field, { reason: "REQUEST_INVALID" });
}
