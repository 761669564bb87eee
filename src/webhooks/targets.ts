/**
 * Who receives an organization's activity updates: its own active `ACTIVITY_UPDATES` endpoints and legacy
 * `FEATURE_NAME_WEBHOOK` URL, and those of every ancestor (Turnkey: "parent-owned endpoints receive events
 * for the parent and all sub-organizations; sub-organization-owned endpoints receive only their own").
 * The legacy feature is one more receiver on the same delivery path, with no endpoint id.
 *
 * @module
 */
import type { DataReader } from "../model/data.js";
import type { OrganizationRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from "../model/records.js";

/** The organization feature whose value is a webhook URL (the pre-endpoint way to receive activities). */
export const WEBHOOK_FEATURE = "FEATURE_NAME_WEBHOOK";

/** The event type activity updates are delivered under. */
export const ACTIVITY_UPDATES = "ACTIVITY_UPDATES";

/** Deepest organization chain walked; custodian's chains have two levels, this only stops a corrupt loop. */
const MAX_DEPTH = 8;

/** One receiver of an event. */
export interface WebhookTarget {
  /** The organization that owns the endpoint or feature. */
  organizationId: string;
  /** Null for the legacy feature. */
  endpointId: string | null;
}

/** The event type send-status changes are delivered under. */
export const SEND_TRANSACTION_STATUS_UPDATES = "SEND_TRANSACTION_STATUS_UPDATES";

/** Whether an endpoint takes events of `eventType` now. */
export function receivesEvents(endpoint: WebhookEndpointRecord, eventType: string): boolean {
  return (
    endpoint.isActive &&
    endpoint.subscriptions.some((subscription) => subscription.isActive && subscription.eventType === eventType)
  );
}

/** Whether an endpoint takes activity updates now. */
export function receivesActivityUpdates(endpoint: WebhookEndpointRecord): boolean {
  return receivesEvents(endpoint, ACTIVITY_UPDATES);
}

/**
 * The receivers of an organization's send-status updates: its own endpoints subscribed to them, then each
 * ancestor's (as for activity updates). The legacy `FEATURE_NAME_WEBHOOK` takes activity updates only.
 */
export function sendStatusTargets(data: DataReader, organizationId: string): Promise<WebhookTarget[]> {
  return subscribedTargets(data, organizationId, SEND_TRANSACTION_STATUS_UPDATES);
}

/**
 * The receivers of `eventType` events about `organizationId` (send-status and balance updates): its own
 * endpoints subscribed to it, then each ancestor's.
 */
export async function subscribedTargets(
  data: DataReader,
  organizationId: string,
  eventType: string,
): Promise<WebhookTarget[]> {
  const targets: WebhookTarget[] = [];
  let nextId: string | null = organizationId;
  for (let depth = 0; nextId !== null && depth < MAX_DEPTH; depth++) {
    const organization: OrganizationRecord | undefined = await data.get("organizations", nextId);
    if (!organization) break;
    for (const endpoint of await data.listAll("webhookEndpoints", organization.id)) {
      if (receivesEvents(endpoint, eventType)) {
        targets.push({ organizationId: organization.id, endpointId: endpoint.id });
      }
    }
    nextId = organization.parentOrganizationId;
  }
  return targets;
}

/**
 * The receivers of activity updates of `organizationId`: its own first, then each ancestor's.
 * `removedParents` maps organizations deleted in the current transaction to their parents, so that the
 * activity deleting a sub-organization still reaches the parent's receivers (the deleted one has none left).
 */
export async function activityUpdateTargets(
  data: DataReader,
  organizationId: string,
  removedParents: ReadonlyMap<string, string | null> = new Map(),
): Promise<WebhookTarget[]> {
  const targets: WebhookTarget[] = [];
  let nextId: string | null = organizationId;
  for (let depth = 0; nextId !== null && depth < MAX_DEPTH; depth++) {
    const organization: OrganizationRecord | undefined = await data.get("organizations", nextId);
    if (!organization) {
      nextId = removedParents.get(nextId) ?? null;
      continue;
    }
    for (const endpoint of await data.listAll("webhookEndpoints", organization.id)) {
      if (receivesActivityUpdates(endpoint)) targets.push({ organizationId: organization.id, endpointId: endpoint.id });
    }
    if (organization.features.some((feature) => feature.name === WEBHOOK_FEATURE)) {
      targets.push({ organizationId: organization.id, endpointId: null });
    }
    nextId = organization.parentOrganizationId;
  }
  return targets;
}

/** Where a pending delivery goes now, or why it no longer goes anywhere. */
export type CurrentTarget = { url: string } | { cancelled: string };

/**
 * The URL a delivery is sent to at this attempt: its endpoint's current URL (so fixing an endpoint's URL
 * reaches events already queued), or the feature's current value. An endpoint deleted or deactivated, or a
 * feature removed, since the event was queued cancels it.
 */
export async function currentTarget(data: DataReader, delivery: WebhookDeliveryRecord): Promise<CurrentTarget> {
  if (delivery.endpointId === null) {
    const organization = await data.get("organizations", delivery.organizationId);
    const feature = organization?.features.find((candidate) => candidate.name === WEBHOOK_FEATURE);
    return feature ? { url: feature.value } : { cancelled: `${WEBHOOK_FEATURE} was removed` };
  }
  const endpoint = await data.get("webhookEndpoints", delivery.endpointId);
  if (!endpoint) return { cancelled: `webhook endpoint ${delivery.endpointId} was deleted` };
  if (!receivesEvents(endpoint, delivery.eventType)) {
    return { cancelled: `webhook endpoint ${endpoint.id} no longer takes ${delivery.eventType}` };
  }
  return { url: endpoint.url };
}
