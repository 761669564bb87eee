/**
 * The webhook outbox: one delivery record per (receiver, activity version), written in the transaction that
 * wrote the activity, plus its entry in the receiving organization's queue (see `queue.ts`). Delivery state
 * changes (an attempt's outcome, a cancellation) move a delivery and its queue entry together.
 *
 * @module
 */

import { balanceEventType, balanceWebhookBody } from "../chains/balance-updates.js";
import { sendStatusWebhookBody } from "../chains/send-status.js";
import type { DataWriter } from "../model/data.js";
import type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookQueueEntryRecord } from "../model/records.js";
import { renderActivity } from "../model/render.js";
import { dropEntry, enqueue, requeue } from "./queue.js";
import {
  ACTIVITY_UPDATES,
  activityUpdateTargets,
  SEND_TRANSACTION_STATUS_UPDATES,
  sendStatusTargets,
  subscribedTargets,
  type WebhookTarget,
} from "./targets.js";

/** The id of an attempt record: attempts of one event sort in order. */
export function attemptKey(eventId: string, attempt: number): string {
  return `${eventId}:${String(attempt).padStart(6, "0")}`;
}

/** What enqueueing needs from the engine. */
export interface EnqueueContext {
  readonly now: number;
  readonly newId: () => string;
}

/** What a transaction wrote that decides its deliveries. */
export interface TransactionActivity {
  /** Activities written, in first-write order. */
  readonly activityIds: Iterable<string>;
  /** Organizations deleted, with their parents (see {@link activityUpdateTargets}). */
  readonly removedParents: ReadonlyMap<string, string | null>;
}

/**
 * Queues an `ACTIVITY_UPDATES` event for each receiver of each activity's organization chain, with the
 * activity as it stands in this transaction. Returns how many deliveries were queued.
 */
export async function enqueueActivityUpdates(
  data: DataWriter,
  written: TransactionActivity,
  context: EnqueueContext,
): Promise<number> {
  const targetsByOrganization = new Map<string, WebhookTarget[]>();
  let queued = 0;
  for (const activityId of written.activityIds) {
    const activity = await data.get("activities", activityId);
    if (!activity) continue;
    let targets = targetsByOrganization.get(activity.organizationId);
    if (targets === undefined) {
      targets = await activityUpdateTargets(data, activity.organizationId, written.removedParents);
      targetsByOrganization.set(activity.organizationId, targets);
    }
    if (targets.length === 0) continue;
    // The bare activity (no viewer, so canApprove/canReject are false), rendered once for every receiver.
    const body = JSON.stringify(await renderActivity(data, activity));
    for (const target of targets) {
      await queueDelivery(data, target, { eventType: ACTIVITY_UPDATES, activityId: activity.id, body }, context);
      queued++;
    }
  }
  return queued;
}

/** Writes a pending delivery of one event to one receiver, due now, and its queue entry. */
async function queueDelivery(
  data: DataWriter,
  target: WebhookTarget,
  event: Pick<WebhookDeliveryRecord, "eventType" | "activityId" | "body">,
  context: EnqueueContext,
): Promise<void> {
  const delivery: WebhookDeliveryRecord = {
    id: context.newId(),
    organizationId: target.organizationId,
    endpointId: target.endpointId,
    ...event,
    status: "PENDING",
    attempts: 0,
    nextAttemptAtMs: context.now,
    lastError: null,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await data.put("webhookDeliveries", delivery);
  await enqueue(data, delivery.organizationId, delivery.id, context.now);
}

/**
 * Queues a `SEND_TRANSACTION_STATUS_UPDATES` event for each receiver of each send-status record written,
 * with the record as it stands in this transaction. Returns how many deliveries were queued.
 */
export async function enqueueSendStatusUpdates(
  data: DataWriter,
  statusIds: Iterable<string>,
  context: EnqueueContext,
): Promise<number> {
  let queued = 0;
  for (const statusId of statusIds) {
    const record = await data.get("sendTransactionStatuses", statusId);
    if (!record) continue;
    const targets = await sendStatusTargets(data, record.organizationId);
    if (targets.length === 0) continue;
    const organization = await data.get("organizations", record.organizationId);
    const body = JSON.stringify(sendStatusWebhookBody(record, organization?.parentOrganizationId ?? null));
    for (const target of targets) {
      const event = { eventType: SEND_TRANSACTION_STATUS_UPDATES, activityId: record.activityId, body };
      await queueDelivery(data, target, event, context);
      queued++;
    }
  }
  return queued;
}

/**
 * Queues a balance event for each receiver of each balance update written: `BALANCE_CONFIRMED_UPDATES` or
 * `BALANCE_FINALIZED_UPDATES` by the update's stage, with the update as it stands in this transaction. Returns
 * how many deliveries were queued.
 */
export async function enqueueBalanceUpdates(
  data: DataWriter,
  updateIds: Iterable<string>,
  context: EnqueueContext,
): Promise<number> {
  let queued = 0;
  for (const updateId of updateIds) {
    const record = await data.get("balanceUpdates", updateId);
    if (!record) continue;
    const eventType = balanceEventType(record);
    const targets = await subscribedTargets(data, record.organizationId, eventType);
    if (targets.length === 0) continue;
    const organization = await data.get("organizations", record.organizationId);
    const body = JSON.stringify(balanceWebhookBody(record, organization?.parentOrganizationId ?? null));
    for (const target of targets) {
      // No activity causes a balance change.
      await queueDelivery(data, target, { eventType, activityId: "", body }, context);
      queued++;
    }
  }
  return queued;
}

/** A delivery's next state after an attempt or a cancellation. */
export interface DeliveryUpdate {
  status: WebhookDeliveryRecord["status"];
  /** When the next attempt is due (PENDING only). */
  nextAttemptAtMs: number | null;
  lastError: string | null;
  /** The attempt to record, when one was made. */
  attempt?: Omit<WebhookAttemptRecord, "id" | "eventId" | "attempt">;
  now: number;
}

/**
 * Moves a pending delivery to its next state and its queue entry with it. A delivery that is no longer
 * pending, or whose attempt count moved meanwhile, is left alone: another settlement won.
 */
export async function settleDelivery(
  data: DataWriter,
  eventId: string,
  attemptsBefore: number,
  update: DeliveryUpdate,
): Promise<void> {
  const delivery = await data.get("webhookDeliveries", eventId);
  if (delivery?.status !== "PENDING" || delivery.attempts !== attemptsBefore) return;
  const attempts = attemptsBefore + (update.attempt ? 1 : 0);
  const nextAttemptAtMs = update.status === "PENDING" ? update.nextAttemptAtMs : null;
  await data.put("webhookDeliveries", {
    ...delivery,
    status: update.status,
    attempts,
    nextAttemptAtMs,
    lastError: update.lastError,
    updatedAtMs: update.now,
  });
  await requeue(data, delivery.organizationId, eventId, delivery.nextAttemptAtMs, nextAttemptAtMs);
  if (update.attempt) {
    await data.put("webhookAttempts", {
      ...update.attempt,
      id: attemptKey(eventId, attempts),
      eventId,
      attempt: attempts,
    });
  }
}

/** Drops a queue entry whose delivery is gone or already settled (left behind by an interrupted writer). */
export async function dropQueueEntry(data: DataWriter, entry: WebhookQueueEntryRecord): Promise<void> {
  const delivery = await data.get("webhookDeliveries", entry.eventId);
  if (delivery?.status === "PENDING" && delivery.nextAttemptAtMs === entry.dueAtMs) return;
  await dropEntry(data, entry);
}
