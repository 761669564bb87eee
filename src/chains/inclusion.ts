/**
 * Whether a broadcast transaction has landed, per chain family (the CAIP-2 namespace). A checker answers
 * undefined while the transaction is still waiting, or its final outcome. Chain errors propagate: the
 * tracker tries again on its next round. One module per family implements it (`evm-inclusion.ts`,
 * `solana-inclusion.ts`); the tracker holds the registry.
 *
 * @module
 */
import type { SendTransactionStatusRecord } from "../model/records.js";
import type { ChainBackend } from "./registry.js";
import type { SendOutcome } from "./send-status.js";

/** Looks up one send on its chain. */
export type InclusionChecker = (
  backend: ChainBackend,
  record: SendTransactionStatusRecord,
) => Promise<SendOutcome | undefined>;
