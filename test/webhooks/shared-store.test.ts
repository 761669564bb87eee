/**
 * Several engines on one PostgreSQL schema share one webhook outbox. Each dispatcher takes due deliveries
 * under a lease in its own name (Store.claim), so an event is sent by one engine at a time: with healthy
 * engines every event arrives once. An engine that stops hands back what it held; one that dies keeps its
 * leases until they end, and then another engine sends the delivery (with the same event id: at least once).
 * On the machine's server when CUSTODIAN_PG_URL is set, else on PGlite.
 */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { CustodyEngine, type CustodyEngineOptions } from "../../src/index.js";
import { PostgresStore } from "../../src/storage/postgres/index.js";
import { walletParameters } from "../support/consensus.js";
import { p256KeyPair } from "../support/engine.js";
import { postgresKind, testDatabase } from "../support/postgres.js";
import { allSettled, deferred, deliveriesWhen, header, startReceiver } from "./receiver.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Short leases, so an engine looks at the queue every 250 ms and a dead engine's lease ends within a second. */
const SHARED = { initialBackoffMs: 5, maxBackoffMs: 20, timeoutMs: 900, leaseMs: 1_000 } as const;

/** A fresh schema and key-encryption key; `open` adds one more engine on them. */
async function sharedSchema() {
  const { connection, schema } = await testDatabase();
  const keyEncryptionKey = randomBytes(32);
  return {
    /** Open engines one at a time: the first creates the sealed keys (webhook signing key too), the others find them. */
    async open(options: CustodyEngineOptions = {}) {
      const store = await PostgresStore.open(connection, { schema });
      const engine = new CustodyEngine({
        store,
        keyEncryptionKey,
        allowInsecureWebhooks: true,
        webhookDelivery: SHARED,
        ...options,
      });
      cleanups.push(async () => {
        await engine.close();
        await store.close();
      });
      await engine.open();
      return { engine, store };
    },
  };
}

async function organization(engine: CustodyEngine) {
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Shared",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  return { organizationId, userId: rootUserIds[0] as string };
}

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const hooks = await startReceiver(answer);
  cleanups.push(() => hooks.close());
  return hooks;
}

function endpoint(url: string) {
  return { url, name: "hooks", subscriptions: [{ eventType: "ACTIVITY_UPDATES" as const }] };
}

// Generous: PGlite takes seconds to start on a busy machine, and runs one transaction at a time.
describe(`engines sharing one PostgreSQL schema (${postgresKind}): the webhook outbox`, { timeout: 120_000 }, () => {
  it("sends each event once while both engines submit and dispatch", async () => {
    const hooks = await receiver();
    const shared = await sharedSchema();
    // Leases long enough to cover an attempt and its recording on a loaded machine: a lease that ends while
    // its holder is still at work lets a second engine send the event again (still at least once, not once).
    const long = { webhookDelivery: { ...SHARED, leaseMs: 30_000 } };
    const a = await shared.open(long);
    const b = await shared.open(long);
    const { organizationId, userId } = await organization(a.engine);
    await a.engine.as({ userId }).createWebhookEndpoint({ organizationId, parameters: endpoint(hooks.url) });
    // Both engines submit at once; each wakes its own dispatcher, and both dispatchers claim from one queue.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? a : b).engine
          .as({ userId })
          .createWallet({ organizationId, parameters: walletParameters(`w${i}`) }),
      ),
    );
    const deliveries = await deliveriesWhen(b.engine, organizationId, (list) => list.length === 7 && allSettled(list));
    expect(deliveries.every((delivery) => delivery.status === "DELIVERED" && delivery.attempts === 1)).toBe(true);
    const received = hooks.received.map((request) => header(request, "x-turnkey-event-id"));
    expect(received.sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());
  });

  it("sends a delivery that a stopping engine abandoned from the other engine, with the same event id", async () => {
    const held = deferred<number>();
    const hooks = await receiver((_, index) => (index === 0 ? held.promise : 200));
    cleanups.push(() => held.resolve(200));
    const shared = await sharedSchema();
    const a = await shared.open({ webhookDelivery: { ...SHARED, leaseMs: 60_000 } });
    const b = await shared.open();
    const { organizationId, userId } = await organization(a.engine);
    const created = await a.engine
      .as({ userId })
      .createWebhookEndpoint({ organizationId, parameters: endpoint(hooks.url) });
    const [first] = await hooks.waitFor(1);
    // The engine holding it stops: the attempt is cut short, unrecorded, and its 60 s lease handed back.
    await a.engine.close();
    await first?.closed;
    const [, again] = await hooks.waitFor(2);
    expect(header(again!, "x-turnkey-event-id")).toBe(header(first!, "x-turnkey-event-id"));
    const [delivery] = await deliveriesWhen(b.engine, organizationId, allSettled);
    expect([delivery?.activityId, delivery?.status, delivery?.attempts]).toEqual([created.activity.id, "DELIVERED", 1]);
  });

  it("sends a dead engine's delivery once its lease has ended, and not before", async () => {
    const hooks = await receiver();
    const shared = await sharedSchema();
    // This engine only queues: it never dispatches.
    const a = await shared.open({ deliverWebhooks: false });
    const { organizationId, userId } = await organization(a.engine);
    const created = await a.engine
      .as({ userId })
      .createWebhookEndpoint({ organizationId, parameters: endpoint(hooks.url) });
    // What a dispatcher killed mid-attempt leaves behind: the delivery leased in its name, never settled.
    const leaseEnds = Date.now() + 1_500;
    const taken = await a.store.claim("webhookQueueEntries", organizationId, {
      owner: "dispatcher-killed",
      now: Date.now(),
      until: leaseEnds,
      limit: 10,
    });
    expect(taken).toHaveLength(1);
    // A surviving engine looks every 250 ms, and sends the delivery only once the lease has ended.
    await shared.open();
    const [request] = await hooks.waitFor(1);
    expect(Date.now()).toBeGreaterThanOrEqual(leaseEnds);
    expect(request).toBeDefined();
    const [delivery] = await deliveriesWhen(a.engine, organizationId, allSettled);
    expect([delivery?.activityId, delivery?.status, delivery?.attempts]).toEqual([created.activity.id, "DELIVERED", 1]);
  });
});
