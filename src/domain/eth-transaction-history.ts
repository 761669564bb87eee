/**
 * `list_eth_transaction_history` for one wallet account on one EVM chain. A node's plain JSON-RPC has no
 * index of an address's transactions, so the list is made of what the engine knows touched the address:
 *
 * - the transactions its `eth_send_transaction` activities broadcast from or to it (their intent names the
 *   address), and those its `eth_send_raw_transaction` activities broadcast whose sender or destination on the
 *   chain is the address; a send counts once the status tracker saw it in a block;
 * - the Ethereum transactions its `sign_transaction` activities signed from or to it, which the client broadcast
 *   itself: the newest of them (`domain/signed-eth-transactions.ts` bounds how many) are looked up on the chain,
 *   and those it has in a block count, as TURNKEY sends of their signing activity;
 * - the transfers into and out of the address the balance watcher saw (organizations subscribed to balance
 *   updates), which covers transactions signed or broadcast elsewhere.
 *
 * The list is ordered by block, newest first (ties by hash), so a page is cut before anything is read from the
 * chain (but for the signed transactions, whose block only the chain knows); each entry of the page is then read
 * from the chain (`chains/evm-history.ts`). An entry whose transaction the chain no longer has in a block (a
 * reorganization) is left out of its page.
 *
 * @module
 */
import type { AssetMetadata, KnownToken } from "../chains/asset-types.js";
import { chainFailure } from "../chains/errors.js";
import { type EvmMinedTransaction, evmBlockTimeMs, evmMinedTransaction } from "../chains/evm-history.js";
import { blockHeader } from "../chains/evm-transfers.js";
import type { ChainBackend } from "../chains/registry.js";
import type { QueryContext } from "../contract/operation.js";
import type { PaginationInput } from "../contract/schema.js";
import { signedEthTransactions } from "./signed-eth-transactions.js";
import {
  type EngineSend,
  engineSends,
  type HistoryPageRequest,
  historyPageRequest,
  ORIGIN_EXTERNAL,
  ORIGIN_TURNKEY,
  pageInfo,
  renderBlock,
  renderFee,
  renderTransfer,
  type TurnkeyOrigin,
} from "./transaction-history.js";

/** A cursor: the entry's block number and transaction hash. */
const CURSOR = /^(0|[1-9][0-9]{0,19})-(0x[0-9a-f]{64})$/;

/** A transaction known to touch the address, with the block the engine last saw it in. */
interface Candidate {
  readonly hash: string;
  readonly blockNumber: bigint;
}

const cursorOf = (candidate: Candidate) => `${candidate.blockNumber}-${candidate.hash}`;

/** Newest first: by block number, then by hash, both descending. */
function compare(a: Candidate, b: Candidate): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber > b.blockNumber ? -1 : 1;
  return a.hash > b.hash ? -1 : a.hash < b.hash ? 1 : 0;
}

function fromCursor(cursor: string): Candidate {
  const [, number, hash] = CURSOR.exec(cursor) as RegExpExecArray;
  return { blockNumber: BigInt(number as string), hash: hash as string };
}

/** Whether the parameters of an `eth_send_transaction` name `address` as sender or a call's destination. */
function namesAddress(parameters: Readonly<Record<string, unknown>>, address: string): boolean {
  const same = (value: unknown) => typeof value === "string" && value.toLowerCase() === address;
  const calls = Array.isArray(parameters.calls) ? (parameters.calls as { to?: unknown }[]) : [];
  return same(parameters.from) || same(parameters.to) || calls.some((call) => same(call?.to));
}

/** Transactions read from the chain during one listing, by hash, so none is read twice. */
type MinedReads = Map<string, Promise<EvmMinedTransaction | undefined>>;

function minedOnce(backend: ChainBackend, reads: MinedReads, hash: string) {
  let read = reads.get(hash);
  if (!read) {
    read = evmMinedTransaction(backend, hash);
    reads.set(hash, read);
  }
  return read;
}

async function candidatesOf(
  context: QueryContext,
  backend: ChainBackend,
  chain: string,
  address: string,
  sends: ReadonlyMap<string, EngineSend>,
  signed: ReadonlyMap<string, TurnkeyOrigin>,
  reads: MinedReads,
): Promise<Candidate[]> {
  const byHash = new Map<string, Candidate>();
  const touches = (mined: EvmMinedTransaction | undefined) => mined?.from === address || mined?.to === address;
  for (const [hash, send] of sends) {
    if (send.record.blockNumber === null) continue;
    const candidate = { hash, blockNumber: BigInt(send.record.blockNumber) };
    if ("from" in send.parameters) {
      if (namesAddress(send.parameters, address)) byHash.set(hash, candidate);
      continue;
    }
    // A raw send's intent holds only the signed bytes: the chain says whom it touched.
    if (touches(await minedOnce(backend, reads, hash))) byHash.set(hash, candidate);
  }
  // A signed transaction the chain does not have (never broadcast, or not yet mined) is no entry.
  const signedOnly = [...signed.keys()].filter((hash) => !sends.has(hash));
  const mined = await Promise.all(signedOnly.map((hash) => minedOnce(backend, reads, hash)));
  for (const tx of mined) {
    if (tx && touches(tx)) byHash.set(tx.hash, { hash: tx.hash, blockNumber: tx.blockNumber });
  }
  for (const update of await context.data.listAll("balanceUpdates", context.organization.id)) {
    if (update.chain !== chain || update.address.toLowerCase() !== address) continue;
    const hash = update.txHash.toLowerCase();
    if (!byHash.has(hash)) byHash.set(hash, { hash, blockNumber: BigInt(update.block.number) });
  }
  return [...byHash.values()].sort(compare);
}

/** The page of `sorted` a request asks for, and whether entries precede and follow it. */
function cut(sorted: readonly Candidate[], page: HistoryPageRequest) {
  if (page.direction === "first") {
    const entries = sorted.slice(0, page.limit);
    return { entries, hasPreviousPage: false, hasNextPage: sorted.length > page.limit };
  }
  const cursor = fromCursor(page.cursor);
  if (page.direction === "after") {
    const rest = sorted.filter((candidate) => compare(candidate, cursor) > 0);
    const entries = rest.slice(0, page.limit);
    return { entries, hasPreviousPage: rest.length < sorted.length, hasNextPage: rest.length > page.limit };
  }
  const preceding = sorted.filter((candidate) => compare(candidate, cursor) < 0);
  const entries = preceding.slice(-page.limit);
  return {
    entries,
    hasPreviousPage: preceding.length > page.limit,
    hasNextPage: preceding.length < sorted.length,
  };
}

/** The transfers of `tx` into and out of `address`: its native value, and the ERC-20 `Transfer` logs. */
function transfersOf(tx: EvmMinedTransaction, address: string, native: AssetMetadata, tokens: readonly KnownToken[]) {
  const transfers: ReturnType<typeof renderTransfer>[] = [];
  if (tx.succeeded && tx.value > 0n) {
    if (tx.from === address) transfers.push(renderTransfer("OUT", tx.value, tx.to ?? "", native));
    if (tx.to === address) transfers.push(renderTransfer("IN", tx.value, tx.from, native));
  }
  const byContract = new Map(tokens.map((token) => [token.address, token.metadata]));
  for (const transfer of tx.tokenTransfers) {
    const asset = byContract.get(transfer.contract);
    if (transfer.from === address) transfers.push(renderTransfer("OUT", transfer.amount, transfer.to, asset));
    if (transfer.to === address) transfers.push(renderTransfer("IN", transfer.amount, transfer.from, asset));
  }
  return transfers;
}

/** The entries of `address` on the configured EVM chain `chain`. */
export async function ethTransactionHistory(
  context: QueryContext,
  chain: string,
  address: string,
  options: PaginationInput | undefined,
) {
  const { services, data, organization } = context;
  const page = historyPageRequest(options, (cursor) => CURSOR.test(cursor));
  const backend = services.chains.require(chain, "caip2");
  const lower = address.toLowerCase();
  try {
    const { native, tokens } = await services.assets.watchedAssets(chain);
    const configuredId = (caip2: string) => services.chains.configuredId(caip2);
    const sends = await engineSends(data, organization.id, chain, configuredId);
    const signed = await signedEthTransactions(data, organization.id, chain, lower, configuredId);
    const reads: MinedReads = new Map();
    const { entries, hasPreviousPage, hasNextPage } = cut(
      await candidatesOf(context, backend, chain, lower, sends, signed, reads),
      page,
    );
    const [finalized, ...mined] = await Promise.all([
      blockHeader(backend, "finalized"),
      ...entries.map((entry) => minedOnce(backend, reads, entry.hash)),
    ]);
    const times = new Map<bigint, Promise<number>>();
    const timeOf = (number: bigint) => {
      let time = times.get(number);
      if (!time) {
        time = evmBlockTimeMs(backend, number);
        times.set(number, time);
      }
      return time;
    };
    const shown = mined.filter((tx): tx is EvmMinedTransaction => tx !== undefined);
    const transactions = await Promise.all(
      shown.map(async (tx) => {
        const turnkey = sends.get(tx.hash)?.turnkey ?? signed.get(tx.hash);
        return {
          transactionHash: tx.hash,
          block: renderBlock(tx.blockNumber, tx.blockHash, await timeOf(tx.blockNumber)),
          status: finalized !== undefined && tx.blockNumber <= finalized.number ? "FINALIZED" : "CONFIRMED",
          origin: turnkey ? ORIGIN_TURNKEY : ORIGIN_EXTERNAL,
          from: tx.from,
          ...(tx.to !== undefined ? { to: tx.to } : {}),
          fee: renderFee(tx.fee, native),
          transfers: transfersOf(tx, lower, native, tokens),
          ...(turnkey ? { turnkey } : {}),
        };
      }),
    );
    return {
      transactions,
      // The cut's cursors, so a page whose every entry left the chain still leads on.
      pageInfo: pageInfo(entries.map(cursorOf), hasPreviousPage, hasNextPage),
    };
  } catch (error) {
    throw chainFailure(error, chain, "read the transaction history", "caip2");
  }
}
