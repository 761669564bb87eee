/**
 * Webhook deliveries end to end against real receivers on 127.0.0.1: what is emitted (every activity of an
 * organization and of its sub-organizations, each status change, failures), what is sent (the bare
 * activity, signed the way `@turnkey/crypto` verifies), and how deliveries are retried, given up on and
 * cancelled, without ever holding up a submission.
 */
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Activity, CustodyEngine, CustodyEngineOptions } from "../../src/index.js";
import { CustodyEngine as Engine } from "../../src/index.js";
import { twoOfTwoRootQuorum, walletParameters } from "../support/consensus.js";
import { engineWithOrganization, subOrganizationParameters } from "../support/engine.js";
import {
  type Answer,
  allSettled,
  deferred,
  deliveriesWhen,
  FAST_RETRIES,
  header,
  type Receiver,
  startReceiver,
  verificationKeys,
} from "./receiver.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(answer?: Answer): Promise<Receiver> {
  const started = await startReceiver(answer);
  cleanups.push(() => started.close());
  return started;
}

function insecureOptions(options: CustodyEngineOptions = {}): CustodyEngineOptions {
  return { allowInsecureWebhooks: true, ...options, webhookDelivery: { ...FAST_RETRIES, ...options.webhookDelivery } };
}

async function organization(options: CustodyEngineOptions = {}) {
  const fixture = await engineWithOrganization(insecureOptions(options));
  cleanups.push(() => fixture.engine.close());
  return fixture;
}

async function addEndpoint(as: CustodyEngine, organizationId: string, url: string) {
  const { activity } = await as.createWebhookEndpoint({
    organizationId,
    parameters: { url, name: "hooks", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
  });
  const result = activity.result?.createWebhookEndpointResult as { endpointId: string } | undefined;
  return { activity, endpointId: result?.endpointId as string };
}

/** The activity a delivery carries. */
function activityOf(request: { json: Record<string, unknown> }): Activity {
  return request.json as unknown as Activity;
}

describe("what is delivered", () => {
  it("delivers the activity that created the endpoint and each later one, as the bare activity, signed", async () => {
    const hooks = await receiver();
    const { engine, root, organizationId } = await organization({ webhookDelivery: { concurrency: 1 } });
    const created = await addEndpoint(root, organizationId, hooks.url);
    const wallet = (await root.createWallet({ organizationId, parameters: walletParameters("w") })).activity;

    const [first, second] = await hooks.waitFor(2);
    // Not wrapped: the body is the activity exactly as the submitter's response showed it.
    expect(activityOf(first!)).toEqual(created.activity);
    expect(activityOf(second!)).toEqual(wallet);
    expect(first!.method).toBe("POST");
    expect(header(first!, "content-type")).toBe("application/json");
    expect(header(first!, "x-turnkey-organization-id")).toBe(organizationId);
    expect(header(first!, "x-turnkey-event-type")).toBe("ACTIVITY_UPDATES");
    expect(header(first!, "x-turnkey-webhook-version")).toBe("1");
    expect(header(first!, "x-turnkey-signature-algorithm")).toBe("ed25519");
    expect(header(first!, "x-turnkey-signature-version")).toBe("v1");

    const jwks = await engine.webhookJwks();
    for (const request of [first!, second!]) {
      const verified = verifyTurnkeyWebhookSignature({
        headers: request.headers,
        body: request.body,
        verificationKeys: verificationKeys(jwks),
        maxTimestampAgeMs: 300_000,
      });
      expect(verified).toMatchObject({ ok: true, keyId: jwks.keys[0]!.kid });
    }
    const tampered = Buffer.from(
      first!.body.toString("utf8").replace("ACTIVITY_STATUS_COMPLETED", "ACTIVITY_STATUS_FAILED"),
    );
    expect(
      verifyTurnkeyWebhookSignature({
        headers: first!.headers,
        body: tampered,
        verificationKeys: verificationKeys(jwks),
        maxTimestampAgeMs: 300_000,
      }),
    ).toEqual({ ok: false, reason: "invalid_signature" });

    const deliveries = await deliveriesWhen(engine, organizationId, allSettled);
    expect(deliveries.map((delivery) => [delivery.activityId, delivery.status, delivery.attempts])).toEqual([
      [created.activity.id, "DELIVERED", 1],
      [wallet.id, "DELIVERED", 1],
    ]);
    expect(deliveries.map((delivery) => delivery.id)).toEqual([
      header(first!, "x-turnkey-event-id"),
      header(second!, "x-turnkey-event-id"),
    ]);
  });

  it("delivers a sub-organization's activities to the parent's endpoints; a sub-organization's endpoint gets only its own", async () => {
    const parentHooks = await receiver();
    const subHooks = await receiver();
    const { engine, root, organizationId } = await organization();
    await addEndpoint(root, organizationId, parentHooks.url);
    const sub = (await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters("Child") }))
      .activity;
    const { subOrganizationId, rootUserIds } = sub.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const subRoot = engine.as({ userId: rootUserIds[0]! });
    const subEndpoint = await addEndpoint(subRoot, subOrganizationId, subHooks.url);
    const subWallet = (
      await subRoot.createWallet({ organizationId: subOrganizationId, parameters: walletParameters("s") })
    ).activity;
    const parentWallet = (await root.createWallet({ organizationId, parameters: walletParameters("p") })).activity;

    const toParent = await deliveriesWhen(engine, organizationId, (list) => list.length === 5 && allSettled(list));
    const toSub = await deliveriesWhen(engine, subOrganizationId, (list) => list.length === 2 && allSettled(list));
    const parentRequests = await parentHooks.waitFor(5);
    const subRequests = await subHooks.waitFor(2);

    // The parent hears the activity that made its endpoint, the sub-organization's creation, and everything after.
    expect(new Set(parentRequests.map((r) => activityOf(r).id))).toEqual(
      new Set(toParent.map((delivery) => delivery.activityId)),
    );
    expect(new Set(toParent.map((delivery) => delivery.activityId))).toEqual(
      new Set([toParent[0]!.activityId, sub.id, subEndpoint.activity.id, subWallet.id, parentWallet.id]),
    );
    for (const request of parentRequests) expect(header(request, "x-turnkey-organization-id")).toBe(organizationId);
    const fromSub = parentRequests.filter((r) => activityOf(r).organizationId === subOrganizationId);
    expect(fromSub.map((r) => activityOf(r).id).sort()).toEqual([subEndpoint.activity.id, subWallet.id].sort());

    // The sub-organization's endpoint hears its own organization only.
    expect(subRequests.map((r) => activityOf(r).id).sort()).toEqual([subEndpoint.activity.id, subWallet.id].sort());
    expect(toSub.every((delivery) => delivery.status === "DELIVERED")).toBe(true);
    for (const request of subRequests) expect(header(request, "x-turnkey-organization-id")).toBe(subOrganizationId);
  });

  it("delivers the activity that deletes a sub-organization to the parent's endpoint", async () => {
    const hooks = await receiver();
    const { engine, root, organizationId } = await organization();
    await addEndpoint(root, organizationId, hooks.url);
    const sub = (await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters("Gone") }))
      .activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string; rootUserIds: string[] };
    const deletion = (
      await engine
        .as({ userId: sub.rootUserIds[0]! })
        .deleteSubOrganization({ organizationId: sub.subOrganizationId, parameters: { deleteWithoutExport: true } })
    ).activity;
    expect(deletion.status).toBe("ACTIVITY_STATUS_COMPLETED");

    const deliveries = await deliveriesWhen(engine, organizationId, (list) => list.length === 3 && allSettled(list));
    expect(deliveries[2]).toMatchObject({ activityId: deletion.id, status: "DELIVERED" });
    const received = (await hooks.waitFor(3)).map(activityOf).find((activity) => activity.id === deletion.id);
    expect(received).toMatchObject({
      organizationId: sub.subOrganizationId,
      type: "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION",
    });
  });

  it("delivers to the legacy FEATURE_NAME_WEBHOOK URL on the same path, until the feature is removed", async () => {
    const hooks = await receiver();
    const { engine, root, organizationId } = await organization();
    const set = (
      await root.setOrganizationFeature({
        organizationId,
        parameters: { name: "FEATURE_NAME_WEBHOOK", value: hooks.url },
      })
    ).activity;
    expect(set.result?.setOrganizationFeatureResult).toEqual({
      features: [{ name: "FEATURE_NAME_WEBHOOK", value: hooks.url }],
    });
    const sub = (await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters("Child") }))
      .activity;
    const { subOrganizationId, rootUserIds } = sub.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const subWallet = (
      await engine
        .as({ userId: rootUserIds[0]! })
        .createWallet({ organizationId: subOrganizationId, parameters: walletParameters("s") })
    ).activity;
    const delivered = await deliveriesWhen(engine, organizationId, (list) => list.length === 3 && allSettled(list));
    expect(delivered.every((delivery) => delivery.endpointId === null && delivery.status === "DELIVERED")).toBe(true);
    await root.removeOrganizationFeature({ organizationId, parameters: { name: "FEATURE_NAME_WEBHOOK" } });
    await root.createWallet({ organizationId, parameters: walletParameters("after") });

    // The removal itself and everything after it are not queued: the feature is gone in their transaction.
    const deliveries = await engine.listWebhookDeliveries(organizationId);
    expect(deliveries.map((delivery) => delivery.activityId)).toEqual([set.id, sub.id, subWallet.id]);
    const requests = await hooks.waitFor(3);
    expect(requests.map((r) => activityOf(r).id).sort()).toEqual([set.id, sub.id, subWallet.id].sort());
    for (const request of requests) expect(header(request, "x-turnkey-event-type")).toBe("ACTIVITY_UPDATES");
  });

  it("delivers each status change: consensus needed, approved, rejected", async () => {
    const hooks = await receiver();
    const engine = new Engine(insecureOptions({ webhookDelivery: { concurrency: 1 } }));
    cleanups.push(() => engine.close());
    const { organizationId, a, b } = await twoOfTwoRootQuorum(engine);
    // The endpoint itself needs both root users; it exists from the approval on.
    const endpoint = (await addEndpoint(a, organizationId, hooks.url)).activity;
    expect(endpoint.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    await b.approveActivity({ organizationId, parameters: { fingerprint: endpoint.fingerprint } });
    const approved = (await a.createWallet({ organizationId, parameters: walletParameters("approved") })).activity;
    await b.approveActivity({ organizationId, parameters: { fingerprint: approved.fingerprint } });
    const rejected = (await a.createWallet({ organizationId, parameters: walletParameters("rejected") })).activity;
    await b.rejectActivity({ organizationId, parameters: { fingerprint: rejected.fingerprint } });

    const requests = await hooks.waitFor(8);
    expect(requests.map((r) => [activityOf(r).type, activityOf(r).status])).toEqual([
      ["ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT", "ACTIVITY_STATUS_COMPLETED"],
      ["ACTIVITY_TYPE_APPROVE_ACTIVITY", "ACTIVITY_STATUS_COMPLETED"],
      ["ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_CONSENSUS_NEEDED"],
      ["ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_COMPLETED"],
      ["ACTIVITY_TYPE_APPROVE_ACTIVITY", "ACTIVITY_STATUS_COMPLETED"],
      ["ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_CONSENSUS_NEEDED"],
      ["ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_STATUS_REJECTED"],
      ["ACTIVITY_TYPE_REJECT_ACTIVITY", "ACTIVITY_STATUS_COMPLETED"],
    ]);
    expect(activityOf(requests[2]!).id).toBe(approved.id);
    expect(activityOf(requests[3]!).id).toBe(approved.id);
    expect(activityOf(requests[3]!).votes).toHaveLength(2);
    expect(activityOf(requests[6]!).id).toBe(rejected.id);
    // One event per version: each has an event id of its own.
    expect(new Set(requests.map((r) => header(r, "x-turnkey-event-id"))).size).toBe(8);
  });

  it("delivers a failed activity with its failure", async () => {
    const hooks = await receiver();
    const { engine, root, organizationId } = await organization();
    await addEndpoint(root, organizationId, hooks.url);
    await root.createWallet({ organizationId, parameters: walletParameters("twice") });
    const failure = await root.createWallet({ organizationId, parameters: walletParameters("twice") }).then(
      () => undefined,
      (error: unknown) => error as { details: { activityId: string } },
    );
    expect(failure?.details.activityId).toBeDefined();

    const deliveries = await deliveriesWhen(engine, organizationId, (list) => list.length === 3 && allSettled(list));
    const requests = await hooks.waitFor(3);
    const failed = requests.map(activityOf).find((activity) => activity.id === failure?.details.activityId);
    expect(failed?.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(failed?.failure?.message).toMatch(/twice/);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(["DELIVERED", "DELIVERED", "DELIVERED"]);
  });

  it("queues nothing for an inactive endpoint, and resumes once it is active again", async () => {
    const hooks = await receiver();
    const { engine, root, organizationId } = await organization();
    const { activity: created, endpointId } = await addEndpoint(root, organizationId, hooks.url);
    // Settled first: an event still queued when its endpoint is deactivated is cancelled, not delivered.
    await deliveriesWhen(engine, organizationId, allSettled);
    await root.updateWebhookEndpoint({ organizationId, parameters: { endpointId, isActive: false } });
    await root.createWallet({ organizationId, parameters: walletParameters("quiet") });
    const reactivated = (
      await root.updateWebhookEndpoint({ organizationId, parameters: { endpointId, isActive: true } })
    ).activity;

    const deliveries = await deliveriesWhen(engine, organizationId, allSettled);
    expect(deliveries.map((delivery) => delivery.activityId)).toEqual([created.id, reactivated.id]);
    expect((await hooks.waitFor(2)).map((r) => activityOf(r).id).sort()).toEqual([created.id, reactivated.id].sort());
  });
});

describe("retries", () => {
  it("retries 500s with the same event id and a fresh signature each time, and records every attempt", async () => {
    const hooks = await receiver((_, index) => (index < 2 ? 500 : 200));
    const { engine, root, organizationId } = await organization();
    await addEndpoint(root, organizationId, hooks.url);

    const requests = await hooks.waitFor(3);
    const [delivery] = await deliveriesWhen(engine, organizationId, allSettled);
    expect(delivery).toMatchObject({ status: "DELIVERED", attempts: 3, lastError: null, nextAttemptAtMs: null });
    expect(requests.map((r) => header(r, "x-turnkey-event-id"))).toEqual([delivery!.id, delivery!.id, delivery!.id]);
    expect(new Set(requests.map((r) => r.body.toString("hex"))).size).toBe(1);
    const timestamps = requests.map((r) => Number(header(r, "x-turnkey-timestamp")));
    expect(timestamps[1]).toBeGreaterThan(timestamps[0]!);
    expect(timestamps[2]).toBeGreaterThan(timestamps[1]!);
    expect(new Set(requests.map((r) => header(r, "x-turnkey-signature"))).size).toBe(3);
    const keys = verificationKeys(await engine.webhookJwks());
    for (const request of requests) {
      const verified = verifyTurnkeyWebhookSignature({
        headers: request.headers,
        body: request.body,
        verificationKeys: keys,
        maxTimestampAgeMs: 300_000,
      });
      expect(verified.ok).toBe(true);
    }

    const attempts = await engine.listWebhookAttempts(delivery!.id);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.outcome])).toEqual([
      [1, 500, "RETRY"],
      [2, 500, "RETRY"],
      [3, 200, "DELIVERED"],
    ]);
    expect(attempts.map((attempt) => attempt.timestampMs)).toEqual(timestamps);
    expect(attempts[0]!.url).toBe(hooks.url);
  });

  it("does not retry 400, 429 or a redirect, and never follows the redirect", async () => {
    const elsewhere = await receiver();
    const badRequest = await receiver(() => 400);
    const tooMany = await receiver(() => 429);
    const redirect = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    const { engine, root, organizationId } = await organization();
    await addEndpoint(root, organizationId, badRequest.url);
    await addEndpoint(root, organizationId, tooMany.url);
    await addEndpoint(root, organizationId, redirect.url);

    // Three endpoints: the first hears 3 activities, the second 2, the third 1.
    const deliveries = await deliveriesWhen(engine, organizationId, (list) => list.length === 6 && allSettled(list));
    expect(deliveries.every((delivery) => delivery.status === "FAILED" && delivery.attempts === 1)).toBe(true);
    for (const delivery of deliveries) {
      const attempts = await engine.listWebhookAttempts(delivery.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]!.outcome).toBe("FAILED");
      expect([400, 429, 302]).toContain(attempts[0]!.statusCode);
      expect(delivery.lastError).toMatch(/not retried/);
    }
    expect(badRequest.received).toHaveLength(3);
    expect(tooMany.received).toHaveLength(2);
    expect(redirect.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it("retries network errors and gives up after the maximum number of attempts", async () => {
    const gone = await startReceiver();
    await gone.close();
    const { engine, root, organizationId } = await organization({ webhookDelivery: { maxAttempts: 3 } });
    await addEndpoint(root, organizationId, gone.url);

    const [delivery] = await deliveriesWhen(engine, organizationId, allSettled);
    expect(delivery).toMatchObject({ status: "FAILED", attempts: 3, nextAttemptAtMs: null });
    expect(delivery!.lastError).toMatch(/gave up after 3 attempts/);
    const attempts = await engine.listWebhookAttempts(delivery!.id);
    expect(attempts.map((attempt) => [attempt.statusCode, attempt.outcome])).toEqual([
      [null, "RETRY"],
      [null, "RETRY"],
      [null, "FAILED"],
    ]);
    expect(attempts[0]!.error).toMatch(/ECONNREFUSED/);
  });

  it("gives up on 5xx answers after the maximum number of attempts", async () => {
    const hooks = await receiver(() => 503);
    const { engine, root, organizationId } = await organization({ webhookDelivery: { maxAttempts: 2 } });
    await addEndpoint(root, organizationId, hooks.url);
    const [delivery] = await deliveriesWhen(engine, organizationId, allSettled);
    expect(delivery).toMatchObject({ status: "FAILED", attempts: 2 });
    expect(hooks.received).toHaveLength(2);
  });

  it("counts a receiver that does not answer within the timeout as a retryable failure", async () => {
    const never = deferred<number>();
    const hooks = await receiver(() => never.promise);
    const { engine, root, organizationId } = await organization({ webhookDelivery: { timeoutMs: 50, maxAttempts: 2 } });
    await addEndpoint(root, organizationId, hooks.url);
    const [delivery] = await deliveriesWhen(engine, organizationId, allSettled);
    expect(delivery).toMatchObject({ status: "FAILED", attempts: 2 });
    const attempts = await engine.listWebhookAttempts(delivery!.id);
    expect(attempts.map((attempt) => [attempt.statusCode, attempt.outcome, attempt.error])).toEqual([
      [null, "RETRY", "no answer within 50 ms"],
      [null, "FAILED", "no answer within 50 ms; gave up after 2 attempts"],
    ]);
    expect(hooks.received).toHaveLength(2);
  });

  it("cancels deliveries still queued for an endpoint deleted meanwhile", async () => {
    const gate = deferred<number>();
    const hooks = await receiver((_, index) => (index === 0 ? gate.promise : 200));
    const { engine, root, organizationId } = await organization({ webhookDelivery: { concurrency: 1 } });
    const { endpointId } = await addEndpoint(root, organizationId, hooks.url);
    await hooks.waitFor(1);
    const queued = (await root.createWallet({ organizationId, parameters: walletParameters("late") })).activity;
    await root.deleteWebhookEndpoint({ organizationId, parameters: { endpointId } });
    gate.resolve(200);

    const deliveries = await deliveriesWhen(engine, organizationId, allSettled);
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
      ["DELIVERED", 1],
      ["CANCELLED", 0],
    ]);
    expect(deliveries[1]!.activityId).toBe(queued.id);
    expect(deliveries[1]!.lastError).toMatch(/deleted/);
    expect(hooks.received).toHaveLength(1);
  });
});

describe("submission is never held up by deliveries", () => {
  it("completes submissions while the receiver still holds the first delivery", async () => {
    const gate = deferred<number>();
    const hooks = await receiver((_, index) => (index === 0 ? gate.promise : 200));
    const { engine, root, organizationId } = await organization({
      webhookDelivery: { concurrency: 1, timeoutMs: 120_000 },
    });
    await addEndpoint(root, organizationId, hooks.url);
    await hooks.waitFor(1);

    let released = false;
    const submitted: Activity[] = [];
    for (const name of ["a", "b", "c", "d", "e"]) {
      submitted.push((await root.createWallet({ organizationId, parameters: walletParameters(name) })).activity);
    }
    // Every submission completed while the receiver was still holding the first request.
    expect(released).toBe(false);
    expect(submitted.every((activity) => activity.status === "ACTIVITY_STATUS_COMPLETED")).toBe(true);
    expect(hooks.received).toHaveLength(1);

    released = true;
    gate.resolve(200);
    const requests = await hooks.waitFor(6);
    expect(requests.slice(1).map((r) => activityOf(r).id)).toEqual(submitted.map((activity) => activity.id));
    await deliveriesWhen(engine, organizationId, (list) => list.length === 6 && allSettled(list));
  });
});
