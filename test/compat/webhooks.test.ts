/**
 * Webhooks through the HTTP adapter with the official clients, unchanged (test plan item 14): endpoints and
 * the legacy feature are managed with @turnkey/sdk-server and @turnkey/http; a local receiver gets
 * `ACTIVITY_UPDATES` for the organization and its sub-organization; every delivery verifies with
 * `@turnkey/crypto`'s `verifyTurnkeyWebhookSignature` using the keys fetched, unauthenticated, from
 * `GET /public/v1/discovery/webhooks/jwks`, and a tampered body does not.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchHandler } from "../../src/http.js";
import type { Activity, CustodyEngine, WebhookJwks } from "../../src/index.js";
import { walletParameters } from "../support/consensus.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import {
  allSettled,
  deliveriesWhen,
  header,
  type Receiver,
  startReceiver,
  verificationKeys,
} from "../webhooks/receiver.js";

const JWKS_PATH = "/public/v1/discovery/webhooks/jwks";
const CACHE_CONTROL = "public, max-age=86400, s-maxage=86400, stale-if-error=604800";

let engine: CustodyEngine;
let server: RunningServer;
let endpointHooks: Receiver;
let featureHooks: Receiver;
let organizationId: string;
let rootKey: ApiKeyPair;

function sdk(key: ApiKeyPair, defaultOrganizationId: string) {
  return new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId,
  }).apiClient();
}

function client(key: ApiKeyPair) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
}

async function fetchJwks(): Promise<{ response: Response; jwks: WebhookJwks }> {
  const response = await fetch(`${server.baseUrl}${JWKS_PATH}`);
  return { response, jwks: (await response.json()) as WebhookJwks };
}

function verify(
  request: { headers: Record<string, string | string[] | undefined>; body: Uint8Array },
  jwks: WebhookJwks,
) {
  return verifyTurnkeyWebhookSignature({
    headers: request.headers,
    body: request.body,
    verificationKeys: verificationKeys(jwks),
    maxTimestampAgeMs: 300_000,
  });
}

beforeAll(async () => {
  endpointHooks = await startReceiver();
  featureHooks = await startReceiver();
  ({ engine, organizationId, rootKey } = await engineWithOrganization({ allowInsecureWebhooks: true }));
  server = await serve(engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await engine.close();
  await server.close();
  await endpointHooks.close();
  await featureHooks.close();
});

describe("the webhook JWKS over HTTP", () => {
  it("is served to a GET without a stamp, in the documented shape and with the documented Cache-Control", async () => {
    const { response, jwks } = await fetchJwks();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(jwks).toEqual(await engine.webhookJwks());
    expect(jwks.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
  });

  it("is served by the fetch handler too, and answers other methods with 405", async () => {
    const handler = createFetchHandler(engine);
    const response = await handler(new Request(`http://custodian.test${JWKS_PATH}`));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(await response.json()).toEqual(await engine.webhookJwks());
    const post = await fetch(`${server.baseUrl}${JWKS_PATH}`, { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, OPTIONS");
  });
});

describe("deliveries to endpoints and the legacy feature, managed with the official clients", () => {
  it("delivers the organization's and its sub-organization's activities, each verifying with the fetched JWKS", async () => {
    const tk = sdk(rootKey, organizationId);
    const created = await tk.createWebhookEndpoint({
      name: "Activity updates",
      url: endpointHooks.url,
      subscriptions: [{ eventType: "ACTIVITY_UPDATES" }],
    });
    expect(created.webhookEndpoint).toMatchObject({
      endpointId: created.endpointId,
      url: endpointHooks.url,
      isActive: true,
    });
    expect((await tk.listWebhookEndpoints({})).webhookEndpoints.map((e) => e.endpointId)).toEqual([created.endpointId]);

    const feature = await client(rootKey).setOrganizationFeature({
      type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { name: "FEATURE_NAME_WEBHOOK", value: featureHooks.url },
    });
    expect(feature.activity.result.setOrganizationFeatureResult?.features).toEqual([
      { name: "FEATURE_NAME_WEBHOOK", value: featureHooks.url },
    ]);
    expect((await client(rootKey).getOrganization({ organizationId })).organizationData.features).toEqual([
      { name: "FEATURE_NAME_WEBHOOK", value: featureHooks.url },
    ]);

    const subKey = p256KeyPair();
    const sub = await tk.createSubOrganization(subOrganizationParameters("Child", subKey));
    const subWallet = await sdk(subKey, sub.subOrganizationId).createWallet(walletParameters("child wallet"));

    // Endpoint: its own creation, the feature, the sub-organization, the sub-organization's wallet.
    const expected = [created.activity.id, feature.activity.id, sub.activity.id, subWallet.activity.id];
    const toEndpoint = await endpointHooks.waitFor(4);
    expect(toEndpoint.map((r) => (r.json as unknown as Activity).id).sort()).toEqual([...expected].sort());
    // Feature: from the activity that set it on.
    const toFeature = await featureHooks.waitFor(3);
    expect(toFeature.map((r) => (r.json as unknown as Activity).id).sort()).toEqual(expected.slice(1).sort());

    const { jwks } = await fetchJwks();
    for (const request of [...toEndpoint, ...toFeature]) {
      expect(verify(request, jwks)).toMatchObject({ ok: true, eventId: header(request, "x-turnkey-event-id") });
      expect(header(request, "x-turnkey-organization-id")).toBe(organizationId);
    }
    const fromSub = toEndpoint.find((r) => (r.json as unknown as Activity).id === subWallet.activity.id)!;
    expect((fromSub.json as unknown as Activity).organizationId).toBe(sub.subOrganizationId);
    expect(fromSub.json).toEqual(subWallet.activity);

    const tampered = {
      ...fromSub,
      body: Buffer.from(fromSub.body.toString("utf8").replace("child wallet", "other wallet")),
    };
    expect(verify(tampered, jwks)).toEqual({ ok: false, reason: "invalid_signature" });

    const deliveries = await deliveriesWhen(engine, organizationId, (list) => list.length === 7 && allSettled(list));
    expect(deliveries.every((delivery) => delivery.status === "DELIVERED")).toBe(true);
  });
});
