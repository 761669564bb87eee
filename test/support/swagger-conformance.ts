/**
 * Checks an answer against the schema the public API description gives its path (`responses.200`), the way
 * the hosted service prints proto3 JSON: every member the description declares, of its type; every required
 * member there; enums within their values; int64 as decimal strings. `null` is accepted only where the
 * hosted service sends it, for an absent message (`"failure": null`, a `$ref` to an object) or a member marked
 * `x-nullable`; an absent optional scalar is left out, as a captured hosted answer shows (docs/differences.md
 * "Responses"). A member the description does not declare is a fault unless custodian's differences name it.
 * Returns the paths of the members at fault, empty when the answer conforms.
 */
import { readFileSync } from "node:fs";

interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  "x-nullable"?: boolean;
}

const swagger = JSON.parse(
  readFileSync(new URL("../vectors/reference/public_api.swagger.json", import.meta.url), "utf8"),
) as {
  paths: Record<string, { post: { responses: { 200: { schema: Schema } } } }>;
  definitions: Record<string, Schema>;
};

/** Members custodian adds to a definition, each written down in docs/differences.md. */
const DOCUMENTED_ADDITIONS: ReadonlyMap<Schema, ReadonlySet<string>> = new Map([
  // "Activities carry `timestampMs`", the request envelope's own.
  [swagger.definitions.v1Activity as Schema, new Set(["timestampMs"])],
]);

/**
 * Whether `value` at `path` is a CAIP-2 id of a chain family the description's enum lists: custodian accepts any
 * chain the host configures (a devnet such as `eip155:31337`), not only the listed ones, and echoes it in intents
 * (docs/differences.md, "No public chain of its own" and "Balances and assets").
 */
function configuredChainId(path: string, value: unknown, values: readonly unknown[]): boolean {
  if (!path.endsWith(".caip2") || typeof value !== "string") return false;
  const namespace = value.split(":")[0];
  return values.some((listed) => typeof listed === "string" && listed.split(":")[0] === namespace);
}

function resolve(schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const definition = swagger.definitions[schema.$ref.replace("#/definitions/", "")];
  if (definition === undefined) throw new Error(`unknown definition ${schema.$ref}`);
  return definition;
}

function check(value: unknown, schema: Schema, path: string, faults: string[]): void {
  const nullable = schema["x-nullable"] === true || (schema.$ref !== undefined && resolve(schema).type === "object");
  const target = resolve(schema);
  if (value === null) {
    if (!nullable) faults.push(`${path}: null where the description has a ${target.type ?? "value"}`);
    return;
  }
  if (target.enum !== undefined && !target.enum.includes(value) && !configuredChainId(path, value, target.enum)) {
    faults.push(`${path}: ${JSON.stringify(value)} is not one of the description's values`);
    return;
  }
  switch (target.type) {
    case "string":
      if (typeof value !== "string") faults.push(`${path}: ${typeof value} where the description has a string`);
      else if ((target.format === "int64" || target.format === "uint64") && !/^-?[0-9]+$/.test(value)) {
        faults.push(`${path}: "${value}" is not a decimal ${target.format}`);
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") faults.push(`${path}: ${typeof value} where the description has a boolean`);
      return;
    case "integer":
    case "number":
      if (typeof value !== "number") faults.push(`${path}: ${typeof value} where the description has a number`);
      return;
    case "array":
      if (!Array.isArray(value)) faults.push(`${path}: not an array`);
      else
        value.forEach((item, i) => {
          check(item, target.items ?? {}, `${path}[${i}]`, faults);
        });
      return;
    case "object":
    case undefined: {
      if (typeof value !== "object" || Array.isArray(value)) {
        if (target.type === "object") faults.push(`${path}: not an object`);
        return;
      }
      const members = value as Record<string, unknown>;
      for (const name of target.required ?? []) {
        if (!(name in members)) faults.push(`${path}.${name}: required and missing`);
      }
      for (const [name, member] of Object.entries(members)) {
        const declared = target.properties?.[name];
        if (declared !== undefined) check(member, declared, `${path}.${name}`, faults);
        else if (typeof target.additionalProperties === "object") {
          check(member, target.additionalProperties, `${path}.${name}`, faults);
        } else if (
          target.properties !== undefined &&
          target.additionalProperties === undefined &&
          !DOCUMENTED_ADDITIONS.get(target)?.has(name)
        ) {
          faults.push(`${path}.${name}: not in the description`);
        }
      }
      return;
    }
    default:
      return;
  }
}

/** The faults of `answer` as the answer of `urlPath` (`/public/v1/query/get_user`). */
export function conformanceFaults(urlPath: string, answer: unknown): string[] {
  const entry = swagger.paths[urlPath];
  if (entry === undefined) throw new Error(`${urlPath} is not in the description`);
  const faults: string[] = [];
  check(JSON.parse(JSON.stringify(answer)), entry.post.responses[200].schema, "answer", faults);
  return faults;
}
