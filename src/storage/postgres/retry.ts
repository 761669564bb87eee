/**
 * Which failures a serializable transaction retries, and how long it waits between attempts.
 *
 * @module
 */
import { isSqlError } from "./client.js";
import { DEFERRED_WRITE_REFUSED } from "./migrations.js";

/**
 * SQLSTATEs after which running the whole transaction again can succeed: a serialization failure (40001), a
 * deadlock (40P01), and a unique violation (23505). The store checks every unique key before it writes one,
 * so a 23505 only comes from a concurrent transaction that took the key after this one looked; on the retry
 * the check sees the holder and reports a {@link UniqueKeyViolation} as usual.
 */
const RETRYABLE = new Set(["40001", "40P01", "23505"]);

export function isRetryable(error: unknown): boolean {
  return isSqlError(error) && RETRYABLE.has(error.code);
}

/** Attempts before giving up: contention this long-lived means something is wrong, not merely busy. */
export const MAX_ATTEMPTS = 50;

/** Full jitter over an exponential ceiling (1 ms doubling up to 100 ms), so colliding transactions spread out. */
export function backoff(attempt: number): Promise<void> {
  const ceiling = Math.min(100, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/**
 * Whether a deferred put was refused (see `PgTransaction`): the work is then run again, at once, with puts sent
 * where they are awaited, so that the refusal reaches the caller as the put's own error.
 */
export function isDeferredWriteRefused(error: unknown): boolean {
  return isSqlError(error) && error.code === DEFERRED_WRITE_REFUSED;
}
