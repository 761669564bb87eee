/**
 * The `timestamp` type: `Timestamp('<rfc3339>')` literals and the trusted `time.now`.
 *
 * @module
 */

import { expressionError } from "./expression-errors.js";

/** An instant with nanosecond precision (RFC 3339 allows nine fraction digits). */
export class PolicyTimestamp {
  constructor(readonly epochNanos: bigint) {}

  /** Milliseconds since the epoch, rounded down. */
  get epochMillis(): number {
    const millis = this.epochNanos / 1_000_000n;
    return Number(this.epochNanos < 0n && this.epochNanos % 1_000_000n !== 0n ? millis - 1n : millis);
  }

  static fromDate(date: Date, position?: number): PolicyTimestamp {
    const millis = date.getTime();
    if (Number.isNaN(millis)) throw expressionError("POLICY_INVALID_TIME", "invalid Date", position);
    return new PolicyTimestamp(BigInt(millis) * 1_000_000n);
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 date-time. Only a zero UTC offset (`Z`, `+00:00`, `-00:00`) is accepted, as the
 * time-based policy docs require, so a timestamp can never silently mean a different instant. Leap
 * seconds (`:60`) are refused: the instant they name is not representable.
 */
export function parseTimestamp(text: string, position?: number): PolicyTimestamp {
  const match = RFC3339.exec(text);
  const fail = (why: string) =>
    expressionError("POLICY_INVALID_TIME", `invalid Timestamp ${JSON.stringify(text)}: ${why}`, position);
  if (!match) throw fail("expected RFC 3339, e.g. '2026-01-31T09:30:00Z'");
  const [, y, mo, d, h, mi, s, fraction = "", offset] = match;
  if (offset !== "Z" && offset !== "z" && offset!.slice(1) !== "00:00") {
    throw fail("only a zero UTC offset ('Z') is accepted");
  }
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const [hour, minute, second] = [Number(h), Number(mi), Number(s)];
  if (month < 1 || month > 12) throw fail("month out of range");
  if (day < 1 || day > daysInMonth(year, month)) throw fail("day out of range");
  if (hour > 23 || minute > 59 || second > 59) throw fail("time of day out of range");
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const nanos = BigInt(fraction.padEnd(9, "0") || "0");
  return new PolicyTimestamp(BigInt(date.getTime()) * 1_000_000n + nanos);
}

/** Days in `month` (1-12) of the proleptic Gregorian `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
