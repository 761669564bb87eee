/**
 * Checks a served answer against the 200 response schema the hosted API's description gives its path
 * (`test/vectors/reference/public_api.swagger.json`): required members present, no member the schema does
 * not name, strings, booleans, numbers, arrays and enum values where it says so, recursively. An optional
 * member may be null (proto3 JSON writes an unset message or wrapper so, as the hosted service does).
 */
import { readFileSync } from "node:fs";

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: unknown;
}

const description = JSON.parse(
  readFileSync(new URL("../vectors/reference/public_api.swagger.json", import.meta.url), "utf8"),
) as {
  paths: Record<string, { post: { responses: { 200: { schema: Schema } } } }>;
  definitions: Record<string, Schema>;
};

function resolve(schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const found = description.definitions[schema.$ref.replace("#/definitions/", "")];
  if (found === undefined) throw new Error(`missing definition ${schema.$ref}`);
  return { ...found, ...(schema.enum ? { enum: schema.enum } : {}) };
}

/** Members custodian adds on purpose, each in docs/differences.md. */
const DOCUMENTED_EXTRAS = new Set(["v1Activity.timestampMs"]);

function check(value: unknown, given: Schema, path: string, problems: string[]): void {
  const schema = resolve(given);
  const definition = given.$ref?.replace("#/definitions/", "");
  if (schema.enum !== undefined) {
    if (typeof value !== "string" || !schema.enum.includes(value))
      problems.push(`${path}: ${String(value)} not in enum`);
    return;
  }
  const type = schema.type ?? (schema.properties !== undefined ? "object" : undefined);
  switch (type) {
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        problems.push(`${path}: expected an object`);
        return;
      }
      const record = value as Record<string, unknown>;
      for (const name of schema.required ?? []) {
        if (!(name in record)) problems.push(`${path}.${name}: required, missing`);
      }
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      for (const [name, member] of Object.entries(record)) {
        const memberSchema = properties[name];
        if (memberSchema === undefined) {
          const documented = DOCUMENTED_EXTRAS.has(`${definition}.${name}`);
          if (schema.additionalProperties === undefined && !documented)
            problems.push(`${path}.${name}: not in the description`);
          continue;
        }
        if (member === null && !required.has(name)) continue;
        check(member, memberSchema, `${path}.${name}`, problems);
      }
      return;
    }
    case "array":
      if (!Array.isArray(value)) {
        problems.push(`${path}: expected an array`);
        return;
      }
      for (const [index, item] of value.entries()) check(item, schema.items ?? {}, `${path}[${index}]`, problems);
      return;
    case "string":
      if (typeof value !== "string") problems.push(`${path}: expected a string`);
      return;
    case "boolean":
      if (typeof value !== "boolean") problems.push(`${path}: expected a boolean`);
      return;
    case "integer":
    case "number":
      if (typeof value !== "number") problems.push(`${path}: expected a number`);
      return;
    default:
      return;
  }
}

/** The ways `answer` departs from the description's 200 response of `urlPath` (empty when it conforms). */
export function departuresFromDescription(urlPath: string, answer: unknown): string[] {
  const entry = description.paths[urlPath];
  if (entry === undefined) return [`${urlPath} is not in the description`];
  const problems: string[] = [];
  check(answer, entry.post.responses[200].schema, "response", problems);
  return problems;
}
