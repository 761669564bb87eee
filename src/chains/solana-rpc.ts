/**
 * A small client for the Solana JSON-RPC methods a send needs: the latest blockhash, broadcasting a signed
 * transaction (base64), and signature statuses. It is the whole of custodian's Solana network code, so it is
 * kept to plain `fetch` with a timeout rather than a chain SDK: three methods do not justify a dependency.
 *
 * Failures are {@link SolanaRpcError}s that say whether the node answered: `transport` (unreachable, timed
 * out, not JSON-RPC) means the request may or may not have reached the chain, `rpc` means the node refused it
 * (its JSON-RPC error code and data kept, e.g. -32002 with a failed simulation's `err` and `logs`). Callers
 * turn these into `CustodyError`s with the chain named; nothing here knows about activities.
 *
 * @module
 */
import { base64 } from "@scure/base";

/** How long one request may take before it counts as a transport failure. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

export interface SolanaRpcOptions {
  /** Per-request timeout in milliseconds (default {@link DEFAULT_RPC_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: typeof globalThis.fetch;
}

/** Why a call failed: the node could not be asked (`transport`) or it answered with an error (`rpc`). */
export class SolanaRpcError extends Error {
  override readonly name = "SolanaRpcError";
  constructor(
    readonly kind: "transport" | "rpc",
    message: string,
    /** The JSON-RPC error code, for `rpc`. */
    readonly code?: number,
    /** The JSON-RPC error data, for `rpc` (a failed preflight's `{ err, logs }`). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

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

export interface SendOptions {
  /** Skip the node's simulation before broadcasting (default false: a failing transaction is refused). */
  readonly skipPreflight?: boolean;
}

export interface SolanaRpc {
  readonly url: string;
  latestBlockhash(): Promise<LatestBlockhash>;
  /** Broadcasts a signed wire transaction; resolves to its signature (base58) as the node reports it. */
  sendTransaction(wire: Uint8Array, options?: SendOptions): Promise<string>;
  /** The status of each signature, null for one the node does not know (yet). */
  signatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function malformed(method: string, what: string): SolanaRpcError {
  return new SolanaRpcError("transport", `${method}: the node's answer has ${what}`);
}

/** A client for the node at `url`. */
export function solanaRpc(url: string, options: SolanaRpcOptions = {}): SolanaRpc {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let nextId = 1;

  async function call(method: string, params: unknown[]): Promise<unknown> {
    let response: Response;
    try {
      response = await send(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error).name === "TimeoutError"
          ? `no answer within ${timeoutMs} ms`
          : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      throw new SolanaRpcError("transport", `${method}: ${url} could not be reached (${reason})`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new SolanaRpcError("transport", `${method}: ${url} answered HTTP ${response.status} without JSON`);
    }
    if (!isRecord(body)) throw malformed(method, "no JSON-RPC object");
    if (isRecord(body.error)) {
      const { code, message, data } = body.error;
      throw new SolanaRpcError(
        "rpc",
        `${method}: ${typeof message === "string" ? message : "error"}`,
        typeof code === "number" ? code : undefined,
        data,
      );
    }
    if (!response.ok) throw new SolanaRpcError("transport", `${method}: ${url} answered HTTP ${response.status}`);
    if (!("result" in body)) throw malformed(method, "no result");
    return body.result;
  }

  return {
    url,
    async latestBlockhash() {
      const result = await call("getLatestBlockhash", [{ commitment: "confirmed" }]);
      const value = isRecord(result) ? result.value : undefined;
      if (!isRecord(value) || typeof value.blockhash !== "string" || typeof value.lastValidBlockHeight !== "number") {
        throw malformed("getLatestBlockhash", "no blockhash");
      }
      return { blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) };
    },
    async sendTransaction(wire, sendOptions = {}) {
      const result = await call("sendTransaction", [
        base64.encode(wire),
        { encoding: "base64", skipPreflight: sendOptions.skipPreflight ?? false, preflightCommitment: "confirmed" },
      ]);
      if (typeof result !== "string") throw malformed("sendTransaction", "no signature");
      return result;
    },
    async signatureStatuses(signatures) {
      const result = await call("getSignatureStatuses", [signatures, { searchTransactionHistory: true }]);
      const value = isRecord(result) ? result.value : undefined;
      if (!Array.isArray(value) || value.length !== signatures.length) {
        throw malformed("getSignatureStatuses", `no list of ${signatures.length} statuses`);
      }
      return value.map((entry): SignatureStatus | null => {
        if (!isRecord(entry)) return null;
        const commitment = entry.confirmationStatus;
        return {
          slot: BigInt(typeof entry.slot === "number" ? entry.slot : 0),
          err: entry.err ?? null,
          confirmationStatus:
            commitment === "processed" || commitment === "confirmed" || commitment === "finalized" ? commitment : null,
        };
      });
    },
  };
}
