/**
 * The outbox decorator: deliveries are written in the transaction that writes the activity, with the
 * activity's final state in it, and vanish with it when it rolls back. The dispatcher is woken only after
 * a commit that queued something.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/index.js";
import { DataReader, DataWriter, WEBHOOK_QUEUE_SCOPE } from "../../src/model/data.js";
import type { ActivityRecord, OrganizationRecord } from "../../src/model/records.js";
import { OutboxStore } from "../../src/webhooks/outbox-store.js";

const NOW = Date.UTC(2026, 0, 1);

function organization(id: string, parentOrganizationId: string | null, webhookUrl?: string): OrganizationRecord {
  return {
    id,
    name: id,
    parentOrganizationId,
    rootQuorum: { threshold: 1, userIds: [] },
    features: webhookUrl ? [{ name: "FEATURE_NAME_WEBHOOK", value: webhookUrl }] : [],
    settings: {},
    createdAtMs: NOW,
    updatedAtMs: NOW,
  };
}

function activity(id: string, organizationId: string, status: ActivityRecord["status"]): ActivityRecord {
  return {
    id,
    organizationId,
    status,
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    operation: "create_wallet",
    intent: { createWalletIntent: {} },
    result: null,
    votes: [],
    fingerprint: `sha256:${id}`,
    timestampMs: String(NOW),
    failure: null,
    createdAtMs: NOW,
    updatedAtMs: NOW,
  };
}

async function setup() {
  const inner = new MemoryStore();
  await inner.transaction(async (tx) => {
    const data = new DataWriter(tx);
    await data.put("organizations", organization("parent", null, "https://hooks.example.com/parent"));
    await data.put("organizations", organization("child", "parent"));
    await data.put("organizations", organization("quiet", null));
    await data.put("webhookEndpoints", {
      id: "endpoint-child",
      organizationId: "child",
      url: "https://hooks.example.com/child",
      name: "child",
      isActive: true,
      subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: null, isActive: true }],
      createdAtMs: NOW,
      updatedAtMs: NOW,
    });
  });
  let next = 0;
  const wakes: number[] = [];
  const store = new OutboxStore(inner, {
    context: () => ({ now: NOW, newId: () => `event-${++next}` }),
    committed: () => wakes.push(next),
  });
  const state = () =>
    inner.read(async (reader) => {
      const data = new DataReader(reader);
      return {
        parent: await data.listAll("webhookDeliveries", "parent"),
        child: await data.listAll("webhookDeliveries", "child"),
        quiet: await data.listAll("webhookDeliveries", "quiet"),
        // Each receiving organization's queue, and the heads that say which organizations have queued work.
        queue: [
          ...(await data.listAll("webhookQueueEntries", "parent")),
          ...(await data.listAll("webhookQueueEntries", "child")),
          ...(await data.listAll("webhookQueueEntries", "quiet")),
        ],
        heads: await data.listAll("webhookQueueHeads", WEBHOOK_QUEUE_SCOPE),
      };
    });
  return { store, wakes, state };
}

describe("OutboxStore", () => {
  it("queues one delivery per receiver up the organization chain, with the activity's final state", async () => {
    const { store, wakes, state } = await setup();
    await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      await data.put("activities", activity("a1", "child", "ACTIVITY_STATUS_CONSENSUS_NEEDED"));
      await data.put("activities", activity("a1", "child", "ACTIVITY_STATUS_COMPLETED"));
    });
    const { parent, child, queue, heads } = await state();
    // The child's endpoint and the parent's legacy feature: one version, one event each.
    expect(child.map((d) => [d.id, d.endpointId, d.activityId])).toEqual([["event-1", "endpoint-child", "a1"]]);
    expect(parent.map((d) => [d.id, d.endpointId, d.activityId])).toEqual([["event-2", null, "a1"]]);
    for (const delivery of [...child, ...parent]) {
      expect(JSON.parse(delivery.body)).toMatchObject({
        id: "a1",
        status: "ACTIVITY_STATUS_COMPLETED",
        canApprove: false,
      });
      expect(delivery).toMatchObject({
        status: "PENDING",
        attempts: 0,
        nextAttemptAtMs: NOW,
        eventType: "ACTIVITY_UPDATES",
      });
    }
    expect(queue.map((entry) => [entry.organizationId, entry.eventId, entry.dueAtMs])).toEqual([
      ["parent", "event-2", NOW],
      ["child", "event-1", NOW],
    ]);
    expect(heads.map((head) => [head.organizationId, head.dueAtMs])).toEqual([
      ["child", NOW],
      ["parent", NOW],
    ]);
    expect(wakes).toEqual([2]);
  });

  it("leaves nothing behind when the transaction rolls back, and wakes no one", async () => {
    const { store, wakes, state } = await setup();
    await expect(
      store.transaction(async (tx) => {
        await new DataWriter(tx).put("activities", activity("a2", "parent", "ACTIVITY_STATUS_COMPLETED"));
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect(await state()).toEqual({ parent: [], child: [], quiet: [], queue: [], heads: [] });
    expect(wakes).toEqual([]);
  });

  it("queues nothing for an organization without receivers, nor for transactions without activities", async () => {
    const { store, wakes, state } = await setup();
    await store.transaction(async (tx) => {
      await new DataWriter(tx).put("activities", activity("a3", "quiet", "ACTIVITY_STATUS_COMPLETED"));
    });
    await store.transaction(async (tx) => {
      await new DataWriter(tx).put("meta", { id: "x", value: "y" });
    });
    expect(await state()).toEqual({ parent: [], child: [], quiet: [], queue: [], heads: [] });
    expect(wakes).toEqual([]);
  });

  it("a sub-organization's endpoint does not hear its parent", async () => {
    const { store, state } = await setup();
    await store.transaction(async (tx) => {
      await new DataWriter(tx).put("activities", activity("a4", "parent", "ACTIVITY_STATUS_COMPLETED"));
    });
    const { parent, child } = await state();
    expect(parent.map((d) => d.activityId)).toEqual(["a4"]);
    expect(child).toEqual([]);
  });

  it("still reaches the parent with the activity that deletes a sub-organization", async () => {
    const { store, state } = await setup();
    await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      await data.delete("organizations", "child");
      await data.put("activities", activity("a5", "child", "ACTIVITY_STATUS_COMPLETED"));
    });
    const { parent, child } = await state();
    expect(parent.map((d) => d.activityId)).toEqual(["a5"]);
    expect(child).toEqual([]);
  });
});
