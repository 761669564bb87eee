/**
 * The retry rules of webhook deliveries (docs `features/webhooks/overview.mdx`, "Retry behavior": 2xx is
 * success; 3xx, 4xx and 429 are terminal; network errors and 5xx may be retried; the schedule and attempt
 * count are Turnkey's to change, so these are custodian's): exponential backoff with jitter, up to a
 * maximum number of attempts.
 *
 * @module
 */
import type { RandomSource } from "../model/random.js";
import type { WebhookPostOutcome } from "./transport.js";

/** How deliveries are made and retried. */
export interface WebhookDeliverySettings {
  /**
   * Deliveries in flight at once, across all receivers. An attempt at a receiver that never answers holds
   * its slot until `timeoutMs`; a slot costs a socket and a timer, so there are enough for several
   * organizations' receivers to hang at once without holding up the rest. Default 16.
   */
  concurrency: number;
  /**
   * Deliveries in flight at once to the receivers of one organization (the owner of the endpoint or legacy
   * webhook feature; a sub-organization is an organization of its own): one organization's slow receivers
   * delay only its own deliveries. Default a quarter of `concurrency`, at least 1.
   */
  concurrencyPerOrganization: number;
  /** Deadline of one attempt, from dialling to the response status (ms). Default 10 s. */
  timeoutMs: number;
  /** Attempts before a retryable failure becomes final. Default 8. */
  maxAttempts: number;
  /** Delay before the second attempt (ms); each later one doubles it. Default 1 s. */
  initialBackoffMs: number;
  /** Longest delay between attempts (ms). Default 10 min. */
  maxBackoffMs: number;
  /**
   * How long a dispatcher holds a delivery it took (ms): engines sharing a store leave it alone meanwhile,
   * and take it over once the lease ends, should the holder have died. Longer than `timeoutMs`; default
   * 60 s or three attempt deadlines, whichever is longer. Dispatchers also look for such work every quarter lease.
   */
  leaseMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: Readonly<WebhookDeliverySettings> = {
  concurrency: 16,
  concurrencyPerOrganization: 4,
  timeoutMs: 10_000,
  maxAttempts: 8,
  initialBackoffMs: 1_000,
  maxBackoffMs: 10 * 60_000,
  leaseMs: 60_000,
};

/** What an attempt's outcome means for the delivery. */
export type Verdict =
  | { kind: "delivered" }
  | { kind: "retry"; error: string }
  | { kind: "failed"; error: string }
  | { kind: "aborted" };

/** Classifies one attempt's outcome (before the attempt budget is applied). */
export function verdictOf(outcome: WebhookPostOutcome): Verdict {
  switch (outcome.kind) {
    case "aborted":
      return outcome;
    case "refused":
      return { kind: "failed", error: outcome.error };
    case "network":
      return { kind: "retry", error: outcome.error };
    case "response": {
      const { status } = outcome;
      if (status >= 200 && status < 300) return { kind: "delivered" };
      if (status >= 500 && status < 600) return { kind: "retry", error: `the receiver answered ${status}` };
      // 3xx (redirects are not followed), 4xx including 429, and anything outside HTTP's classes.
      return { kind: "failed", error: `the receiver answered ${status}, which is not retried` };
    }
  }
}

/**
 * The delay before attempt `attempt + 1`: `initial · 2^(attempt−1)`, capped, then jittered to between half
 * and all of it, so receivers recovering from an outage are not hit by every queued event at once.
 */
export function backoffMs(attempt: number, settings: WebhookDeliverySettings, random: RandomSource): number {
  const exponential = settings.initialBackoffMs * 2 ** Math.min(attempt - 1, 40);
  const capped = Math.min(settings.maxBackoffMs, exponential);
  const bytes = random(4);
  const fraction =
    (((bytes[0] as number) << 24) |
      ((bytes[1] as number) << 16) |
      ((bytes[2] as number) << 8) |
      (bytes[3] as number)) >>>
    0;
  return Math.round(capped / 2 + (capped / 2) * (fraction / 2 ** 32));
}
