/**
 * Drift check: every row of the operation table against the public API description and the official
 * client's method names.
 */
import { readFileSync } from "node:fs";
import { TurnkeyClient } from "@turnkey/http";
import { describe, expect, it } from "vitest";
import { OPERATIONS, urlPathOf } from "../../src/index.js";

interface SwaggerSchema {
  $ref?: string;
  type?: string;
  enum?: string[];
  properties?: Record<string, SwaggerSchema>;
  required?: string[];
  items?: SwaggerSchema;
  description?: string;
}

const swagger = JSON.parse(
  readFileSync(new URL("../vectors/reference/public_api.swagger.json", import.meta.url), "utf8"),
) as {
  paths: Record<
    string,
    { post: { parameters: { schema: SwaggerSchema }[]; responses: { 200: { schema: SwaggerSchema } } } }
  >;
  definitions: Record<string, SwaggerSchema>;
};

function resolve(schema: SwaggerSchema): SwaggerSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/definitions/", "");
  const found = swagger.definitions[name];
  if (!found) throw new Error(`missing definition ${name}`);
  return found;
}

interface ValibotNode {
  type: string;
  entries?: Record<string, ValibotNode>;
  item?: ValibotNode;
  wrapped?: ValibotNode;
  options?: unknown[];
  pipe?: ValibotNode[];
}

/** Strips optional/pipe wrappers down to the schema that says the shape. */
function unwrap(node: ValibotNode): ValibotNode {
  if (node.type === "optional" || node.type === "nullish" || node.type === "nullable")
    return unwrap(node.wrapped as ValibotNode);
  if (node.pipe?.[0] && node.pipe[0] !== node) return unwrap(node.pipe[0]);
  return node;
}

/** Compares a valibot schema to a swagger schema, collecting mismatches with their path. */
function compare(ours: ValibotNode, theirs: SwaggerSchema, path: string, problems: string[]): void {
  const node = unwrap(ours);
  const spec = resolve(theirs);
  if (node.type === "object") {
    const properties = spec.properties ?? {};
    for (const [key, child] of Object.entries(node.entries ?? {})) {
      if (!(key in properties)) {
        problems.push(`${path}.${key} is not in the swagger`);
        continue;
      }
      compare(child, properties[key] as SwaggerSchema, `${path}.${key}`, problems);
    }
    for (const required of spec.required ?? []) {
      if (!(required in (node.entries ?? {})))
        problems.push(`${path}.${required} is required by the swagger but missing`);
    }
  } else if (node.type === "array") {
    compare(node.item as ValibotNode, spec.items ?? {}, `${path}[]`, problems);
  } else if (node.type === "picklist") {
    // A few fields are plain strings whose values only the description lists (list_suborgs' filterType).
    const allowed = spec.enum ?? (spec.description?.match(/'([A-Z_]+)'/g) ?? []).map((quoted) => quoted.slice(1, -1));
    for (const option of node.options ?? []) {
      if (!allowed.includes(option as string))
        problems.push(`${path}: enum value ${String(option)} is not in the swagger`);
    }
  }
}

// The client defines its methods as instance fields, so an instance (never used to send) is inspected.
const client = new TurnkeyClient(
  { baseUrl: "http://127.0.0.1:1" },
  { stamp: async () => ({ stampHeaderName: "X-Stamp", stampHeaderValue: "" }) },
);

describe("the operation table", () => {
  const intentMembers = resolve({ $ref: "#/definitions/v1Intent" }).properties ?? {};
  const resultMembers = resolve({ $ref: "#/definitions/v1Result" }).properties ?? {};
  const activityTypes = new Set(resolve({ $ref: "#/definitions/v1ActivityType" }).enum);

  it("has unique paths and method names", () => {
    expect(new Set(OPERATIONS.map(urlPathOf)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((o) => o.method)).size).toBe(OPERATIONS.length);
  });

  for (const operation of OPERATIONS) {
    const urlPath = urlPathOf(operation);
    it(`${urlPath} matches the swagger and @turnkey/http`, () => {
      const entry = swagger.paths[urlPath];
      const clientMethod = (client as unknown as Record<string, unknown>)[operation.method];
      const unlisted = operation.kind === "activity" && operation.unlistedRoute === true;
      if (unlisted) {
        // Once the description gains the route (or the client the method), the row must drop the flag
        // and be held to them like the others.
        expect(entry, `${urlPath} is still missing from the description`).toBeUndefined();
        expect(clientMethod, `@turnkey/http still has no ${operation.method}`).toBeUndefined();
      } else {
        expect(entry, `${urlPath} is a documented path`).toBeDefined();
        expect(typeof clientMethod).toBe("function");
      }
      const request = unlisted ? undefined : resolve(entry!.post.parameters[0]!.schema);
      const problems: string[] = [];
      if (operation.kind === "activity") {
        if (request) expect(request.properties?.type?.enum).toContain(operation.versions[0].type);
        for (const version of operation.versions) {
          expect(activityTypes.has(version.type), version.type).toBe(true);
          const intent = intentMembers[version.intent];
          expect(intent, `v1Intent.${version.intent}`).toBeDefined();
          if (version.result !== null)
            expect(resultMembers[version.result], `v1Result.${version.result}`).toBeDefined();
          compare(
            version.parameters as unknown as ValibotNode,
            intent as SwaggerSchema,
            `${version.type}.parameters`,
            problems,
          );
        }
        // The current version's parameters are what the request body documents.
        if (request) {
          compare(
            operation.versions[0].parameters as unknown as ValibotNode,
            request.properties?.parameters ?? {},
            "parameters",
            problems,
          );
        }
      } else {
        compare(operation.request as unknown as ValibotNode, request!, "request", problems);
      }
      expect(problems).toEqual([]);
    });
  }

  it("compares nested enums, so drift in a picklist is caught", () => {
    const problems: string[] = [];
    const fake = { type: "object", entries: { curveType: { type: "picklist", options: ["API_KEY_CURVE_RSA"] } } };
    compare(fake as ValibotNode, { $ref: "#/definitions/v1ApiKeyParamsV2" }, "p", problems);
    expect(problems.some((p) => p.includes("API_KEY_CURVE_RSA"))).toBe(true);
  });
});
