/**
 * Send-status records: written when an `*_send_transaction` activity broadcasts (BROADCASTED), settled by
 * the status tracker when the chain includes the transaction (INCLUDED) or it fails (FAILED). Each write is
 * also a `SEND_TRANSACTION_STATUS_UPDATES` webhook event (the outbox store notes these writes), so a record
 * and its event commit together.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "../crypto/bytes.js";
import type { DataWriter } from "../model/data.js";
import type { SendTransactionState, SendTransactionStatusRecord } from "../model/records.js";

/** The states `get_send_transaction_status` answers with; `@turnkey/core` stops polling at INCLUDED or FAILED. */
export const SEND_STATES = {
  broadcasted: "BROADCASTED",
  included: "INCLUDED",
  failed: "FAILED",
} as const satisfies Record<string, SendTransactionState>;

/** The chain-specific id of a broadcast transaction. */
export type SentTransaction = { eth: { txHash: string } } | { solana: { signature: string } };

/** What an activity handler knows when it has broadcast a transaction. */
export interface BroadcastRecord {
  id: string;
  organizationId: string;
  activityId: string;
  fingerprint: string;
  caip2: string;
  sent: SentTransaction;
  now: number;
}

/** Records a broadcast transaction and puts it on the tracker's watch list. Returns the status id. */
export async function recordBroadcast(data: DataWriter, broadcast: BroadcastRecord): Promise<string> {
  const { id, organizationId, activityId, fingerprint, caip2, sent, now } = broadcast;
  await data.put("sendTransactionStatuses", {
    id,
    organizationId,
    activityId,
    fingerprint,
    caip2,
    status: SEND_STATES.broadcasted,
    eth: "eth" in sent ? sent.eth : null,
    solana: "solana" in sent ? sent.solana : null,
    blockNumber: null,
    txError: null,
    error: null,
    createdAtMs: now,
    updatedAtMs: now,
  });
  await data.put("pendingSends", { id, caip2, createdAtMs: now });
  return id;
}

/** The final state the chain gave a send (see `chains/inclusion.ts`). */
export type SendOutcome =
  | { status: "INCLUDED"; blockNumber: string }
  | { status: "FAILED"; blockNumber: string | null; txError: string; error: { [key: string]: unknown } };

/**
 * Settles a watched send: the new state on its record, and off the watch list. A send already settled (by
 * another engine on the same store) is left as it is.
 */
export async function settleSend(data: DataWriter, id: string, outcome: SendOutcome, now: number): Promise<void> {
  const record = await data.get("sendTransactionStatuses", id);
  await data.delete("pendingSends", id);
  if (!record || record.status !== SEND_STATES.broadcasted) return;
  await data.put("sendTransactionStatuses", {
    ...record,
    status: outcome.status,
    blockNumber: outcome.blockNumber,
    txError: outcome.status === "FAILED" ? outcome.txError : null,
    error: outcome.status === "FAILED" ? outcome.error : null,
    updatedAtMs: now,
  });
}

/** `v1GetSendTransactionStatusResponse`. */
export interface SendTransactionStatusResponse {
  txStatus: string;
  eth?: { txHash: string };
  solana?: { signature: string };
  txError?: string;
  error?: { [key: string]: unknown };
}

export function renderSendStatus(record: SendTransactionStatusRecord): SendTransactionStatusResponse {
  return {
    txStatus: record.status,
    ...(record.eth ? { eth: { txHash: record.eth.txHash } } : {}),
    ...(record.solana ? { solana: { signature: record.solana.signature } } : {}),
    ...(record.txError !== null ? { txError: record.txError } : {}),
    ...(record.error !== null ? { error: record.error } : {}),
  };
}

/**
 * The body of a `SEND_TRANSACTION_STATUS_UPDATES` delivery, as Turnkey's transaction-status docs give it
 * (docs `concepts/broadcasting.mdx`, "Delivery payload"): `{ type: "transaction:status", organizationId,
 * parentOrganizationId, msg: { sendTransactionStatusId, activityId, status, caip2, idempotencyKey, timestamp,
 * txHash?, error? } }`. `status` is the hosted webhook's `BROADCASTING` for a broadcast not yet included (the
 * status query answers it as `BROADCASTED`). `idempotencyKey` is one per status event, the same however often
 * that event is delivered: a hash of the status record and its status. `txHash` comes once the transaction is
 * known to have landed (custodian's FAILED for a mined revert carries it, with `error`).
 */
export function sendStatusWebhookBody(
  record: SendTransactionStatusRecord,
  parentOrganizationId: string | null,
): Record<string, unknown> {
  const status = record.status === SEND_STATES.broadcasted ? "BROADCASTING" : record.status;
  const txHash = record.status === SEND_STATES.broadcasted ? null : (record.eth?.txHash ?? record.solana?.signature);
  return {
    type: "transaction:status",
    organizationId: record.organizationId,
    parentOrganizationId: parentOrganizationId ?? record.organizationId,
    msg: {
      sendTransactionStatusId: record.id,
      activityId: record.activityId,
      status,
      caip2: record.caip2,
      idempotencyKey: bytesToHex(sha256(utf8ToBytes(JSON.stringify([record.id, status])))),
      timestamp: Math.floor(record.updatedAtMs / 1000),
      ...(txHash ? { txHash } : {}),
      ...(record.error !== null ? { error: record.error } : {}),
    },
  };
}
