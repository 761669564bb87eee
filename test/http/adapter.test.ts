/**
 * The adapter's own surface: routing, methods, CORS, body limits and hostile input. None of these may
 * answer 500 or change storage.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchHandler } from "../../src/http.js";
import type { CustodyEngine } from "../../src/index.js";
import { type ApiKeyPair, engineWithOrganization, subOrganizationParameters } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let rootKey: ApiKeyPair;
let client: TurnkeyClient;
const stamper = () => new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey });

beforeAll(async () => {
  ({ engine, organizationId, rootKey } = await engineWithOrganization());
  server = await serve(engine, { allowedOrigins: ["https://app.test"] });
  client = new TurnkeyClient({ baseUrl: server.baseUrl }, stamper());
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

/** A stamped request for `body` text sent to `path`. */
async function stamped(path: string, body: string, extra: Record<string, string | string[]> = {}) {
  const { stampHeaderValue } = await stamper().stamp(body);
  return post(`${server.baseUrl}${path}`, body, { "X-Stamp": stampHeaderValue, ...extra });
}

async function storedActivities(): Promise<number> {
  return (await client.getActivities({ organizationId, paginationOptions: { limit: "100" } })).activities.length;
}

describe("routing and methods", () => {
  it("answers an unknown path with a JSON 404", async () => {
    const response = await post(`${server.baseUrl}/public/v1/query/no_such_thing`, "{}");
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 5 });
  });

  it("answers a GET on an operation with 405 and Allow", async () => {
    const response = await fetch(`${server.baseUrl}/public/v1/query/whoami`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await response.json()).toMatchObject({ code: 3 });
  });

  it("answers CORS preflights for allowed origins only", async () => {
    const ok = await fetch(`${server.baseUrl}/public/v1/query/whoami`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.test", "Access-Control-Request-Method": "POST" },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.test");
    expect(ok.headers.get("access-control-allow-headers")).toContain("X-Stamp-Webauthn");
    const refused = await fetch(`${server.baseUrl}/public/v1/query/whoami`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.test" },
    });
    expect(refused.status).toBe(403);
  });

  it("states each answer's length instead of chunking it, and none for a 204", async () => {
    const answers = [
      // An unstamped empty body: 400 (the organization id is missing).
      await fetch(`${server.baseUrl}/public/v1/query/whoami`, { method: "POST", body: "{}" }),
      await fetch(`${server.baseUrl}/public/v1/query/no_such_thing`, { method: "POST", body: "{}" }),
    ];
    const { stampHeaderValue } = await stamper().stamp(JSON.stringify({ organizationId }));
    answers.push(
      await fetch(`${server.baseUrl}/public/v1/query/whoami`, {
        method: "POST",
        body: JSON.stringify({ organizationId }),
        headers: { "X-Stamp": stampHeaderValue },
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual([400, 404, 200]);
    for (const answer of answers) {
      const bytes = new Uint8Array(await answer.arrayBuffer());
      expect(answer.headers.get("transfer-encoding")).toBeNull();
      expect(answer.headers.get("content-length")).toBe(String(bytes.length));
    }
    const preflight = await fetch(`${server.baseUrl}/public/v1/query/whoami`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.test", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("content-length")).toBeNull();
  });

  it("refuses a request without a stamp with 401", async () => {
    const response = await post(`${server.baseUrl}/public/v1/query/whoami`, JSON.stringify({ organizationId }));
    expect(response.status).toBe(401);
    expect(response.json?.message).toBe(
      "cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)",
    );
  });
});

describe("hostile input", () => {
  const submitPath = "/public/v1/submit/create_sub_organization";

  it("refuses a 10 MB body with 413 without keeping it", async () => {
    const before = await storedActivities();
    const huge = `{"organizationId":"${organizationId}","pad":"${"a".repeat(10 * 1024 * 1024)}"}`;
    const response = await post(`${server.baseUrl}${submitPath}`, huge, { "X-Stamp": "x" });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ code: 3 });
    expect(await storedActivities()).toBe(before);
  });

  it("refuses 10,000-deep JSON nesting with 400", async () => {
    const deep = `{"organizationId":"${organizationId}","parameters":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const response = await stamped(submitPath, deep);
    expect(response.status).toBe(400);
    expect(response.json?.message).toBe("the request body nests JSON too deeply");
  });

  it("refuses invalid UTF-8 and non-object bodies with 400", async () => {
    const invalid = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    expect((await post(`${server.baseUrl}${submitPath}`, invalid, { "X-Stamp": "x" })).status).toBe(400);
    expect((await post(`${server.baseUrl}${submitPath}`, "not json", { "X-Stamp": "x" })).status).toBe(400);
    expect((await post(`${server.baseUrl}${submitPath}`, "[1,2]", { "X-Stamp": "x" })).status).toBe(400);
  });

  it("refuses a body that starts with a byte-order mark instead of fingerprinting it without one", async () => {
    const before = await storedActivities();
    const json = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: subOrganizationParameters("Bom"),
    });
    const withBom = `\uFEFF${json}`;
    const { stampHeaderValue } = await stamper().stamp(withBom);
    const response = await post(`${server.baseUrl}${submitPath}`, Buffer.from(withBom, "utf8"), {
      "X-Stamp": stampHeaderValue,
    });
    expect(response.status).toBe(400);
    expect(await storedActivities()).toBe(before);
  });

  it("treats __proto__ and constructor keys as plain data", async () => {
    const before = await storedActivities();
    const parameters = JSON.stringify(subOrganizationParameters("Proto")).replace(
      "{",
      '{"__proto__":{"isAdmin":true},',
    );
    const body = `{"type":"ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8","timestampMs":"${Date.now()}","organizationId":"${organizationId}","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"parameters":${parameters}}`;
    const response = await stamped(submitPath, body);
    expect(response.status).toBe(200);
    const activity = response.json?.activity as { intent: Record<string, Record<string, unknown>> };
    expect(Object.keys(activity.intent.createSubOrganizationIntentV8 ?? {})).not.toContain("__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(await storedActivities()).toBe(before + 1);
  });

  it("reads null members as unset, as proto3 JSON does (the Rust and Go SDKs send them)", async () => {
    const parameters = {
      subOrganizationName: "Nulls",
      rootUsers: [
        {
          userName: "u",
          userEmail: null,
          userPhoneNumber: null,
          apiKeys: [
            {
              apiKeyName: "k",
              publicKey: rootKey.publicKey.replace(/^0[23]/, "02"),
              curveType: "API_KEY_CURVE_P256",
              expirationSeconds: null,
            },
          ],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
      wallet: null,
      disableEmailAuth: null,
    };
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters,
      generateAppProofs: null,
    });
    const response = await stamped(submitPath, body);
    expect(response.status).toBe(200);
    const intent = (response.json!.activity as { intent: { createSubOrganizationIntentV8: Record<string, unknown> } })
      .intent.createSubOrganizationIntentV8;
    expect(Object.keys(intent)).not.toContain("wallet");
    expect(Object.keys((intent.rootUsers as Record<string, unknown>[])[0]!)).not.toContain("userEmail");
  });

  it("refuses duplicated stamp headers and both stamp kinds at once", async () => {
    const body = JSON.stringify({ organizationId });
    const { stampHeaderValue } = await stamper().stamp(body);
    const twice = await post(`${server.baseUrl}/public/v1/query/whoami`, body, {
      "X-Stamp": [stampHeaderValue, stampHeaderValue],
    });
    expect(twice.status).toBe(401);
    const both = await post(`${server.baseUrl}/public/v1/query/whoami`, body, {
      "X-Stamp": stampHeaderValue,
      "X-Stamp-Webauthn": "{}",
    });
    expect(both.status).toBe(401);
  });

  it("refuses stamps that are not base64url JSON objects", async () => {
    const body = JSON.stringify({ organizationId });
    const stamps = ["%%%", "[1,2,3]", '"text"', "{}", "null"].map((text, i) =>
      i === 0 ? text : Buffer.from(text).toString("base64url"),
    );
    for (const stamp of stamps) {
      const response = await post(`${server.baseUrl}/public/v1/query/whoami`, body, { "X-Stamp": stamp });
      expect(response.status).toBe(401);
      expect(response.json).toMatchObject({ code: 16 });
    }
  });

  it("refuses wrong types in the envelope with 400 naming the field, storing nothing", async () => {
    const before = await storedActivities();
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: Date.now(),
      organizationId,
      parameters: [],
    });
    const response = await stamped(submitPath, body);
    expect(response.status).toBe(400);
    expect(response.json?.message).toMatch(/^timestampMs/);
    const noOrganization = await stamped(submitPath, JSON.stringify({ organizationId: 5 }));
    expect(noOrganization.status).toBe(400);
    expect(await storedActivities()).toBe(before);
  });
});

describe("createFetchHandler", () => {
  it("serves the same operations to fetch-style hosts", async () => {
    const handler = createFetchHandler(engine);
    const body = JSON.stringify({ organizationId });
    const { stampHeaderValue } = await stamper().stamp(body);
    const response = await handler(
      new Request("http://custodian.test/public/v1/query/whoami", {
        method: "POST",
        body,
        headers: { "X-Stamp": stampHeaderValue },
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ organizationId, username: "root" });
    const tooBig = await createFetchHandler(engine, { maxBodyBytes: 10 })(
      new Request("http://custodian.test/public/v1/query/whoami", { method: "POST", body }),
    );
    expect(tooBig.status).toBe(413);
  });
});
