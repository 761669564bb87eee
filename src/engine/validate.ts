/**
 * Schema validation that reports the first problem as `INVALID_ARGUMENT` naming the field path, in the
 * wire's dotted form (`parameters.rootUsers[0].apiKeys[1].curveType`).
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument } from "../errors.js";
import type { AnySchema } from "../operations/define.js";

function pathOf(issue: v.BaseIssue<unknown>, prefix: string): string {
  let path = prefix;
  for (const item of issue.path ?? []) {
    const key = (item as { key: unknown }).key;
    if (typeof key === "number") path += `[${key}]`;
    else path += path === "" ? String(key) : `.${String(key)}`;
  }
  return path;
}

/** Deeper than any request the HTTP adapter admits; past it values are left for the schema to refuse. */
const MAX_DEPTH = 64;

/**
 * Drops object members whose value is `null`: in proto3 JSON a `null` field is an unset field, and the
 * Rust and Go SDKs send them (`"userEmail": null`). Dropping them here lets every optional schema accept
 * them and keeps them out of the recorded intent ("null/unset fields dropped"); the fingerprint is over
 * the raw body, so it is unaffected.
 */
function withoutNulls(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    // defineProperty, not assignment: a "__proto__" member stays plain data.
    if (member !== null)
      Object.defineProperty(out, key, {
        value: withoutNulls(member, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** Parses `value` with `schema` or throws `INVALID_ARGUMENT` for the first issue, naming its field. */
export function parseWith<S extends AnySchema>(schema: S, value: unknown, prefix: string): v.InferOutput<S> {
  const outcome = v.safeParse(schema, withoutNulls(value), { abortEarly: true });
  if (outcome.success) return outcome.output;
  const issue = outcome.issues[0];
  const field = pathOf(issue, prefix);
  const where = field === "" ? "request body" : field;
  const received = issue.received === "undefined" ? "missing" : `received ${issue.received}`;
  const message =
    issue.kind === "schema" ? `${where}: expected ${issue.expected} (${received})` : `${where}: ${issue.message}`;
  throw invalidArgument(message, field === "" ? undefined : field, { reason: "REQUEST_INVALID" });
}
