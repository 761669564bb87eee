/**
 * Whether a broadcast Solana transaction has landed: its signature status, `confirmed` or `finalized` being
 * INCLUDED (a `processed` transaction can still be dropped with its fork), and a status with an error FAILED,
 * with the error in the `v1TxError` shape (`solana.transactionErrorJson`, quoted: a node chooses how long it is).
 * A signature the cluster does not know yet keeps waiting.
 *
 * @module
 */
import { excerptJson } from "./excerpt.js";
import type { InclusionChecker } from "./inclusion.js";
import { SolanaRpc } from "./solana-rpc.js";

export const checkSolanaInclusion: InclusionChecker = async (backend, record) => {
  const signature = record.solana?.signature;
  if (!signature) return undefined;
  const [status] = await new SolanaRpc(backend).signatureStatuses([signature]);
  if (!status) return undefined;
  const blockNumber = status.slot.toString();
  if (status.err !== null) {
    const transactionErrorJson = excerptJson(status.err);
    const message = `the transaction failed on chain: ${transactionErrorJson}`;
    return { status: "FAILED", blockNumber, txError: message, error: { message, solana: { transactionErrorJson } } };
  }
  if (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized") {
    return { status: "INCLUDED", blockNumber };
  }
  return undefined;
};
