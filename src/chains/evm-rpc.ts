/**
 * The few Ethereum JSON-RPC calls the engine makes, typed: nonces, fees, gas estimates, broadcasting and
 * receipts. Quantities travel as `0x` hex and come back as bigints; a malformed answer is the node's fault
 * and is reported as unreachable (the engine cannot act on it).
 *
 * @module
 */
import { excerptJson } from "./excerpt.js";
import type { ChainBackend } from "./registry.js";
import { ChainUnreachable } from "./rpc.js";

/** A transaction call as `eth_estimateGas` and `eth_call` take it. */
export interface EvmCall {
  from: string;
  to: string;
  value?: bigint;
  data?: string;
}

/** What the engine reads of a receipt. */
export interface EvmReceipt {
  /** True when the transaction succeeded (`status` 0x1). */
  success: boolean;
  blockNumber: bigint;
  blockHash: string;
  gasUsed: bigint;
}

/** A quantity of at most 256 bits (nonces, fees, gas, balances, block numbers), the widest Ethereum has. */
function quantity(value: unknown, method: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ChainUnreachable(method, `the answer ${excerptJson(value)} is not a hex quantity`);
  }
  return BigInt(value);
}

function hexQuantity(value: bigint): string {
  return `0x${value.toString(16)}`;
}

function callObject(call: EvmCall): Record<string, string> {
  return {
    from: call.from,
    to: call.to,
    ...(call.value !== undefined ? { value: hexQuantity(call.value) } : {}),
    ...(call.data !== undefined ? { data: call.data } : {}),
  };
}

/** A typed view of one EVM chain's backend. */
export class EvmRpc {
  constructor(readonly backend: ChainBackend) {}

  async chainId(): Promise<bigint> {
    return quantity(await this.backend.request("eth_chainId", []), "eth_chainId");
  }

  /** The next nonce of `address`, counting transactions still in the node's pool. */
  async pendingNonce(address: string): Promise<bigint> {
    const method = "eth_getTransactionCount";
    return quantity(await this.backend.request(method, [address, "pending"]), method);
  }

  /** The nonce of `address` in the latest block (transactions included so far). */
  async latestNonce(address: string): Promise<bigint> {
    const method = "eth_getTransactionCount";
    return quantity(await this.backend.request(method, [address, "latest"]), method);
  }

  /** The latest block's base fee (zero on a chain without EIP-1559). */
  async baseFee(): Promise<bigint> {
    const block = (await this.backend.request("eth_getBlockByNumber", ["latest", false])) as {
      baseFeePerGas?: unknown;
    } | null;
    if (!block || block.baseFeePerGas === undefined) return 0n;
    return quantity(block.baseFeePerGas, "eth_getBlockByNumber");
  }

  /** The node's suggested priority fee. */
  async maxPriorityFeePerGas(): Promise<bigint> {
    const method = "eth_maxPriorityFeePerGas";
    return quantity(await this.backend.request(method, []), method);
  }

  async estimateGas(call: EvmCall): Promise<bigint> {
    const method = "eth_estimateGas";
    return quantity(await this.backend.request(method, [callObject(call)]), method);
  }

  /** Runs `call` at `block` (a number, or `latest`) and returns its output; a revert throws `ChainRpcError`. */
  async call(call: EvmCall, block: bigint | "latest"): Promise<string> {
    const result = await this.backend.request("eth_call", [
      callObject(call),
      block === "latest" ? block : hexQuantity(block),
    ]);
    return typeof result === "string" ? result : "0x";
  }

  /** The code of `address` in the latest block (`0x` hex, lower case; `0x` for an account without code). */
  async code(address: string): Promise<string> {
    const method = "eth_getCode";
    const code = await this.backend.request(method, [address, "latest"]);
    if (typeof code !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(code)) {
      throw new ChainUnreachable(method, `the answer ${excerptJson(code)} is not hex bytes`);
    }
    return code.toLowerCase();
  }

  async balance(address: string): Promise<bigint> {
    const method = "eth_getBalance";
    return quantity(await this.backend.request(method, [address, "latest"]), method);
  }

  /** Broadcasts a signed transaction (`0x` hex) and returns the hash the node reports. */
  async sendRawTransaction(signed: string): Promise<string> {
    const hash = await this.backend.request("eth_sendRawTransaction", [signed]);
    if (typeof hash !== "string") throw new ChainUnreachable("eth_sendRawTransaction", "no transaction hash");
    return hash;
  }

  /** The receipt of `hash`, or undefined while it is not in a block. */
  async receipt(hash: string): Promise<EvmReceipt | undefined> {
    const method = "eth_getTransactionReceipt";
    const receipt = (await this.backend.request(method, [hash])) as {
      status?: unknown;
      blockNumber?: unknown;
      blockHash?: unknown;
      gasUsed?: unknown;
    } | null;
    if (!receipt || receipt.blockNumber === null || receipt.blockNumber === undefined) return undefined;
    return {
      success: quantity(receipt.status, method) === 1n,
      blockNumber: quantity(receipt.blockNumber, method),
      blockHash: typeof receipt.blockHash === "string" ? receipt.blockHash : "",
      gasUsed: quantity(receipt.gasUsed, method),
    };
  }

  /** The transaction `hash` as the node knows it (`from`, `to`, `value`, `input`), or undefined. */
  async transaction(hash: string): Promise<EvmCall | undefined> {
    const tx = (await this.backend.request("eth_getTransactionByHash", [hash])) as {
      from?: unknown;
      to?: unknown;
      value?: unknown;
      input?: unknown;
    } | null;
    if (!tx || typeof tx.from !== "string" || typeof tx.to !== "string") return undefined;
    return {
      from: tx.from,
      to: tx.to,
      value: quantity(tx.value ?? "0x0", "eth_getTransactionByHash"),
      data: typeof tx.input === "string" ? tx.input : "0x",
    };
  }
}
