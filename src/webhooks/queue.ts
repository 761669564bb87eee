/**
 * The delivery queues: one per receiving organization (the owner of the endpoint or legacy webhook feature),
 * ordered by due time, and a head per organization with queued deliveries, all heads in one scope ordered by
 * their earliest due time. The dispatcher reads the due heads to learn which organizations have work, then
 * takes from each organization's own queue up to that organization's share of its slots, so an organization
 * whose receivers are slow waits behind its own deliveries and nobody else's. Every write that changes an
 * organization's queue keeps its head right in the same transaction.
 *
 * @module
 */
import { type DataReader, DataWriter, WEBHOOK_QUEUE_SCOPE } from "../model/data.js";
import type { WebhookQueueEntryRecord, WebhookQueueHeadRecord } from "../model/records.js";
import type { Store } from "../storage/store.js";

/** The collection of queued deliveries, scoped by receiving organization. */
export const QUEUE_ENTRIES = "webhookQueueEntries";

/** The collection of queue heads, in {@link WEBHOOK_QUEUE_SCOPE}. */
export const QUEUE_HEADS = "webhookQueueHeads";

/** An id that sorts by due time first (zero-padded), then by `id`. */
export function queueKey(dueAtMs: number, id: string): string {
  return `${String(Math.max(0, Math.floor(dueAtMs))).padStart(16, "0")}:${id}`;
}

/** The exclusive upper bound of ids due at or before `now`. */
export function dueBy(now: number): string {
  return queueKey(now + 1, "");
}

/** Queues delivery `eventId` of `organizationId`, due at `dueAtMs`. */
export async function enqueue(
  data: DataWriter,
  organizationId: string,
  eventId: string,
  dueAtMs: number,
): Promise<void> {
  await data.put(QUEUE_ENTRIES, { id: queueKey(dueAtMs, eventId), eventId, dueAtMs, organizationId });
  // Only an earlier head moves: a new entry due later than the head leaves it where it is.
  const head = await data.lookup("webhookQueueHeadByOrganization", organizationId);
  const wanted = queueKey(dueAtMs, organizationId);
  if (head !== undefined && head <= wanted) return;
  if (head !== undefined) await data.delete(QUEUE_HEADS, head);
  await data.put(QUEUE_HEADS, { id: wanted, organizationId, dueAtMs });
}

/**
 * Takes delivery `eventId` of `organizationId` off its queue entry due at `dueAtMs` (if any) and queues it
 * again at `nextDueAtMs` (unless null), with the organization's head following.
 */
export async function requeue(
  data: DataWriter,
  organizationId: string,
  eventId: string,
  dueAtMs: number | null,
  nextDueAtMs: number | null,
): Promise<void> {
  if (dueAtMs !== null) await data.delete(QUEUE_ENTRIES, queueKey(dueAtMs, eventId));
  if (nextDueAtMs !== null) {
    await data.put(QUEUE_ENTRIES, {
      id: queueKey(nextDueAtMs, eventId),
      eventId,
      dueAtMs: nextDueAtMs,
      organizationId,
    });
  }
  await refreshHead(data, organizationId);
}

/** Drops a queue entry and moves its organization's head to what is left. */
export async function dropEntry(data: DataWriter, entry: WebhookQueueEntryRecord): Promise<void> {
  await data.delete(QUEUE_ENTRIES, entry.id);
  await refreshHead(data, entry.organizationId);
}

/** Points the organization's head at its earliest queued delivery, or removes it when none is left. */
async function refreshHead(data: DataWriter, organizationId: string): Promise<void> {
  const [first] = await data.list(QUEUE_ENTRIES, organizationId, { limit: 1 });
  const head = await data.lookup("webhookQueueHeadByOrganization", organizationId);
  const wanted = first === undefined ? undefined : queueKey(first.dueAtMs, organizationId);
  if (head === wanted) return;
  if (head !== undefined) await data.delete(QUEUE_HEADS, head);
  if (first !== undefined && wanted !== undefined) {
    await data.put(QUEUE_HEADS, { id: wanted, organizationId, dueAtMs: first.dueAtMs });
  }
}

/** The heads due by `now`, earliest first: the organizations that have a delivery due. */
export function dueHeads(data: DataReader, now: number, limit: number): Promise<WebhookQueueHeadRecord[]> {
  return data.list(QUEUE_HEADS, WEBHOOK_QUEUE_SCOPE, { before: dueBy(now), limit });
}

/** The earliest head due after `now`, if any. */
export async function nextHeadAfter(data: DataReader, now: number): Promise<WebhookQueueHeadRecord | undefined> {
  const [next] = await data.list(QUEUE_HEADS, WEBHOOK_QUEUE_SCOPE, { after: dueBy(now), limit: 1 });
  return next;
}

/** The earliest delivery of `organizationId` due after `now`, if any. */
export async function nextEntryAfter(
  data: DataReader,
  organizationId: string,
  now: number,
): Promise<WebhookQueueEntryRecord | undefined> {
  const [next] = await data.list(QUEUE_ENTRIES, organizationId, { after: dueBy(now), limit: 1 });
  return next;
}

/** Entries moved per transaction when adopting a store-wide queue. */
const ADOPTION_PAGE = 100;

/**
 * Moves the entries of a store-wide queue (see `StoreWideQueueRecord`) into the per-organization queues,
 * dropping those whose delivery is no longer pending at that time. Idempotent, and one `list` when there
 * is nothing to move.
 */
export async function adoptStoreWideQueue(store: Store): Promise<void> {
  for (;;) {
    const moved = await store.transaction(async (tx) => {
      const data = new DataWriter(tx);
      const page = await data.list("webhookQueue", WEBHOOK_QUEUE_SCOPE, { limit: ADOPTION_PAGE });
      for (const entry of page) {
        await data.delete("webhookQueue", entry.id);
        const delivery = await data.get("webhookDeliveries", entry.eventId);
        if (delivery?.status === "PENDING" && delivery.nextAttemptAtMs === entry.dueAtMs) {
          await enqueue(data, delivery.organizationId, delivery.id, entry.dueAtMs);
        }
      }
      return page.length;
    });
    if (moved < ADOPTION_PAGE) return;
  }
}
