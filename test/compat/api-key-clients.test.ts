/**
 * The official clients, unchanged, against the HTTP adapter on loopback: @turnkey/http's TurnkeyClient with
 * @turnkey/api-key-stamper (node and purejs runtimes), @turnkey/sdk-server, and @turnkey/crypto's checks.
 */
import { p256 } from "@noble/curves/nist.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { computeActivityFingerprint, verifyStampSignature } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection as rejection } from "../support/session-client.js";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let rootUserId: string;
let rootKey: ApiKeyPair;
let clockOffsetMs = 0;

function client(key: ApiKeyPair = rootKey, runtimeOverride?: "node" | "purejs") {
  const stamper = new ApiKeyStamper({
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    ...(runtimeOverride ? { runtimeOverride } : {}),
  });
  return new TurnkeyClient({ baseUrl: server.baseUrl }, stamper);
}

async function activityCount(): Promise<number> {
  return (await client().getActivities({ organizationId, paginationOptions: { limit: "100" } })).activities.length;
}

beforeAll(async () => {
  ({ engine, organizationId, rootUserId, rootKey } = await engineWithOrganization({
    clock: () => Date.now() + clockOffsetMs,
  }));
  server = await serve(engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("@turnkey/http TurnkeyClient with ApiKeyStamper", () => {
  it("answers whoami", async () => {
    expect(await client().getWhoami({ organizationId })).toEqual({
      organizationId,
      organizationName: "Acme",
      userId: rootUserId,
      username: "root",
    });
  });

  for (const runtime of ["node", "purejs"] as const) {
    it(`verifies hundreds of ${runtime} stamps, high-S ones included`, async () => {
      const stamper = new ApiKeyStamper({
        apiPublicKey: rootKey.publicKey,
        apiPrivateKey: rootKey.privateKey,
        runtimeOverride: runtime,
      });
      let highS = 0;
      const counting = {
        stamp: async (payload: string) => {
          const stamp = await stamper.stamp(payload);
          const { signature } = JSON.parse(Buffer.from(stamp.stampHeaderValue, "base64url").toString("utf8")) as {
            signature: string;
          };
          if (p256.Signature.fromBytes(hexToBytes(signature), "der").hasHighS()) highS++;
          return stamp;
        },
      };
      const c = new TurnkeyClient({ baseUrl: server.baseUrl }, counting);
      // 200 distinct bodies: the purejs runtime signs deterministically (RFC 6979), so repeating one body
      // would repeat one signature, high-S or not. About half of unnormalized signatures have a high S.
      const pages = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          c.getActivities({
            organizationId,
            paginationOptions: { limit: String((i % 100) + 1) },
            ...(i >= 100 ? { filterByStatus: ["ACTIVITY_STATUS_COMPLETED" as const] } : {}),
          }),
        ),
      );
      expect(pages.every((page) => Array.isArray(page.activities))).toBe(true);
      expect(highS).toBeGreaterThan(20);
    });
  }

  it("submits an activity whose fingerprint and vote match the stamped body", async () => {
    const c = client();
    const body = {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8" as const,
      timestampMs: String(Date.now()),
      organizationId,
      parameters: subOrganizationParameters("Over HTTP"),
    };
    const signed = await c.stampCreateSubOrganization(body);
    const { activity } = await c.createSubOrganization(body);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.fingerprint).toBe(computeActivityFingerprint(signed.body));
    expect(activity.intent.createSubOrganizationIntentV8).toEqual(body.parameters);
    const vote = activity.votes[0]!;
    expect(vote.message).toBe(signed.body);
    expect(vote.scheme).toBe("SIGNATURE_SCHEME_TK_API_P256");
    expect(vote.publicKey).toBe(rootKey.publicKey);
    expect(await verifyStampSignature(vote.publicKey, vote.signature, vote.message)).toBe(true);

    const fetched = await c.getActivity({ organizationId, activityId: activity.id });
    expect(fetched.activity.id).toBe(activity.id);
    const listed = await c.getActivities({
      organizationId,
      filterByType: ["ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8"],
    });
    expect(listed.activities.map((a) => a.id)).toContain(activity.id);
  });

  it("returns the same activity for a replayed stamped body, and a new one for a new timestamp", async () => {
    const c = client();
    const body = {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8" as const,
      timestampMs: String(Date.now()),
      organizationId,
      parameters: subOrganizationParameters("Replayed"),
    };
    const signed = await c.stampCreateSubOrganization(body);
    const headers = { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue };
    const first = await post(signed.url, signed.body, headers);
    const second = await post(signed.url, signed.body, headers);
    expect(first.status).toBe(200);
    const firstId = (first.json!.activity as { id: string }).id;
    expect((second.json!.activity as { id: string }).id).toBe(firstId);
    const bumped = await c.createSubOrganization({ ...body, timestampMs: String(Number(body.timestampMs) + 1) });
    expect(bumped.activity.id).not.toBe(firstId);
  });

  it("refuses stale and future timestamps without storing anything", async () => {
    const before = await activityCount();
    const c = client();
    for (const timestampMs of [String(Date.now() - 2 * 3600_000), String(Date.now() + 10 * 60_000)]) {
      const error = await rejection(
        c.createSubOrganization({
          type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
          timestampMs,
          organizationId,
          parameters: subOrganizationParameters(),
        }),
      );
      expect(error.code).toBe(3);
      expect(error.message).toMatch(/^Turnkey error 3: timestampMs is too/);
    }
    expect(await activityCount()).toBe(before);
  });

  it("refuses a body that differs from the one stamped", async () => {
    const signed = await client().stampGetWhoami({ organizationId });
    const tampered = signed.body.replace("}", ',"x":1}');
    const response = await post(signed.url, tampered, { "X-Stamp": signed.stamp.stampHeaderValue });
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ code: 16, message: "could not verify api key signature" });
  });

  it("refuses an unknown key with a TurnkeyRequestError carrying code 16 and a TurnkeyErrorDetail", async () => {
    const error = await rejection(client(p256KeyPair()).getWhoami({ organizationId }));
    expect(error.code).toBe(16);
    expect(error.message).toMatch(
      /^Turnkey error 16: could not find public key in organization or its parent organization/,
    );
    const details = error.details as Record<string, unknown>[];
    expect(details[0]?.["@type"]).toBe("type.googleapis.com/errors.v1.TurnkeyErrorDetail");
    expect(reasonOf(error)).toBe("PUBLIC_KEY_NOT_FOUND");
  });

  it("refuses an expired key", async () => {
    const expiring = p256KeyPair();
    const params = subOrganizationParameters("Expiring", expiring);
    params.rootUsers[0]!.apiKeys[0] = {
      ...params.rootUsers[0]!.apiKeys[0]!,
      expirationSeconds: "60",
    } as (typeof params.rootUsers)[0]["apiKeys"][0];
    const { activity } = await client().createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: params,
    });
    const subOrganizationId = (activity.result.createSubOrganizationResultV8 as { subOrganizationId: string })
      .subOrganizationId;
    expect((await client(expiring).getWhoami({ organizationId: subOrganizationId })).organizationId).toBe(
      subOrganizationId,
    );
    clockOffsetMs = 61_000;
    try {
      const error = await rejection(client(expiring).getWhoami({ organizationId: subOrganizationId }));
      expect(error.code).toBe(16);
      expect(reasonOf(error)).toBe("API_KEY_EXPIRED");
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("resolves a sub-organization credential through its parent, and keeps the parent out of the child's writes", async () => {
    const childKey = p256KeyPair();
    const { activity } = await client().createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: subOrganizationParameters("Child", childKey),
    });
    const { subOrganizationId, rootUserIds } = activity.result.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const whoami = await client(childKey).getWhoami({ organizationId });
    expect(whoami).toEqual({
      organizationId: subOrganizationId,
      organizationName: "Child",
      userId: rootUserIds[0],
      username: "Child root",
    });

    // The parent's key reads the child...
    expect((await client().getOrganization({ organizationId: subOrganizationId })).organizationData.name).toBe("Child");
    // ...but cannot write to it, and nothing is stored.
    const error = await rejection(
      client().createSubOrganization({
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
        timestampMs: String(Date.now()),
        organizationId: subOrganizationId,
        parameters: subOrganizationParameters(),
      }),
    );
    // The hosted service answers a write into an organization the key may only read with 400 (code 3).
    expect(error.code).toBe(3);
    expect(error.message).toMatch(/^Turnkey error 3: organization mismatch/);
    expect(reasonOf(error)).toBe("ORGANIZATION_MISMATCH");
    const signed = await client().stampCreateSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId: subOrganizationId,
      parameters: subOrganizationParameters(),
    });
    const raw = await post(signed.url, signed.body, { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue });
    expect(raw.status).toBe(400);
    expect((await client(childKey).getActivities({ organizationId: subOrganizationId })).activities).toEqual([]);
  });

  it("reports validation errors as code 3 naming the field", async () => {
    const error = await rejection(
      client().createSubOrganization({
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { ...subOrganizationParameters(), rootQuorumThreshold: "many" as unknown as number },
      }),
    );
    expect(error.code).toBe(3);
    const badRequest = (error.details as Record<string, unknown>[]).find(
      (d) => d["@type"] === "type.googleapis.com/google.rpc.BadRequest",
    );
    expect(badRequest?.fieldViolations).toEqual([
      { field: "parameters.rootQuorumThreshold", description: expect.any(String) },
    ]);
  });
});

describe("@turnkey/sdk-server", () => {
  it("runs queries and activities through apiClient()", async () => {
    const tk = new Turnkey({
      apiBaseUrl: server.baseUrl,
      apiPublicKey: rootKey.publicKey,
      apiPrivateKey: rootKey.privateKey,
      defaultOrganizationId: organizationId,
    }).apiClient();
    expect((await tk.getWhoami()).userId).toBe(rootUserId);
    const created = await tk.createSubOrganization(subOrganizationParameters("Via sdk-server"));
    expect(created.subOrganizationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.rootUserIds).toHaveLength(1);
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { organizationIds } = await tk.getSubOrgIds({ filterType: "NAME", filterValue: "Via sdk-server" });
    expect(organizationIds).toEqual([created.subOrganizationId]);
  });
});
