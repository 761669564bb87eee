import { describe, expect, it } from "vitest";
import { evaluateExpression } from "../../src/policy/index.js";
import { expectFailure, signingContext } from "./helpers.js";

/** Whether `CronSpan(cron, duration, zone)` holds at the instant `now` (an RFC 3339 string in UTC). */
function active(cron: string, duration: string, zone: string, now: string | Date): boolean {
  return evaluateExpression(`CronSpan('${cron}', '${duration}', '${zone}')`, signingContext({ time: { now } }), "time");
}

describe("CronSpan windows", () => {
  it("open at the fire (inclusive) and close after the duration (exclusive)", () => {
    expect(active("0 9 * * *", "8h", "UTC", "2026-03-16T08:59:59Z")).toBe(false);
    expect(active("0 9 * * *", "8h", "UTC", "2026-03-16T09:00:00Z")).toBe(true);
    expect(active("0 9 * * *", "8h", "UTC", "2026-03-16T16:59:59.999Z")).toBe(true);
    expect(active("0 9 * * *", "8h", "UTC", "2026-03-16T17:00:00Z")).toBe(false);
  });

  it("follow weekdays in the named zone (business hours in New York)", () => {
    expect(active("0 9 * * 1-5", "8h", "America/New_York", "2026-03-16T14:00:00Z")).toBe(true); // Mon 10:00 EDT
    expect(active("0 9 * * 1-5", "8h", "America/New_York", "2026-03-14T14:00:00Z")).toBe(false); // Sat 10:00 EDT
    expect(active("0 9 * * 1-5", "8h", "America/New_York", "2026-03-16T21:30:00Z")).toBe(false); // Mon 17:30 EDT
  });

  it("cross midnight and weekday boundaries", () => {
    expect(active("0 22 * * *", "8h", "America/New_York", "2026-01-15T09:30:00Z")).toBe(true); // 04:30 EST
    expect(active("0 22 * * *", "8h", "America/New_York", "2026-01-15T11:30:00Z")).toBe(false); // 06:30 EST
    expect(active("0 22 * * 5", "8h", "UTC", "2026-03-14T03:00:00Z")).toBe(true); // Saturday, fired Friday
  });

  it("match a day if either restricted day field matches", () => {
    // Fire at midnight on the 13th or on Fridays.
    expect(active("0 0 13 * 5", "1d", "UTC", "2026-03-20T12:00:00Z")).toBe(true); // Friday the 20th
    expect(active("0 0 13 * 5", "1d", "UTC", "2026-04-13T12:00:00Z")).toBe(true); // Monday the 13th
    expect(active("0 0 13 * 5", "1d", "UTC", "2026-04-14T12:00:00Z")).toBe(false);
  });

  it("use the one restricted day field alone, and the month always", () => {
    expect(active("0 0 * * 1", "1d", "UTC", "2026-03-16T12:00:00Z")).toBe(true);
    expect(active("0 0 * * 1", "1d", "UTC", "2026-03-17T12:00:00Z")).toBe(false);
    expect(active("0 0 1 * *", "1d", "UTC", "2026-04-01T12:00:00Z")).toBe(true);
    expect(active("0 0 1 * *", "1d", "UTC", "2026-04-02T12:00:00Z")).toBe(false);
    expect(active("0 0 * 12 *", "1d", "UTC", "2026-12-05T00:30:00Z")).toBe(true);
    expect(active("0 0 * 12 *", "1d", "UTC", "2026-11-05T00:30:00Z")).toBe(false);
  });

  it("read day-of-week 7 as Sunday, and lists and ranges", () => {
    expect(active("0 0 * * 7", "1d", "UTC", "2026-03-15T12:00:00Z")).toBe(true);
    expect(active("0,30 8-9 * * *", "10m", "UTC", "2026-03-15T09:35:00Z")).toBe(true);
    expect(active("0,30 8-9 * * *", "10m", "UTC", "2026-03-15T09:45:00Z")).toBe(false);
  });

  it("fire at wall-clock time across the spring-forward change", () => {
    // New York moves from 02:00 EST to 03:00 EDT on 2026-03-08.
    expect(active("0 9 * * *", "1h", "America/New_York", "2026-03-08T13:00:00Z")).toBe(true); // 09:00 EDT
    expect(active("0 9 * * *", "1h", "America/New_York", "2026-03-08T12:59:00Z")).toBe(false);
    // 02:30 does not exist that day, so nothing fires; it does the next day.
    expect(active("30 2 * * *", "1h", "America/New_York", "2026-03-08T07:45:00Z")).toBe(false);
    expect(active("30 2 * * *", "1h", "America/New_York", "2026-03-09T06:45:00Z")).toBe(true);
  });

  it("fire at both occurrences of a repeated wall-clock time at the fall-back change", () => {
    // New York moves from 02:00 EDT back to 01:00 EST on 2026-11-01.
    expect(active("30 1 * * *", "10m", "America/New_York", "2026-11-01T05:35:00Z")).toBe(true); // 01:35 EDT
    expect(active("30 1 * * *", "10m", "America/New_York", "2026-11-01T05:45:00Z")).toBe(false); // 01:45 EDT
    expect(active("30 1 * * *", "10m", "America/New_York", "2026-11-01T06:35:00Z")).toBe(true); // 01:35 EST
  });

  it("handle zones with quarter-hour offsets", () => {
    expect(active("0 9 * * *", "1h", "Asia/Kathmandu", "2026-03-16T03:15:00Z")).toBe(true); // 09:00 +05:45
    expect(active("0 9 * * *", "1h", "Asia/Kathmandu", "2026-03-16T03:14:00Z")).toBe(false);
  });

  it("accept every duration form up to seven days", () => {
    expect(active("0 0 * * 1", "7d", "UTC", "2026-03-22T23:59:00Z")).toBe(true);
    expect(active("0 0 * * 1", "1d12h", "UTC", "2026-03-17T11:59:00Z")).toBe(true);
    expect(active("0 0 * * 1", "1d12h", "UTC", "2026-03-17T12:00:00Z")).toBe(false);
    expect(active("0 0 * * *", "90m", "UTC", "2026-03-17T01:29:00Z")).toBe(true);
  });

  it("take the trusted time as a Date too", () => {
    expect(active("0 9 * * *", "8h", "UTC", new Date("2026-03-16T10:00:00Z"))).toBe(true);
  });

  it("fail without a trusted time", () => {
    expectFailure(
      () => evaluateExpression("CronSpan('0 9 * * *', '8h', 'UTC')", signingContext({ time: undefined }), "time"),
      { reason: "POLICY_MISSING_FIELD", message: /time\.now/ },
    );
    expectFailure(
      () => evaluateExpression("CronSpan('0 9 * * *', '8h', 'UTC')", signingContext({ time: { now: "soon" } }), "time"),
      { reason: "POLICY_INVALID_TIME" },
    );
  });
});

describe("CronSpan arguments", () => {
  const refused = (cron: string, duration: string, zone: string, position: number) =>
    expectFailure(() => active(cron, duration, zone, "2026-03-16T10:00:00Z"), {
      reason: "POLICY_INVALID_TIME",
      position,
    });

  it("refuse steps, names, macros, out-of-range values, reversed ranges and wrong field counts", () => {
    for (const cron of [
      "*/5 * * * *",
      "0 9 * * MON",
      "@daily",
      "60 * * * *",
      "0 24 * * *",
      "0 0 0 * *",
      "0 0 * 13 *",
      "0 0 * * 8",
      "5-1 * * * *",
      "0 0 * * * *",
      "0 0 * *",
      "0 0 * * 1,",
    ]) {
      refused(cron, "1h", "UTC", 9);
    }
  });

  it("refuse durations that are zero, over seven days or not in d/h/m", () => {
    for (const duration of ["0m", "8d", "7d1m", "", "h", "1h1d", "1w", "1.5h", "-1h"]) {
      refused("0 9 * * *", duration, "UTC", 22);
    }
  });

  it("refuse anything but an IANA zone name", () => {
    for (const zone of ["+01:00", "Mars/Olympus", "", "America/New York"]) {
      refused("0 9 * * *", "1h", zone, 28);
    }
  });
});
