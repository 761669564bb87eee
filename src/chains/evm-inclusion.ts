/**
 * Whether a broadcast EVM transaction has landed: its receipt, and for a reverted one the reason, decoded from
 * a replay of the transaction.
 *
 * @module
 */
import { revertDataOf, revertEntry } from "./evm-revert.js";
import { EvmRpc } from "./evm-rpc.js";
import type { InclusionChecker } from "./inclusion.js";
import { ChainRpcError } from "./rpc.js";

/**
 * Why a mined EVM transaction reverted: it is replayed with `eth_call` on the state before its block (exact
 * for a transaction alone in its block, as on an automining devnet), and the node's revert data decoded.
 */
async function evmRevert(rpc: EvmRpc, hash: string, blockNumber: bigint): Promise<Record<string, unknown>> {
  const tx = await rpc.transaction(hash);
  if (!tx) return revertEntry("", undefined);
  try {
    await rpc.call(tx, blockNumber > 0n ? blockNumber - 1n : blockNumber);
  } catch (error) {
    if (error instanceof ChainRpcError) return revertEntry(tx.to, revertDataOf(error.data));
    throw error;
  }
  // The replay succeeded on the earlier state: the revert depended on its block's other transactions.
  return revertEntry(tx.to, undefined);
}

export const checkEvmInclusion: InclusionChecker = async (backend, record) => {
  const hash = record.eth?.txHash;
  if (!hash) return undefined;
  const rpc = new EvmRpc(backend);
  const receipt = await rpc.receipt(hash);
  if (!receipt) return undefined;
  const blockNumber = receipt.blockNumber.toString();
  if (receipt.success) return { status: "INCLUDED", blockNumber };
  const entry = await evmRevert(rpc, hash, receipt.blockNumber);
  const message = String(entry.displayMessage);
  return {
    status: "FAILED",
    blockNumber,
    txError: message,
    error: { message, revertChain: [entry], eth: { revertChain: [entry] } },
  };
};
