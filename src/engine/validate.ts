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

/** Parses `value` with `schema` or throws `INVALID_ARGUMENT` for the first issue, naming its field. */
export function parseWith<S extends AnySchema>(schema: S, value: unknown, prefix: string): v.InferOutput<S> {
  const outcome = v.safeParse(schema, value, { abortEarly: true });
  if (outcome.success) return outcome.output;
  const issue = outcome.issues[0];
  const field = pathOf(issue, prefix);
  const where = field === "" ? "request body" : field;
  const received = issue.received === "undefined" ? "missing" : `received ${issue.received}`;
  const message =
    issue.kind === "schema" ? `${where}: expected ${issue.expected} (${received})` : `${where}: ${issue.message}`;
  throw invalidArgument(message, field === "" ? undefined : field, { reason: "REQUEST_INVALID" });
}
