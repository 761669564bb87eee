/**
 * What the two transaction-history queries (`list_eth_transaction_history`, `list_sol_transaction_history`)
 * share: the page a request asks for, the shapes of an entry's block, fee, transfers and Turnkey metadata
 * (swagger `v1TransactionHistory*`), and which transactions the engine itself broadcast.
 *
 * Pages follow `v1PageInfo` (cursor pagination): the list runs newest first; `after: <endCursor>` asks for the
 * entries that follow a page (older), `before: <startCursor>` for those that precede it (newer). Cursors are
 * opaque and valid for the same address and chain only.
 *
 * @module
 */
import type { AssetMetadata } from "../chains/asset-types.js";
import { invalidArgument } from "../common/errors.js";
import { DEFAULT_PAGE_SIZE, type PaginationInput } from "../contract/schema.js";
import type { DataReader } from "../model/data.js";
import type { SendTransactionStatusRecord } from "../model/records.js";
import { formatUnits } from "./display-units.js";

/** `origin` of a transaction an `*_send_transaction` activity broadcast. */
export const ORIGIN_TURNKEY = "TURNKEY";
/** `origin` of any other transaction: signed or sent elsewhere, or a transfer into the address. */
export const ORIGIN_EXTERNAL = "EXTERNAL";

/** The page a request asks for. */
export type HistoryPageRequest =
  | { readonly limit: number; readonly direction: "first" }
  | { readonly limit: number; readonly direction: "after"; readonly cursor: string }
  | { readonly limit: number; readonly direction: "before"; readonly cursor: string };

/**
 * The page `paginationOptions` asks for, its cursors checked by `isCursor` (a cursor that cannot be one of
 * this query's is `INVALID_ARGUMENT` naming it).
 */
export function historyPageRequest(
  options: PaginationInput | undefined,
  isCursor: (cursor: string) => boolean,
): HistoryPageRequest {
  const limit = options?.limit ?? DEFAULT_PAGE_SIZE;
  const { before, after } = options ?? {};
  if (before !== undefined && after !== undefined) {
    throw invalidArgument("give one cursor: before or after, not both", "paginationOptions.before");
  }
  for (const [field, cursor] of [
    ["after", after],
    ["before", before],
  ] as const) {
    if (cursor !== undefined && !isCursor(cursor)) {
      throw invalidArgument("is not a cursor of this transaction history", `paginationOptions.${field}`);
    }
  }
  if (after !== undefined) return { limit, direction: "after", cursor: after };
  if (before !== undefined) return { limit, direction: "before", cursor: before };
  return { limit, direction: "first" };
}

/** `v1PageInfo` of a page whose entries have the cursors `cursors`, in list order. */
export function pageInfo(
  cursors: readonly string[],
  hasPreviousPage: boolean,
  hasNextPage: boolean,
): { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string; endCursor?: string } {
  const [first] = cursors;
  const last = cursors[cursors.length - 1];
  return {
    hasNextPage,
    hasPreviousPage,
    ...(first !== undefined ? { startCursor: first } : {}),
    ...(last !== undefined ? { endCursor: last } : {}),
  };
}

/** RFC 3339 of a time in ms, without a fraction when it falls on a whole second (block times always do). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, "Z");
}

/** `v1TransactionHistoryBlock`. */
export function renderBlock(number: bigint, hash: string, timeMs: number | undefined) {
  return { number: number.toString(), hash, timestamp: timeMs === undefined ? "" : rfc3339(timeMs) };
}

/** `v1TransactionHistoryFee` in the chain's native asset. */
export function renderFee(amount: bigint, native: AssetMetadata) {
  return { amount: amount.toString(), caip19: native.caip19 };
}

/** `v1TransactionHistoryTransfer`: `asset` and `display` only when the asset is known. */
export function renderTransfer(
  direction: "IN" | "OUT",
  amount: bigint,
  counterparty: string,
  asset: AssetMetadata | undefined,
) {
  return {
    direction,
    amount: amount.toString(),
    counterparty,
    ...(asset
      ? {
          asset: { caip19: asset.caip19, symbol: asset.symbol, name: asset.name, decimals: asset.decimals },
          display: { crypto: formatUnits(amount, asset.decimals) },
        }
      : {}),
  };
}

/** `v1TransactionHistoryTurnkey` of a transaction an activity broadcast. */
export interface TurnkeyOrigin {
  sponsored: boolean;
  activityFingerprint: string;
  submittedAt: string;
}

/** The transactions an `*_send_transaction` activity of the organization broadcast on one chain. */
export interface EngineSend {
  readonly record: SendTransactionStatusRecord;
  /** The activity's parameters (its intent's single member). */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly turnkey: TurnkeyOrigin;
}

/**
 * The sends of `organizationId` on the configured chain `chain` (`configuredId` maps a record's CAIP-2 id to
 * the configured one), by transaction hash or signature.
 */
export async function engineSends(
  data: DataReader,
  organizationId: string,
  chain: string,
  configuredId: (caip2: string) => string,
): Promise<Map<string, EngineSend>> {
  const sends = new Map<string, EngineSend>();
  for (const record of await data.listAll("sendTransactionStatuses", organizationId)) {
    const id = record.eth?.txHash.toLowerCase() ?? record.solana?.signature;
    if (id === undefined || configuredId(record.caip2) !== chain) continue;
    const activity = await data.get("activities", record.activityId);
    const [parameters] = Object.values(activity?.intent ?? {});
    const params = (typeof parameters === "object" && parameters !== null ? parameters : {}) as Record<string, unknown>;
    sends.set(id, {
      record,
      parameters: params,
      turnkey: {
        sponsored: params.sponsor === true,
        activityFingerprint: record.fingerprint,
        submittedAt: rfc3339(record.createdAtMs),
      },
    });
  }
  return sends;
}
