/**
 * Whether the database can be reached, as PostgresStore sees it from its calls. A lost database makes every
 * call fail at once; each becomes `UNAVAILABLE` (`storeUnavailable`), and the host hears of the outage twice:
 * when it begins and when a call reaches the server again, rather than once per failed call.
 *
 * @module
 */
import { isCustodyError } from "../../common/errors.js";
import { storeUnavailable } from "../store.js";
import { isSqlError } from "./client.js";

/** A change of reachability, as {@link PostgresStoreOptions.onAvailabilityChange} is told it. */
export type AvailabilityChange =
  /** Calls fail: `reason` says why in a few words (an error code or pg's message, never the connection string). */
  | { readonly available: false; readonly reason: string }
  /** A call reached the server again, `unavailableMs` after the first failure. */
  | { readonly available: true; readonly unavailableMs: number };

/**
 * SQLSTATEs that mean the connection, not the statement, failed: class 08 (connection exception), the server
 * shutting down or starting up (57P01, 57P02, 57P03), and no connection slot left (53300).
 */
const UNREACHABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** Node's codes for a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** pg's own messages for a connection lost, never made in time, or unusable since an earlier loss. */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/** Why `error` says the database was not reached, or undefined when it says something else. */
export function connectionLossReason(error: unknown): string | undefined {
  if (isSqlError(error)) {
    return error.code.startsWith("08") || UNREACHABLE_STATES.has(error.code)
      ? `${error.code} ${error.message}`
      : undefined;
  }
  if (!(error instanceof Error) || isCustodyError(error)) return undefined;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
  return PG_CONNECTION_MESSAGES.test(error.message) ? error.message : undefined;
}

/** The store's view of the database: reachable, or unreachable since a moment. */
export class Reachability {
  #lostAt: number | undefined;

  constructor(private readonly onChange: ((change: AvailabilityChange) => void) | undefined) {}

  /**
   * `error` as the store throws it: a connection loss becomes `storeUnavailable` (the first of an outage is
   * reported); anything else is left as it is, and shows the server was reached.
   */
  failure(error: unknown): unknown {
    const reason = connectionLossReason(error);
    if (reason === undefined) {
      this.reached();
      return error;
    }
    if (this.#lostAt === undefined) {
      this.#lostAt = Date.now();
      this.#tell({ available: false, reason });
    }
    return storeUnavailable(error);
  }

  /** A call reached the server: the end of an outage is reported. */
  reached(): void {
    if (this.#lostAt === undefined) return;
    const unavailableMs = Date.now() - this.#lostAt;
    this.#lostAt = undefined;
    this.#tell({ available: true, unavailableMs });
  }

  #tell(change: AvailabilityChange): void {
    try {
      this.onChange?.(change);
    } catch {
      // A host's logger that throws must not turn a store answer into another error.
    }
  }
}
