/**
 * Retry rules: which outcomes are retried, and the backoff schedule.
 */
import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../../src/index.js";
import { backoffMs, DEFAULT_DELIVERY_SETTINGS, verdictOf } from "../../src/webhooks/retry.js";

describe("verdictOf", () => {
  it("delivers on 2xx, retries 5xx and network errors, and stops on everything else", () => {
    expect(verdictOf({ kind: "response", status: 200 }).kind).toBe("delivered");
    expect(verdictOf({ kind: "response", status: 204 }).kind).toBe("delivered");
    for (const status of [500, 502, 503, 599]) expect(verdictOf({ kind: "response", status }).kind).toBe("retry");
    for (const status of [301, 302, 307, 400, 401, 404, 410, 429, 100, 600]) {
      expect(verdictOf({ kind: "response", status }).kind, String(status)).toBe("failed");
    }
    expect(verdictOf({ kind: "network", error: "ECONNRESET" })).toEqual({ kind: "retry", error: "ECONNRESET" });
    expect(verdictOf({ kind: "refused", error: "private" })).toEqual({ kind: "failed", error: "private" });
    expect(verdictOf({ kind: "aborted" }).kind).toBe("aborted");
  });
});

describe("backoffMs", () => {
  it("doubles from the initial delay up to the cap, jittered between half and all of it", () => {
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, initialBackoffMs: 1_000, maxBackoffMs: 60_000 };
    const random = createSeededRandom("backoff");
    for (let attempt = 1; attempt <= 12; attempt++) {
      const full = Math.min(60_000, 1_000 * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const delay = backoffMs(attempt, settings, random);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
      }
    }
  });

  it("spreads the delays of one attempt (jitter), reproducibly under a seeded random source", () => {
    const settings = DEFAULT_DELIVERY_SETTINGS;
    const draw = (seed: string) => {
      const random = createSeededRandom(seed);
      return Array.from({ length: 20 }, () => backoffMs(3, settings, random));
    };
    expect(new Set(draw("a")).size).toBeGreaterThan(10);
    expect(draw("a")).toEqual(draw("a"));
  });
});
