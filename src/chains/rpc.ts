/**
 * JSON-RPC 2.0 over HTTP, the one transport every chain backend given as a URL uses. A call either answers
 * with its `result`, or throws: {@link ChainRpcError} when the node answered with a JSON-RPC error (the node
 * refused the request: a nonce too low, a revert), or {@link ChainUnreachable} when no answer came (refused
 * connection, timeout, a body that is not JSON-RPC). Callers tell the two apart because only the second
 * leaves it unknown whether the node acted on the request.
 *
 * @module
 */

/** A JSON-RPC error answered by the node. */
export class ChainRpcError extends Error {
  override readonly name = "ChainRpcError";
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    /** The error's `data` member (for a revert: the revert data, hex). */
    readonly data: unknown,
  ) {
    super(`${method} failed: ${rpcMessage} (JSON-RPC error ${code})`);
  }
}

/** No usable answer came from the node. */
export class ChainUnreachable extends Error {
  override readonly name = "ChainUnreachable";
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(`${method}: the chain RPC did not answer (${reason})`);
  }
}

/** Default time a single RPC call may take. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/**
 * Calls `method` with `params` at `url` and returns its `result`. Throws {@link ChainRpcError} or
 * {@link ChainUnreachable}; never anything else.
 */
export async function callJsonRpc(
  url: string,
  method: string,
  params: readonly unknown[],
  timeoutMs: number = DEFAULT_RPC_TIMEOUT_MS,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason =
      (error as Error).name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : (cause ?? (error as Error).message);
    throw new ChainUnreachable(method, reason);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ChainUnreachable(method, `HTTP ${response.status} without a JSON body`);
  }
  if (body === null || typeof body !== "object") throw new ChainUnreachable(method, "the answer is not JSON-RPC");
  const answer = body as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
  if (answer.error !== undefined && answer.error !== null) {
    const { code, message, data } = answer.error;
    throw new ChainRpcError(
      method,
      typeof code === "number" ? code : 0,
      typeof message === "string" ? message : "unknown error",
      data,
    );
  }
  if (!("result" in answer)) throw new ChainUnreachable(method, `HTTP ${response.status} without a JSON-RPC result`);
  return answer.result;
}
