/**
 * The headers of one delivery attempt (docs `features/webhooks/overview.mdx`, "Headers"): routing and
 * observability headers plus the signature contract, signed afresh for each attempt's timestamp.
 *
 * @module
 */
import type { WebhookDeliveryRecord } from "../model/records.js";
import { SIGNATURE_ALGORITHM, SIGNATURE_VERSION, type WebhookSigner } from "./signer.js";

/** The delivery contract's version (`X-Turnkey-Webhook-Version`). */
export const WEBHOOK_VERSION = "1";

/** The headers of an attempt at `timestampMs`. */
export function deliveryHeaders(
  signer: WebhookSigner,
  delivery: Pick<WebhookDeliveryRecord, "id" | "organizationId" | "eventType">,
  body: Uint8Array,
  timestampMs: number,
): Record<string, string> {
  const timestamp = String(timestampMs);
  const { keyId, signature } = signer.sign({ timestampMs: timestamp, eventId: delivery.id, body });
  return {
    "Content-Type": "application/json",
    "X-Turnkey-Organization-Id": delivery.organizationId,
    "X-Turnkey-Event-Type": delivery.eventType,
    "X-Turnkey-Timestamp": timestamp,
    "X-Turnkey-Webhook-Version": WEBHOOK_VERSION,
    "X-Turnkey-Event-Id": delivery.id,
    "X-Turnkey-Signature-Key-Id": keyId,
    "X-Turnkey-Signature-Algorithm": SIGNATURE_ALGORITHM,
    "X-Turnkey-Signature-Version": SIGNATURE_VERSION,
    "X-Turnkey-Signature": signature,
  };
}
