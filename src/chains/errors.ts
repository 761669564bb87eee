/**
 * Chain failures as the engine reports them: a node that did not answer is `UNAVAILABLE` (whether it acted is
 * unknown, so the caller retries with care), a node that refused is `FAILED_PRECONDITION` with the node's own
 * words. Both name the chain; neither ever carries the RPC URL's credentials (only the CAIP-2 id is shown).
 *
 * @module
 */
import { CustodyError, isCustodyError } from "../common/errors.js";
import { ChainRpcError, ChainUnreachable } from "./rpc.js";

/** `error` from a chain call made to do `action` on `caip2`, as a `CustodyError`. */
export function chainFailure(error: unknown, caip2: string, action: string, field?: string): CustodyError {
  if (isCustodyError(error)) return error;
  if (error instanceof ChainUnreachable) {
    return new CustodyError(
      "UNAVAILABLE",
      `could not ${action}: the RPC of ${caip2} did not answer (${error.reason})`,
      {
        reason: "CHAIN_UNREACHABLE",
        caip2,
        rpcMethod: error.method,
        ...(field ? { field } : {}),
      },
    );
  }
  if (error instanceof ChainRpcError) {
    return new CustodyError("FAILED_PRECONDITION", `could not ${action}: ${caip2} refused it: ${error.rpcMessage}`, {
      reason: "CHAIN_REJECTED",
      caip2,
      rpcMethod: error.method,
      rpcCode: error.code,
      ...(field ? { field } : {}),
    });
  }
  return new CustodyError("INTERNAL", `could not ${action} on ${caip2}`, { caip2 }, { cause: error });
}
