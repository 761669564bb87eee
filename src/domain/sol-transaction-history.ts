/**
 * `list_sol_transaction_history` for one wallet account on one Solana cluster, read from the cluster: its
 * `getSignaturesForAddress` (at `confirmed` commitment, newest first) of the address and of its associated
 * token accounts of the listed tokens is the list, and each entry is read with
 * `getTransaction` and its block with `getBlock` (`chains/solana-transfers.ts`). A cursor is the entry's
 * signature, which the node pages by. Entries that custodian's `sol_send_transaction` activities broadcast
 * carry their origin (`TURNKEY`) and the activity's fingerprint.
 *
 * What moved, relative to the address: SOL (its lamports' change, the fee added back when it paid it) and the
 * listed tokens in its associated token accounts, as the balance webhooks read them; a failed transaction
 * moved nothing but its fee. A transfer's counterparty is the account that moved most the other way.
 *
 * @module
 */
import { chainFailure } from "../chains/errors.js";
import type { ChainBackend } from "../chains/registry.js";
import {
  type SignatureEntry,
  signaturesForAddress,
  solanaBalanceChanges,
  solanaBlock,
  solanaCounterparty,
  solanaTransaction,
} from "../chains/solana-transfers.js";
import type { QueryContext } from "../contract/operation.js";
import type { PaginationInput } from "../contract/schema.js";
import { associatedTokenAddress } from "../crypto/addresses/solana-pda.js";
import {
  engineSends,
  type HistoryPageRequest,
  historyPageRequest,
  ORIGIN_EXTERNAL,
  ORIGIN_TURNKEY,
  pageInfo,
  renderBlock,
  renderFee,
  renderTransfer,
} from "./transaction-history.js";

/** A base58 transaction signature of 64 bytes, by its shape. */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

/** The most `getSignaturesForAddress` answers in one call. */
const MAX_SIGNATURES = 1000;

/**
 * The signatures naming any of `accounts`, newest first (by slot; one slot's in the order the node lists
 * them), each once.
 */
function merged(lists: readonly SignatureEntry[][]): SignatureEntry[] {
  const seen = new Set<string>();
  const all: SignatureEntry[] = [];
  for (const list of lists) {
    for (const entry of list) {
      if (seen.has(entry.signature)) continue;
      seen.add(entry.signature);
      all.push(entry);
    }
  }
  // A stable sort keeps each list's own order within a slot.
  return all.sort((a, b) => (a.slot === b.slot ? 0 : a.slot > b.slot ? -1 : 1));
}

/**
 * The signatures of the page a request asks for, and whether entries precede and follow it. A transfer into a
 * token account need not name its owner, so the address's associated token accounts of the listed tokens are
 * read beside it; the `limit` newest of their union are among the `limit + 1` newest of each.
 */
async function pageOf(backend: ChainBackend, accounts: readonly string[], page: HistoryPageRequest) {
  if (page.direction === "before") {
    // The entries newer than the cursor, of which the page is the nearest `limit`.
    const newer = merged(
      await Promise.all(
        accounts.map((account) =>
          signaturesForAddress(backend, account, { limit: MAX_SIGNATURES, until: page.cursor }),
        ),
      ),
    );
    return { entries: newer.slice(-page.limit), hasPreviousPage: newer.length > page.limit, hasNextPage: true };
  }
  const listed = merged(
    await Promise.all(
      accounts.map((account) =>
        signaturesForAddress(backend, account, {
          limit: page.limit + 1,
          ...(page.direction === "after" ? { before: page.cursor } : {}),
        }),
      ),
    ),
  );
  return {
    entries: listed.slice(0, page.limit),
    hasPreviousPage: page.direction === "after",
    hasNextPage: listed.length > page.limit,
  };
}

/** The entries of `address` on the configured Solana cluster `chain`. */
export async function solTransactionHistory(
  context: QueryContext,
  chain: string,
  address: string,
  options: PaginationInput | undefined,
) {
  const { services, data, organization } = context;
  const page = historyPageRequest(options, (cursor) => SIGNATURE.test(cursor));
  const backend = services.chains.require(chain, "caip2");
  try {
    const { native, tokens } = await services.assets.watchedAssets(chain);
    const sends = await engineSends(data, organization.id, chain, (caip2) => services.chains.configuredId(caip2));
    const accounts = [address, ...tokens.map((token) => associatedTokenAddress(address, token.address, token.owner))];
    const { entries, hasPreviousPage, hasNextPage } = await pageOf(backend, accounts, page);
    const blocks = new Map<bigint, ReturnType<typeof solanaBlock>>();
    const blockAt = (slot: bigint) => {
      let block = blocks.get(slot);
      if (!block) {
        block = solanaBlock(backend, slot);
        blocks.set(slot, block);
      }
      return block;
    };
    const watched = new Map([[address, organization.id]]);
    const read = await Promise.all(
      entries.map(async (entry: SignatureEntry) => {
        const tx = await solanaTransaction(backend, entry.signature);
        if (!tx) return undefined;
        const block = await blockAt(tx.slot);
        const blockTime = block.blockTime ?? tx.blockTime;
        const send = sends.get(tx.signature);
        const feePayer = tx.accounts[0] as string;
        return {
          signature: tx.signature,
          block: renderBlock(tx.slot, block.hash, blockTime === undefined ? undefined : blockTime * 1000),
          status: entry.finalized ? "FINALIZED" : "CONFIRMED",
          origin: send ? ORIGIN_TURNKEY : ORIGIN_EXTERNAL,
          feePayer,
          signers: tx.signers.length > 0 ? tx.signers : [{ address: feePayer, writable: true }],
          fee: renderFee(tx.fee, native),
          transfers: solanaBalanceChanges(tx, watched, native, tokens).map((change) =>
            renderTransfer(
              change.operation === "deposit" ? "IN" : "OUT",
              change.amount,
              solanaCounterparty(tx, change),
              change.asset,
            ),
          ),
          ...(send ? { turnkey: send.turnkey } : {}),
        };
      }),
    );
    return {
      transactions: read.filter((entry) => entry !== undefined),
      pageInfo: pageInfo(
        entries.map((entry) => entry.signature),
        hasPreviousPage,
        hasNextPage,
      ),
    };
  } catch (error) {
    throw chainFailure(error, chain, "read the transaction history", "caip2");
  }
}
