/**
 * Webhook endpoints: `create_webhook_endpoint`, `update_webhook_endpoint`, `delete_webhook_endpoint` and
 * the query `list_webhook_endpoints` (docs `features/webhooks/overview.mdx`). An endpoint receives the events
 * it subscribes to about its organization and, for a parent's endpoint, about every sub-organization, while it
 * and its subscription are active. URLs follow the engine's URL rules (`webhooks/url-policy.ts`). Each change
 * also keeps the organization's entry on the balance watcher's list (`chains/balance-watcher.ts`): present
 * while one of its endpoints takes balance updates, so nothing is read from any chain for anyone else.
 *
 * @module
 */
import * as v from "valibot";
import { BALANCE_CONFIRMED_UPDATES, BALANCE_FINALIZED_UPDATES } from "../chains/balance-updates.js";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { type ActivityContext, defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import type { DataReader, DataWriter } from "../model/data.js";
import type { WebhookEndpointRecord, WebhookSubscriptionRecord } from "../model/records.js";
import { ACTIVITY_UPDATES, receivesEvents, SEND_TRANSACTION_STATUS_UPDATES } from "../webhooks/targets.js";
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from "../webhooks/url-policy.js";

/** Endpoints per organization: custodian's bound (the hosted service documents none). */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** The event types Turnkey documents, every one of which custodian has events for. */
const DOCUMENTED_EVENT_TYPES = [
  ACTIVITY_UPDATES,
  BALANCE_CONFIRMED_UPDATES,
  BALANCE_FINALIZED_UPDATES,
  SEND_TRANSACTION_STATUS_UPDATES,
];

/**
 * Puts the organization on the balance watcher's list while one of its endpoints takes balance updates, and
 * takes it off otherwise. Called after every endpoint change, in the same transaction.
 */
async function syncBalanceWatch(data: DataWriter, organizationId: string, now: number): Promise<void> {
  const endpoints = await data.listAll("webhookEndpoints", organizationId);
  const watching = endpoints.some(
    (endpoint) =>
      receivesEvents(endpoint, BALANCE_CONFIRMED_UPDATES) || receivesEvents(endpoint, BALANCE_FINALIZED_UPDATES),
  );
  const existing = await data.get("balanceWatches", organizationId);
  if (watching && !existing) await data.put("balanceWatches", { id: organizationId, createdAtMs: now });
  if (!watching && existing) await data.delete("balanceWatches", organizationId);
}

const url = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
);

const subscriptionParams = v.object({
  eventType: v.pipe(v.string(), v.maxLength(64, "must be at most 64 characters")),
  filtersJson: v.optional(v.pipe(v.string(), v.maxLength(4096, "must be at most 4096 characters"))),
  isActive: v.optional(v.boolean()),
});

/** `v1WebhookEndpointData`. */
export interface WebhookEndpointData {
  endpointId: string;
  organizationId: string;
  url: string;
  name: string;
  isActive: boolean;
  subscriptions: { eventType: string; filtersJson?: string; isActive: boolean }[];
}

export function renderWebhookEndpoint(endpoint: WebhookEndpointRecord): WebhookEndpointData {
  return {
    endpointId: endpoint.id,
    organizationId: endpoint.organizationId,
    url: endpoint.url,
    name: endpoint.name,
    isActive: endpoint.isActive,
    subscriptions: endpoint.subscriptions.map((subscription) => ({
      eventType: subscription.eventType,
      ...(subscription.filtersJson !== null ? { filtersJson: subscription.filtersJson } : {}),
      isActive: subscription.isActive,
    })),
  };
}

/** Whether a filter string asks for no filtering: empty, or an empty JSON object. */
function isEmptyFilter(filtersJson: string): boolean {
  if (filtersJson.trim() === "") return true;
  try {
    const parsed: unknown = JSON.parse(filtersJson);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) && Object.keys(parsed).length === 0;
  } catch {
    return false;
  }
}

/** Checks the requested subscriptions; refusals name the subscription's field. */
function subscriptionRecords(
  subscriptions: readonly v.InferOutput<typeof subscriptionParams>[],
): WebhookSubscriptionRecord[] {
  const seen = new Set<string>();
  return subscriptions.map((subscription, i) => {
    const field = `parameters.subscriptions[${i}]`;
    const { eventType } = subscription;
    if (!DOCUMENTED_EVENT_TYPES.includes(eventType)) {
      throw invalidArgument(
        `unknown event type ${eventType}; use ${DOCUMENTED_EVENT_TYPES.join(", ")}`,
        `${field}.eventType`,
        {
          reason: "UNKNOWN_EVENT_TYPE",
        },
      );
    }
    if (seen.has(eventType)) {
      throw invalidArgument(`${eventType} is subscribed twice`, `${field}.eventType`, {
        reason: "DUPLICATE_SUBSCRIPTION",
      });
    }
    seen.add(eventType);
    // Turnkey does not document filter semantics; a filter custodian could not apply is refused, not ignored.
    if (subscription.filtersJson !== undefined && !isEmptyFilter(subscription.filtersJson)) {
      throw invalidArgument("subscription filters are not supported; omit filtersJson", `${field}.filtersJson`, {
        reason: "UNSUPPORTED_FILTER",
      });
    }
    return { eventType, filtersJson: subscription.filtersJson ?? null, isActive: subscription.isActive ?? true };
  });
}

/** The endpoint `endpointId` of the request's organization; NOT_FOUND naming the field otherwise. */
async function endpointOf(context: ActivityContext, endpointId: string): Promise<WebhookEndpointRecord> {
  return context.data.requireInOrganization(
    "webhookEndpoints",
    endpointId,
    context.organization.id,
    "webhook endpoint",
    "parameters.endpointId",
  );
}

async function countEndpoints(data: DataReader, organizationId: string): Promise<number> {
  return (await data.list("webhookEndpoints", organizationId, { limit: MAX_WEBHOOK_ENDPOINTS + 1 })).length;
}

export const createWebhookEndpoint = defineActivity({
  method: "createWebhookEndpoint",
  path: "create_webhook_endpoint",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
      intent: "createWebhookEndpointIntent",
      result: "createWebhookEndpointResult",
      parameters: v.object({ url, name, subscriptions: v.optional(list(subscriptionParams, 8), []) }),
    },
  ],
  policy: { resource: "WEBHOOK_ENDPOINT", action: "CREATE" },
  async handler(context, params) {
    checkWebhookUrl(params.url, context.services.webhookUrls, "parameters.url");
    const subscriptions = subscriptionRecords(params.subscriptions);
    if ((await countEndpoints(context.data, context.organization.id)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`,
        { field: "organizationId", reason: "WEBHOOK_ENDPOINT_LIMIT", limit: MAX_WEBHOOK_ENDPOINTS },
      );
    }
    const endpoint: WebhookEndpointRecord = {
      id: context.newId(),
      organizationId: context.organization.id,
      url: params.url,
      name: params.name,
      isActive: true,
      subscriptions,
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await context.data.put("webhookEndpoints", endpoint);
    await syncBalanceWatch(context.data, context.organization.id, context.now);
    return { endpointId: endpoint.id, webhookEndpoint: renderWebhookEndpoint(endpoint) };
  },
});

export const updateWebhookEndpoint = defineActivity({
  method: "updateWebhookEndpoint",
  path: "update_webhook_endpoint",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT",
      intent: "updateWebhookEndpointIntent",
      result: "updateWebhookEndpointResult",
      parameters: v.object({
        endpointId: id,
        url: v.optional(url),
        name: v.optional(name),
        isActive: v.optional(v.boolean()),
      }),
    },
  ],
  policy: { resource: "WEBHOOK_ENDPOINT", action: "UPDATE" },
  async handler(context, params) {
    const endpoint = await endpointOf(context, params.endpointId);
    if (params.url !== undefined) checkWebhookUrl(params.url, context.services.webhookUrls, "parameters.url");
    const updated: WebhookEndpointRecord = {
      ...endpoint,
      url: params.url ?? endpoint.url,
      name: params.name ?? endpoint.name,
      isActive: params.isActive ?? endpoint.isActive,
      updatedAtMs: context.now,
    };
    await context.data.put("webhookEndpoints", updated);
    await syncBalanceWatch(context.data, context.organization.id, context.now);
    return { endpointId: updated.id, webhookEndpoint: renderWebhookEndpoint(updated) };
  },
});

export const deleteWebhookEndpoint = defineActivity({
  method: "deleteWebhookEndpoint",
  path: "delete_webhook_endpoint",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT",
      intent: "deleteWebhookEndpointIntent",
      result: "deleteWebhookEndpointResult",
      parameters: v.object({ endpointId: id }),
    },
  ],
  policy: { resource: "WEBHOOK_ENDPOINT", action: "DELETE" },
  async handler(context, params) {
    const endpoint = await endpointOf(context, params.endpointId);
    await context.data.delete("webhookEndpoints", endpoint.id);
    await syncBalanceWatch(context.data, context.organization.id, context.now);
    return { endpointId: endpoint.id };
  },
});

export const listWebhookEndpoints = defineQuery({
  method: "listWebhookEndpoints",
  path: "list_webhook_endpoints",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const endpoints = await context.data.listAll("webhookEndpoints", context.organization.id);
    return { webhookEndpoints: endpoints.map(renderWebhookEndpoint) };
  },
});
