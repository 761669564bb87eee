/**
 * Liveness of a submission: its `timestampMs` must fall inside the request lifetime the engine is
 * configured with (default: at most one hour old and five minutes ahead, as Turnkey's FAQ states). The
 * refusal names the window in force, so a team that widened it (for offline signing) sees what applies.
 *
 * @module
 */
import { CustodyError } from "../../common/errors.js";

const UNITS: ReadonlyArray<readonly [string, number]> = [
  ["hour", 60 * 60 * 1000],
  ["minute", 60 * 1000],
  ["second", 1000],
  ["millisecond", 1],
];

/** `3_600_000` → "1 hour", `86_400_000` → "24 hours", `5_400_000` → "90 minutes": the largest exact unit. */
export function formatDuration(ms: number): string {
  const [unit, size] = UNITS.find(([, size]) => ms % size === 0) ?? ["millisecond", 1];
  const count = ms / size;
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** The accepted window around the engine clock. */
export interface RequestLifetime {
  /** Submissions older than this are refused (ms). */
  readonly maxRequestAgeMs: number;
  /** Submissions dated further ahead than this are refused (ms). */
  readonly maxClockSkewMs: number;
}

/** Refuses a `timestampMs` outside the window, naming the window; nothing has been stored yet. */
export function assertLive(timestampMs: string, now: number, lifetime: RequestLifetime): void {
  const at = Number(timestampMs);
  if (at < now - lifetime.maxRequestAgeMs) {
    const window = formatDuration(lifetime.maxRequestAgeMs);
    throw new CustodyError("INVALID_ARGUMENT", `timestampMs is too old: a signed request is valid for ${window}`, {
      field: "timestampMs",
      reason: "STALE_TIMESTAMP",
      timestampMs,
      now,
      maxRequestAgeMs: lifetime.maxRequestAgeMs,
    });
  }
  if (at > now + lifetime.maxClockSkewMs) {
    const skew = formatDuration(lifetime.maxClockSkewMs);
    throw new CustodyError("INVALID_ARGUMENT", `timestampMs is too far in the future (more than ${skew} ahead)`, {
      field: "timestampMs",
      reason: "FUTURE_TIMESTAMP",
      timestampMs,
      now,
      maxClockSkewMs: lifetime.maxClockSkewMs,
    });
  }
}
