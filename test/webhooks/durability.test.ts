/**
 * Delivery state lives in the store: an engine that stops with deliveries pending (one in flight, one
 * queued after `close()`) leaves them to the next engine on the same store, which sends them with the
 * same event ids and the same signing key. The URL rules are applied again at delivery time.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { afterEach, describe, expect, it } from "vitest";
import { CustodyEngine, MemoryStore } from "../../src/index.js";
import { DataReader, DataWriter, WEBHOOK_QUEUE_SCOPE } from "../../src/model/data.js";
import { FileStore } from "../../src/storage/file/index.js";
import { walletParameters } from "../support/consensus.js";
import { p256KeyPair } from "../support/engine.js";
import {
  allSettled,
  deferred,
  deliveriesWhen,
  FAST_RETRIES,
  header,
  startReceiver,
  verificationKeys,
} from "./receiver.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function bootstrap(engine: CustodyEngine) {
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Durable",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  return { organizationId, root: engine.as({ userId: rootUserIds[0]! }) };
}

describe("durable deliveries", () => {
  it("an engine restarted on the same FileStore delivers what the first one left pending", async () => {
    const directory = mkdtempSync(join(tmpdir(), "custodian-webhooks-"));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const keyEncryptionKey = randomBytes(32);
    const held = deferred<number>();
    const hooks = await startReceiver((_, index) => (index === 0 ? held.promise : 200));
    cleanups.push(() => hooks.close());
    const options = { keyEncryptionKey, allowInsecureWebhooks: true, webhookDelivery: FAST_RETRIES };

    const firstStore = await FileStore.open(directory);
    const first = new CustodyEngine({ store: firstStore, ...options });
    const { organizationId, root } = await bootstrap(first);
    const created = (
      await root.createWebhookEndpoint({
        organizationId,
        parameters: { url: hooks.url, name: "hooks", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
      })
    ).activity;
    const [inFlight] = await hooks.waitFor(1);
    const firstKid = (await first.webhookJwks()).keys[0]!.kid;

    // Closing abandons the attempt in flight (unrecorded) and dispatches nothing more.
    await first.close();
    await inFlight!.closed;
    const queuedAfterClose = (await root.createWallet({ organizationId, parameters: walletParameters("later") }))
      .activity;
    const pending = await first.listWebhookDeliveries(organizationId);
    expect(pending.map((delivery) => [delivery.activityId, delivery.status, delivery.attempts])).toEqual([
      [created.id, "PENDING", 0],
      [queuedAfterClose.id, "PENDING", 0],
    ]);
    await firstStore.close();
    held.resolve(200);

    const secondStore = await FileStore.open(directory);
    cleanups.push(() => secondStore.close());
    const second = new CustodyEngine({ store: secondStore, ...options });
    cleanups.push(() => second.close());
    await second.open();

    const deliveries = await deliveriesWhen(second, organizationId, allSettled);
    expect(deliveries.map((delivery) => [delivery.id, delivery.status, delivery.attempts])).toEqual([
      [pending[0]!.id, "DELIVERED", 1],
      [pending[1]!.id, "DELIVERED", 1],
    ]);
    const requests = await hooks.waitFor(3);
    expect(requests).toHaveLength(3);
    const resent = requests.find(
      (request, index) => index > 0 && header(request, "x-turnkey-event-id") === pending[0]!.id,
    );
    expect(resent?.body.equals(inFlight!.body)).toBe(true);

    // The signing key was kept (sealed) in the store: the same key id, and the first engine's deliveries verify too.
    const jwks = await second.webhookJwks();
    expect(jwks.keys[0]!.kid).toBe(firstKid);
    for (const request of requests) {
      expect(
        verifyTurnkeyWebhookSignature({
          headers: request.headers,
          body: request.body,
          verificationKeys: verificationKeys(jwks),
          maxTimestampAgeMs: 300_000,
        }).ok,
      ).toBe(true);
    }
  });

  it("an engine made with deliverWebhooks: false queues deliveries and sends none; one that delivers sends them", async () => {
    const hooks = await startReceiver();
    cleanups.push(() => hooks.close());
    const store = new MemoryStore();
    const keyEncryptionKey = randomBytes(32);
    const options = { keyEncryptionKey, allowInsecureWebhooks: true, webhookDelivery: FAST_RETRIES };
    const reader = new CustodyEngine({ store, ...options, deliverWebhooks: false });
    const { organizationId, root } = await bootstrap(reader);
    const created = (
      await root.createWebhookEndpoint({
        organizationId,
        parameters: { url: hooks.url, name: "hooks", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
      })
    ).activity;
    await reader.close();
    expect(
      (await reader.listWebhookDeliveries(organizationId)).map((d) => [d.activityId, d.status, d.attempts]),
    ).toEqual([[created.id, "PENDING", 0]]);
    expect(hooks.received).toEqual([]);

    const sender = new CustodyEngine({ store, ...options });
    cleanups.push(() => sender.close());
    await sender.open();
    const [delivery] = await deliveriesWhen(sender, organizationId, allSettled);
    expect(delivery).toMatchObject({ activityId: created.id, status: "DELIVERED", attempts: 1 });
    expect(await hooks.waitFor(1)).toHaveLength(1);
  });

  it("delivers what a store-wide queue of an earlier build holds, and drops its entries for settled deliveries", async () => {
    const hooks = await startReceiver();
    cleanups.push(() => hooks.close());
    const store = new MemoryStore();
    const keyEncryptionKey = randomBytes(32);
    const options = { keyEncryptionKey, allowInsecureWebhooks: true, webhookDelivery: FAST_RETRIES };
    const writer = new CustodyEngine({ store, ...options, deliverWebhooks: false });
    const { organizationId, root } = await bootstrap(writer);
    await root.createWebhookEndpoint({
      organizationId,
      parameters: { url: hooks.url, name: "hooks", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
    });
    await root.createWallet({ organizationId, parameters: walletParameters("queued") });
    await writer.close();
    // The earlier layout: one store-wide queue, no per-organization queues or heads; plus an entry whose
    // delivery is gone.
    await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      for (const entry of await data.listAll("webhookQueueEntries", organizationId)) {
        await data.delete("webhookQueueEntries", entry.id);
        await data.put("webhookQueue", { id: entry.id, eventId: entry.eventId, dueAtMs: entry.dueAtMs });
      }
      for (const head of await data.listAll("webhookQueueHeads", WEBHOOK_QUEUE_SCOPE)) {
        await data.delete("webhookQueueHeads", head.id);
      }
      await data.put("webhookQueue", { id: "0000000000000001:gone", eventId: "gone", dueAtMs: 1 });
    });

    const sender = new CustodyEngine({ store, ...options });
    cleanups.push(() => sender.close());
    await sender.open();
    const deliveries = await deliveriesWhen(sender, organizationId, (list) => list.length === 2 && allSettled(list));
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
      ["DELIVERED", 1],
      ["DELIVERED", 1],
    ]);
    expect(await hooks.waitFor(2)).toHaveLength(2);
    const left = await store.read(async (reader) => {
      const data = new DataReader(reader);
      return [
        ...(await data.listAll("webhookQueue", WEBHOOK_QUEUE_SCOPE)),
        ...(await data.listAll("webhookQueueEntries", organizationId)),
        ...(await data.listAll("webhookQueueHeads", WEBHOOK_QUEUE_SCOPE)),
      ];
    });
    expect(left).toEqual([]);
  });

  it("applies the URL rules again at delivery: a store reopened without allowInsecureWebhooks fails the delivery", async () => {
    const held = deferred<number>();
    const hooks = await startReceiver(() => held.promise);
    cleanups.push(() => hooks.close());
    const store = new MemoryStore();
    const keyEncryptionKey = randomBytes(32);
    const lenient = new CustodyEngine({ store, keyEncryptionKey, allowInsecureWebhooks: true });
    const { organizationId, root } = await bootstrap(lenient);
    await root.createWebhookEndpoint({
      organizationId,
      parameters: { url: hooks.url, name: "hooks", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
    });
    await hooks.waitFor(1);
    await lenient.close();

    const strict = new CustodyEngine({ store, keyEncryptionKey });
    cleanups.push(() => strict.close());
    await strict.open();
    const [delivery] = await deliveriesWhen(strict, organizationId, allSettled);
    expect(delivery).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(delivery!.lastError).toMatch(/https/);
    const [attempt] = await strict.listWebhookAttempts(delivery!.id);
    expect(attempt).toMatchObject({ statusCode: null, outcome: "FAILED" });
    expect(hooks.received).toHaveLength(1);
    held.resolve(200);
  });
});
