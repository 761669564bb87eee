/**
 * One EVM transaction as a transaction history shows it, read from a node with plain JSON-RPC: the
 * transaction (`eth_getTransactionByHash`: sender, destination, value), its receipt (`eth_getTransactionReceipt`:
 * success, gas used and its price, logs) and its block's time (`eth_getBlockByNumber` without transactions).
 *
 * What moved, relative to one address: the native value of a transaction that succeeded, and every ERC-20
 * `Transfer(address,address,uint256)` log of its receipt naming the address as sender or receiver (a reverted
 * transaction has no logs). Value moved by internal calls is not seen: that takes a tracing node.
 *
 * Malformed answers are the node's fault and reported as unreachable, as in `evm-rpc.ts`.
 *
 * @module
 */
import { TRANSFER_TOPIC } from "./evm-transfers.js";
import { excerptJson } from "./excerpt.js";
import type { ChainBackend } from "./registry.js";
import { ChainUnreachable } from "./rpc.js";

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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

function addressOf(value: unknown, method: string): string {
  if (typeof value !== "string" || !ADDRESS.test(value)) {
    throw new ChainUnreachable(method, `the answer ${excerptJson(value)} is not an address`);
  }
  return value.toLowerCase();
}

/** An ERC-20 `Transfer` log of a receipt. */
export interface EvmTokenTransfer {
  /** The token contract, lowercase. */
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** A mined transaction with what a history entry shows of it. */
export interface EvmMinedTransaction {
  readonly hash: string;
  readonly from: string;
  /** Absent for a contract creation. */
  readonly to: string | undefined;
  readonly value: bigint;
  readonly succeeded: boolean;
  /** Gas used times the effective gas price, in wei. */
  readonly fee: bigint;
  readonly blockNumber: bigint;
  readonly blockHash: string;
  readonly transactionIndex: bigint;
  readonly tokenTransfers: readonly EvmTokenTransfer[];
}

/** The address in the low 20 bytes of a 32-byte log topic, lowercase. */
function topicAddress(topic: unknown): string | undefined {
  return typeof topic === "string" && /^0x0{24}[0-9a-fA-F]{40}$/.test(topic)
    ? `0x${topic.slice(26).toLowerCase()}`
    : undefined;
}

function tokenTransfers(logs: unknown): EvmTokenTransfer[] {
  if (!Array.isArray(logs)) return [];
  const found: EvmTokenTransfer[] = [];
  for (const log of logs) {
    if (!isRecord(log) || !Array.isArray(log.topics) || log.topics.length !== 3) continue;
    const [topic, fromTopic, toTopic] = log.topics;
    const from = topicAddress(fromTopic);
    const to = topicAddress(toTopic);
    if (topic !== TRANSFER_TOPIC || from === undefined || to === undefined) continue;
    if (typeof log.address !== "string" || !ADDRESS.test(log.address)) continue;
    if (typeof log.data !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue;
    found.push({ contract: log.address.toLowerCase(), from, to, amount: BigInt(log.data) });
  }
  return found;
}

/**
 * The mined transaction `txHash`, or undefined when the node knows no such transaction in a block (never
 * mined, or its block left the chain).
 */
export async function evmMinedTransaction(
  backend: ChainBackend,
  txHash: string,
): Promise<EvmMinedTransaction | undefined> {
  const txMethod = "eth_getTransactionByHash";
  const receiptMethod = "eth_getTransactionReceipt";
  const [tx, receipt] = await Promise.all([
    backend.request(txMethod, [txHash]),
    backend.request(receiptMethod, [txHash]),
  ]);
  if (tx === null || receipt === null) return undefined;
  if (!isRecord(tx)) throw new ChainUnreachable(txMethod, "the answer holds no transaction");
  if (!isRecord(receipt)) throw new ChainUnreachable(receiptMethod, "the answer holds no receipt");
  const gasPrice = receipt.effectiveGasPrice ?? tx.gasPrice;
  return {
    hash: hash(tx.hash, txMethod),
    from: addressOf(tx.from, txMethod),
    to: tx.to === null || tx.to === undefined ? undefined : addressOf(tx.to, txMethod),
    value: quantity(tx.value ?? "0x0", txMethod),
    succeeded: quantity(receipt.status, receiptMethod) === 1n,
    fee: quantity(receipt.gasUsed, receiptMethod) * quantity(gasPrice, receiptMethod),
    blockNumber: quantity(receipt.blockNumber, receiptMethod),
    blockHash: hash(receipt.blockHash, receiptMethod),
    transactionIndex: quantity(receipt.transactionIndex, receiptMethod),
    tokenTransfers: tokenTransfers(receipt.logs),
  };
}

/** The time of block `number` in ms since the epoch. */
export async function evmBlockTimeMs(backend: ChainBackend, number: bigint): Promise<number> {
  const method = "eth_getBlockByNumber";
  const block = await backend.request(method, [`0x${number.toString(16)}`, false]);
  if (!isRecord(block)) throw new ChainUnreachable(method, `the answer holds no block ${number}`);
  return Number(quantity(block.timestamp, method)) * 1000;
}
