/**
 * JSON-RPC 2.0 over HTTP, the one transport every chain backend given as a URL uses. A call either answers
 * with its `result`, or throws: {@link ChainRpcError} when the node answered with a JSON-RPC error (the node
 * refused the request: a nonce too low, a revert), or {@link ChainUnreachable} when no usable answer came
 * (refused connection, timeout, an answer too large, a body that is not JSON-RPC). Callers tell the two apart
 * because only the second leaves it unknown whether the node acted on the request.
 *
 * A node is not trusted to be brief: every call is bounded in time (the answer included) and in the bytes of
 * answer it reads, which are counted as they stream in, so an endless or huge answer costs at most the limit.
 *
 * @module
 */
import { readBoundedText } from "../common/bounded-body.js";
import { excerpt } from "./excerpt.js";

/** A JSON-RPC error answered by the node. */
export class ChainRpcError extends Error {
  override readonly name = "ChainRpcError";
  /**
   * The node's message, quoted (a long one cut to a bounded excerpt that names its full length): it is repeated
   * in errors and FAILED activities.
   */
  readonly rpcMessage: string;

  /**
   * The error the node answered to a call of `method`: its JSON-RPC `code`, `rpcMessage` (quoted as
   * {@link ChainRpcError.rpcMessage} says) and `data`.
   */
  constructor(
    /** The JSON-RPC method called. */
    readonly method: string,
    /** The JSON-RPC error's `code`. */
    readonly code: number,
    rpcMessage: string,
    /** The error's `data` member (for a revert: the revert data, hex). */
    readonly data: unknown,
  ) {
    const quoted = excerpt(rpcMessage);
    super(`${method} failed: ${quoted} (JSON-RPC error ${code})`);
    this.rpcMessage = quoted;
  }
}

/** No usable answer came from the node. */
export class ChainUnreachable extends Error {
  override readonly name = "ChainUnreachable";
  /** No usable answer to a call of `method`, for `reason` (a timeout, a refused connection, an answer too long...). */
  constructor(
    /** The JSON-RPC method called. */
    readonly method: string,
    /** Why no usable answer came, in words. */
    readonly reason: string,
  ) {
    super(`${method}: the chain RPC did not answer (${reason})`);
  }
}

/** Bounds of one call. */
export interface JsonRpcLimits {
  /** Time the whole call may take, the answer's last byte included (ms). Default 10 000. */
  timeoutMs?: number;
  /** Largest answer read, in bytes; a longer one is not read past this. Default 1 MiB. */
  maxAnswerBytes?: number;
}

/** Default time a single RPC call may take. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/**
 * Default largest answer. The calls custodian makes are answered in a few kilobytes (a block without its
 * transactions is tens), so a node answering a megabyte is broken or hostile.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

/** Why a request or its answer failed to arrive, in a few words (never the URL, which may hold credentials). */
function transportReason(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown }).name;
  if (name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof cause === "string") return cause;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return excerpt(error instanceof Error ? error.message : String(error));
}

/** The answer's body as text, within `limit` bytes (see `readBoundedText`), or {@link ChainUnreachable}. */
async function readAnswer(response: Response, method: string, limit: number, timeoutMs: number): Promise<string> {
  let text: string | null;
  try {
    text = await readBoundedText(response, limit);
  } catch (error) {
    throw new ChainUnreachable(method, transportReason(error, timeoutMs));
  }
  if (text === null) throw new ChainUnreachable(method, `the answer is larger than ${limit} bytes`);
  return text;
}

/**
 * Calls `method` with `params` at `url` and returns its `result`, within `limits`. Throws
 * {@link ChainRpcError} or {@link ChainUnreachable}; never anything else.
 */
export async function callJsonRpc(
  url: string,
  method: string,
  params: readonly unknown[],
  limits: JsonRpcLimits = {},
): Promise<unknown> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const maxAnswerBytes = limits.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  let response: Response;
  try {
    // The signal also ends the reading of the answer: the timeout bounds the whole call.
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ChainUnreachable(method, transportReason(error, timeoutMs));
  }
  const text = await readAnswer(response, method, maxAnswerBytes, timeoutMs);
  let body: unknown;
  try {
    body = JSON.parse(text);
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
