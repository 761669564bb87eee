/**
 * Balance updates: one record per balance change of a watched wallet address (a transfer in or out of it, in
 * one transaction), written `confirmed` by the balance watcher when it first sees the transaction in a block,
 * and moved to `finalized` once the chain finalizes that block. Each write is also a balance webhook event (the
 * outbox store notes these writes, as it does send-status writes), so a record and its event commit together.
 *
 * The delivery body is the hosted one, as Turnkey's tx-webhooks example documents it:
 * `{ type: "balances:confirmed" | "balances:finalized", organizationId, parentOrganizationId, msg: { operation,
 * caip2, txHash, address, idempotencyKey, asset: { symbol, name, decimals, caip19, amount }, block: { number,
 * hash, timestamp } } }`.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "../crypto/bytes.js";
import type { DataWriter } from "../model/data.js";
import type { BalanceUpdateRecord } from "../model/records.js";

/** The event type of a confirmed balance update. */
export const BALANCE_CONFIRMED_UPDATES = "BALANCE_CONFIRMED_UPDATES";
/** The event type of a finalized balance update. */
export const BALANCE_FINALIZED_UPDATES = "BALANCE_FINALIZED_UPDATES";

/** The event type a balance update's current stage is delivered under. */
export function balanceEventType(record: BalanceUpdateRecord): string {
  return record.stage === "confirmed" ? BALANCE_CONFIRMED_UPDATES : BALANCE_FINALIZED_UPDATES;
}

/**
 * The id of the balance update of `address` for one transfer: the chain, the transaction, where the transfer
 * sits in it (`native` or a log index), and which way it went. The same transfer seen twice (two engines, a
 * round repeated after a failure) is the same record.
 */
export function balanceUpdateId(caip2: string, txHash: string, place: string, address: string, operation: string) {
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify([caip2, txHash, place, address.toLowerCase(), operation]))));
}

/**
 * Writes a confirmed balance update and puts it on the finality watch list. A record already there (another
 * engine wrote it) is left alone, so its event is not sent twice. Returns whether it was written.
 */
export async function recordConfirmedUpdate(data: DataWriter, record: BalanceUpdateRecord): Promise<boolean> {
  if (await data.get("balanceUpdates", record.id)) return false;
  await data.put("balanceUpdates", record);
  await data.put("pendingBalanceUpdates", {
    id: record.id,
    chain: record.chain,
    blockNumber: record.block.number,
    createdAtMs: record.createdAtMs,
  });
  return true;
}

/**
 * Settles a pending balance update: `finalized` moves it to its finalized stage (its second event); `dropped`
 * (its block left the chain before finality) removes it without an event. Either way it leaves the watch list.
 */
export async function settleBalanceUpdate(
  data: DataWriter,
  id: string,
  outcome: "finalized" | "dropped",
  now: number,
): Promise<void> {
  const record = await data.get("balanceUpdates", id);
  const pending = await data.get("pendingBalanceUpdates", id);
  if (pending) await data.delete("pendingBalanceUpdates", id);
  if (record?.stage !== "confirmed") return;
  if (outcome === "dropped") {
    await data.delete("balanceUpdates", id);
    return;
  }
  await data.put("balanceUpdates", { ...record, stage: "finalized", updatedAtMs: now });
}

/** An ISO 8601 time to the second, as the hosted payload writes block times (`2026-05-22T19:09:35Z`). */
function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** The body of a balance webhook delivery for `record` at its current stage. */
export function balanceWebhookBody(
  record: BalanceUpdateRecord,
  parentOrganizationId: string | null,
): Record<string, unknown> {
  const type = record.stage === "confirmed" ? "balances:confirmed" : "balances:finalized";
  return {
    type,
    organizationId: record.organizationId,
    parentOrganizationId: parentOrganizationId ?? record.organizationId,
    msg: {
      operation: record.operation,
      caip2: record.caip2,
      txHash: record.txHash,
      address: record.address,
      idempotencyKey: `${record.id}:${type}`,
      asset: { ...record.asset },
      block: {
        number: Number(record.block.number),
        hash: record.block.hash,
        timestamp: isoSeconds(record.block.timestampMs),
      },
    },
  };
}
