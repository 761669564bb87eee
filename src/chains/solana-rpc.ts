/**
 * The few Solana JSON-RPC calls the engine makes, typed: the latest blockhash, broadcasting a signed transaction
 * (base64) and signature statuses for a send; balances and account data for the balance queries; over the
 * chain's backend (`chains/registry.ts`). Failures are the
 * backend's: `ChainRpcError` when the node refused (a failed preflight keeps its `{ err, logs }` as `data`),
 * `ChainUnreachable` when it did not answer; a malformed answer counts as no answer, as in `evm-rpc.ts`.
 *
 * @module
 */
import { base64 } from "@scure/base";
import type { ChainBackend } from "./registry.js";
import { ChainUnreachable } from "./rpc.js";

/** A recent blockhash and the last block height at which a transaction using it can land. */
export interface LatestBlockhash {
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
}

/** How far a cluster has confirmed a transaction. */
export type Commitment = "processed" | "confirmed" | "finalized";

/** One entry of `getSignatureStatuses`: where the transaction landed and whether it failed. */
export interface SignatureStatus {
  readonly slot: bigint;
  /** The transaction error as the node reports it (a name or `{ Name: detail }`); null when it succeeded. */
  readonly err: unknown;
  readonly confirmationStatus: Commitment | null;
}

/**
 * A blockhash: 32 bytes in base58. Checked here, before anything decodes it: base58 decoding takes time
 * quadratic in the length, and a node's answer can be a megabyte long.
 */
const BLOCKHASH = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the engine reads of an account: its owner program and its data. */
export interface AccountInfo {
  /** The program that owns the account (base58). */
  readonly owner: string;
  readonly data: Uint8Array;
}

/**
 * Largest account data read, in base64 characters: a mint or a token account with extensions is a few hundred
 * bytes, so anything near this is not an account the engine reads.
 */
const MAX_ACCOUNT_DATA_BASE64 = 16 * 1024;

/** A base58 address of 32 bytes, checked by its shape before anything decodes it (see {@link BLOCKHASH}). */
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** A typed view of one Solana cluster's backend. */
export class SolanaRpc {
  constructor(readonly backend: ChainBackend) {}

  async latestBlockhash(): Promise<LatestBlockhash> {
    const method = "getLatestBlockhash";
    const result = await this.backend.request(method, [{ commitment: "confirmed" }]);
    const value = isRecord(result) ? result.value : undefined;
    if (
      !isRecord(value) ||
      typeof value.blockhash !== "string" ||
      !BLOCKHASH.test(value.blockhash) ||
      !Number.isSafeInteger(value.lastValidBlockHeight)
    ) {
      throw new ChainUnreachable(method, "the answer holds no blockhash");
    }
    return { blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight as number) };
  }

  /**
   * Broadcasts a signed wire transaction, the node simulating it first (preflight) so a transaction that
   * would fail is refused rather than charged. Resolves to the signature the node reports (base58).
   */
  async sendTransaction(wire: Uint8Array): Promise<string> {
    const method = "sendTransaction";
    const result = await this.backend.request(method, [
      base64.encode(wire),
      { encoding: "base64", skipPreflight: false, preflightCommitment: "confirmed" },
    ]);
    if (typeof result !== "string") throw new ChainUnreachable(method, "the answer holds no signature");
    return result;
  }

  /** The status of each signature, null for one the node does not know (yet). */
  async signatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]> {
    const method = "getSignatureStatuses";
    const result = await this.backend.request(method, [signatures, { searchTransactionHistory: true }]);
    const value = isRecord(result) ? result.value : undefined;
    if (!Array.isArray(value) || value.length !== signatures.length) {
      throw new ChainUnreachable(method, `the answer holds no list of ${signatures.length} statuses`);
    }
    return value.map((entry): SignatureStatus | null => {
      if (!isRecord(entry)) return null;
      const commitment = entry.confirmationStatus;
      return {
        slot: BigInt(Number.isSafeInteger(entry.slot) ? (entry.slot as number) : 0),
        err: entry.err ?? null,
        confirmationStatus:
          commitment === "processed" || commitment === "confirmed" || commitment === "finalized" ? commitment : null,
      };
    });
  }

  /** The lamports of `address` at `confirmed` commitment (0 for an account that does not exist). */
  async balance(address: string): Promise<bigint> {
    const method = "getBalance";
    const result = await this.backend.request(method, [address, { commitment: "confirmed" }]);
    const value = isRecord(result) ? result.value : undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new ChainUnreachable(method, "the answer holds no balance");
    }
    return BigInt(value);
  }

  /** The owner and data of the account at `address` (`confirmed`), or undefined when it does not exist. */
  async accountInfo(address: string): Promise<AccountInfo | undefined> {
    const method = "getAccountInfo";
    const result = await this.backend.request(method, [address, { encoding: "base64", commitment: "confirmed" }]);
    if (!isRecord(result) || !("value" in result)) throw new ChainUnreachable(method, "the answer holds no account");
    const value = result.value;
    if (value === null) return undefined;
    const data = isRecord(value) && Array.isArray(value.data) ? value.data : undefined;
    const encoded = data?.[0];
    if (
      !isRecord(value) ||
      typeof value.owner !== "string" ||
      !ADDRESS.test(value.owner) ||
      typeof encoded !== "string" ||
      encoded.length > MAX_ACCOUNT_DATA_BASE64 ||
      data?.[1] !== "base64"
    ) {
      throw new ChainUnreachable(method, "the answer holds no account in base64");
    }
    try {
      return { owner: value.owner, data: base64.decode(encoded) };
    } catch {
      throw new ChainUnreachable(method, "the account data is not base64");
    }
  }
}
