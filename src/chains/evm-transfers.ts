/**
 * The transfers into and out of watched addresses in a range of EVM blocks, read from a node with plain
 * JSON-RPC (no trace or indexer API):
 *
 * - **native coin**: the block's transactions (`eth_getBlockByNumber` with transactions) whose `from` or `to`
 *   is watched and whose `value` is not zero, kept only when their receipt says they succeeded. Value moved by
 *   a contract (an internal call) is not seen: that takes a tracing node, which a host's RPC rarely is. The
 *   amount is the transaction's `value`; the fee a sender pays is not part of it.
 * - **listed tokens**: the ERC-20 `Transfer(address,address,uint256)` logs of the contracts the host lists
 *   (`tokens` option) in the range (`eth_getLogs`), whose sender or receiver is watched. A reverted
 *   transaction has no logs.
 *
 * Malformed answers are the node's fault and reported as unreachable, as in `evm-rpc.ts`.
 *
 * @module
 */
import type { AssetMetadata, KnownToken } from "./asset-types.js";
import { excerptJson } from "./excerpt.js";
import type { ChainBackend } from "./registry.js";
import { ChainUnreachable } from "./rpc.js";

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** One balance change of one watched address. */
export interface EvmTransfer {
  readonly txHash: string;
  /** Where in the transaction: `native`, or `log:<index>`. */
  readonly place: string;
  /** The watched address (lowercase). */
  readonly address: string;
  readonly operation: "deposit" | "withdraw";
  readonly amount: bigint;
  readonly asset: AssetMetadata;
  readonly blockNumber: bigint;
  readonly blockHash: string;
  readonly timestampMs: number;
}

/** A block's header as the watcher needs it. */
export interface EvmBlockHeader {
  readonly number: bigint;
  readonly hash: string;
  readonly timestampMs: number;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function quantity(value: unknown, method: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ChainUnreachable(method, `the answer ${excerptJson(value)} is not a hex quantity`);
  }
  return BigInt(value);
}

function hash(value: unknown, method: string): string {
  if (typeof value !== "string" || !HASH.test(value)) {
    throw new ChainUnreachable(method, `the answer ${excerptJson(value)} is not a 32-byte hash`);
  }
  return value.toLowerCase();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

/** The number of the latest block. */
export async function latestBlockNumber(backend: ChainBackend): Promise<bigint> {
  return quantity(await backend.request("eth_blockNumber", []), "eth_blockNumber");
}

function header(block: unknown, method: string): EvmBlockHeader {
  if (!isRecord(block)) throw new ChainUnreachable(method, "the answer holds no block");
  return {
    number: quantity(block.number, method),
    hash: hash(block.hash, method),
    timestampMs: Number(quantity(block.timestamp, method)) * 1000,
  };
}

/**
 * The header of the block `tag` names (a number, or `finalized`), or undefined when the node has none (a
 * chain too young to have a finalized block).
 */
export async function blockHeader(
  backend: ChainBackend,
  tag: bigint | "finalized",
): Promise<EvmBlockHeader | undefined> {
  const method = "eth_getBlockByNumber";
  const block = await backend.request(method, [typeof tag === "bigint" ? hex(tag) : tag, false]);
  return block === null ? undefined : header(block, method);
}

/** A transaction of a block, as far as native transfers go. */
interface BlockTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: bigint;
}

/** A block's header and its transactions (`eth_getBlockByNumber` with full transactions). */
async function blockWithTransactions(
  backend: ChainBackend,
  number: bigint,
): Promise<{ header: EvmBlockHeader; transactions: BlockTransaction[] }> {
  const method = "eth_getBlockByNumber";
  const block = await backend.request(method, [hex(number), true]);
  if (!isRecord(block) || !Array.isArray(block.transactions)) {
    throw new ChainUnreachable(method, `block ${number} holds no transaction list`);
  }
  const transactions = block.transactions.map((tx): BlockTransaction => {
    if (!isRecord(tx) || typeof tx.from !== "string" || !ADDRESS.test(tx.from)) {
      throw new ChainUnreachable(method, `block ${number} holds a transaction without a sender`);
    }
    const to = typeof tx.to === "string" && ADDRESS.test(tx.to) ? tx.to.toLowerCase() : null;
    return { hash: hash(tx.hash, method), from: tx.from.toLowerCase(), to, value: quantity(tx.value ?? "0x0", method) };
  });
  return { header: header(block, method), transactions };
}

/** Whether the transaction `txHash` succeeded (receipt `status` 0x1). */
async function succeeded(backend: ChainBackend, txHash: string): Promise<boolean> {
  const method = "eth_getTransactionReceipt";
  const receipt = await backend.request(method, [txHash]);
  if (!isRecord(receipt)) throw new ChainUnreachable(method, `no receipt for ${txHash}, which is in a block`);
  return quantity(receipt.status, method) === 1n;
}

/** What reading a range may cost, at most. */
export interface ScanLimits {
  /** Receipts read (one per native transfer of a watched address) before the scan stops at a block's end. */
  readonly maxReceipts: number;
}

/** What a scan found, and the last block it read whole (it may stop early, see {@link ScanLimits}). */
export interface ScanResult {
  readonly transfers: EvmTransfer[];
  readonly lastBlock: bigint;
}

/** The address in the low 20 bytes of a 32-byte log topic, lowercase. */
function topicAddress(topic: unknown): string | undefined {
  return typeof topic === "string" && /^0x0{24}[0-9a-fA-F]{40}$/.test(topic)
    ? `0x${topic.slice(26).toLowerCase()}`
    : undefined;
}

/**
 * The transfers of `watched` addresses in blocks `from` to `to` (inclusive): native ones from each block's
 * transactions, token ones from the listed tokens' `Transfer` logs. Stops after the block where `limits` run
 * out, and says which block that was.
 */
export async function scanEvmTransfers(
  backend: ChainBackend,
  range: { from: bigint; to: bigint },
  watched: ReadonlySet<string>,
  native: AssetMetadata,
  tokens: readonly KnownToken[],
  limits: ScanLimits,
): Promise<ScanResult> {
  const transfers: EvmTransfer[] = [];
  const headers = new Map<bigint, EvmBlockHeader>();
  let receipts = 0;
  let lastBlock = range.from - 1n;
  for (let number = range.from; number <= range.to; number++) {
    if (receipts >= limits.maxReceipts) break;
    const block = await blockWithTransactions(backend, number);
    headers.set(number, block.header);
    for (const tx of block.transactions) {
      if (tx.value === 0n) continue;
      const sides: ["withdraw" | "deposit", string | null][] = [
        ["withdraw", tx.from],
        ["deposit", tx.to],
      ];
      const touched = sides.filter(([, address]) => address !== null && watched.has(address));
      if (touched.length === 0) continue;
      receipts++;
      if (!(await succeeded(backend, tx.hash))) continue;
      for (const [operation, address] of touched) {
        transfers.push({
          txHash: tx.hash,
          place: "native",
          address: address as string,
          operation,
          amount: tx.value,
          asset: native,
          blockNumber: number,
          blockHash: block.header.hash,
          timestampMs: block.header.timestampMs,
        });
      }
    }
    lastBlock = number;
  }
  if (lastBlock < range.from || tokens.length === 0) return { transfers, lastBlock };
  const method = "eth_getLogs";
  const logs = await backend.request(method, [
    {
      fromBlock: hex(range.from),
      toBlock: hex(lastBlock),
      address: tokens.map((token) => token.address),
      topics: [TRANSFER_TOPIC],
    },
  ]);
  if (!Array.isArray(logs)) throw new ChainUnreachable(method, "the answer holds no list of logs");
  const byContract = new Map(tokens.map((token) => [token.address, token]));
  for (const log of logs) {
    if (!isRecord(log) || !Array.isArray(log.topics) || log.removed === true) continue;
    const token = typeof log.address === "string" ? byContract.get(log.address.toLowerCase()) : undefined;
    const [topic, fromTopic, toTopic] = log.topics;
    if (!token || topic !== TRANSFER_TOPIC || log.topics.length !== 3) continue;
    const from = topicAddress(fromTopic);
    const to = topicAddress(toTopic);
    const number = quantity(log.blockNumber, method);
    const block = headers.get(number);
    if (from === undefined || to === undefined || !block) continue;
    if (typeof log.data !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue;
    const amount = BigInt(log.data);
    if (amount === 0n) continue;
    const txHash = hash(log.transactionHash, method);
    const place = `log:${quantity(log.logIndex, method)}`;
    for (const [operation, address] of [
      ["withdraw", from],
      ["deposit", to],
    ] as const) {
      if (!watched.has(address)) continue;
      transfers.push({
        txHash,
        place,
        address,
        operation,
        amount,
        asset: token.metadata,
        blockNumber: number,
        blockHash: hash(log.blockHash, method),
        timestampMs: block.timestampMs,
      });
    }
  }
  return { transfers, lastBlock };
}
