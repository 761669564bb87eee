/**
 * The webhook dispatcher: reads the due head of the outbox queue, sends up to `concurrency` deliveries at
 * once, and records each attempt's outcome with the delivery's next state in one transaction. It runs
 * beside the engine, never inside a submission: a commit only wakes it, so a slow or dead receiver costs
 * `submit` nothing. State lives in the store, so a new engine on the same store resumes what was pending.
 *
 * Several engines may share one store (PostgreSQL). Each dispatcher takes the due head of the queue with
 * `Store.claim`: a lease in its own name, for `leaseMs`, so no other dispatcher sends that delivery meanwhile.
 * Recording the outcome replaces the queue entry, which ends the lease; an attempt abandoned by `close()` or a
 * store failure releases it. A dispatcher that dies (a crash, SIGKILL) keeps its leases until they end; then
 * any other dispatcher takes the deliveries over. Dispatchers are woken by their own engine's commits and
 * otherwise look at the queue every quarter lease, which is how work left by a dead peer is found.
 *
 * Delivery is at least once: an attempt cut short by `close()` or a crash is not recorded, and the event is
 * sent again, with the same event id, by the next dispatcher to take it. A crash after the receiver answered
 * and before the outcome was recorded therefore sends the event twice; receivers deduplicate on the event id.
 *
 * Events are taken oldest-due first, but with `concurrency` above 1, or after a retry, they can arrive out
 * of order; a receiver orders an activity's versions by its `updatedAt` and status.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { isCustodyError } from "../common/errors.js";
import { utf8ToBytes } from "../crypto/bytes.js";
import { DataReader, DataWriter, WEBHOOK_QUEUE_SCOPE } from "../model/data.js";
import type { Clock, RandomSource } from "../model/random.js";
import type { WebhookDeliveryRecord, WebhookQueueRecord } from "../model/records.js";
import type { Store } from "../storage/store.js";
import { deliveryHeaders } from "./headers.js";
import { type DeliveryUpdate, dropQueueEntry, queueKey, settleDelivery } from "./outbox.js";
import { backoffMs, verdictOf, type WebhookDeliverySettings } from "./retry.js";
import type { WebhookSigner } from "./signer.js";
import { type CurrentTarget, currentTarget } from "./targets.js";
import { postWebhook } from "./transport.js";
import { checkWebhookUrl, type WebhookUrlRules } from "./url-policy.js";

/** What the dispatcher works with. */
export interface DispatcherDependencies {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly signer: WebhookSigner;
  /** Makes the signer usable (opens the vault and loads or creates the key). */
  readonly openSigner: () => Promise<void>;
  readonly settings: WebhookDeliverySettings;
  readonly rules: WebhookUrlRules;
  /** Told about unexpected failures (a failing store); delivery outcomes are recorded, not reported here. */
  readonly onError?: (error: unknown) => void;
}

/** The outbox queue's collection. */
const QUEUE = "webhookQueue";

type Loaded = { stale: true } | { stale: false; delivery: WebhookDeliveryRecord; target: CurrentTarget };

export class WebhookDispatcher {
  readonly #deps: DispatcherDependencies;
  readonly #closing = new AbortController();
  readonly #inFlight = new Map<string, Promise<void>>();
  #started = false;
  #scanning: Promise<void> | undefined;
  #scanAgain = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** After an unexpected failure (a store error), scans wait until then, so a broken store is not spun on. */
  #pausedUntil = 0;
  #failures = 0;
  /**
   * Whose leases this dispatcher takes: unique to it, so an engine restarted on the store is a new owner. Not
   * from the engine's random source, which a seeded engine replays: two seeded engines must still differ.
   */
  readonly #owner: string;

  constructor(deps: DispatcherDependencies) {
    this.#deps = deps;
    this.#owner = `dispatcher-${randomUUID()}`;
  }

  /** Starts dispatching, beginning with whatever an earlier engine left pending. Idempotent. */
  start(): void {
    if (this.#started || this.#closing.signal.aborted) return;
    this.#started = true;
    this.wake();
  }

  /**
   * Schedules a look at the queue. Returns at once: the scan runs on a later turn of the event loop, and
   * wakes arriving during a scan fold into one more scan.
   */
  wake(): void {
    if (!this.#started || this.#closing.signal.aborted) return;
    if (this.#scanning !== undefined) {
      this.#scanAgain = true;
      return;
    }
    this.#scanning = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#scan())
      .catch((error: unknown) => this.#pause(error))
      .finally(() => {
        this.#scanning = undefined;
        if (this.#scanAgain) {
          this.#scanAgain = false;
          this.wake();
        }
      });
  }

  /**
   * Stops dispatching: no new attempts, attempts in flight aborted (they stay pending, for the next
   * engine), and resolves once every in-flight piece of work has let go of the store.
   */
  async close(): Promise<void> {
    this.#closing.abort();
    clearTimeout(this.#timer);
    await this.#scanning;
    await Promise.all(this.#inFlight.values());
  }

  #arm(delayMs: number): void {
    clearTimeout(this.#timer);
    if (this.#closing.signal.aborted) return;
    this.#timer = setTimeout(() => this.wake(), Math.max(0, delayMs));
    // Pending retries alone do not keep a process alive; a host that serves requests is alive anyway.
    this.#timer.unref?.();
  }

  #pause(error: unknown): void {
    this.#deps.onError?.(error);
    this.#failures++;
    const delay = backoffMs(this.#failures, this.#deps.settings, this.#deps.random);
    this.#pausedUntil = this.#deps.clock() + delay;
    this.#arm(delay);
  }

  async #scan(): Promise<void> {
    const { settings, clock, store } = this.#deps;
    const now = clock();
    if (now < this.#pausedUntil) return this.#arm(this.#pausedUntil - now);
    // Another engine's new work, or work a dead one left, is found by looking again (see the module comment).
    let nextLookMs = Math.max(1, Math.floor(settings.leaseMs / 4));
    const free = settings.concurrency - this.#inFlight.size;
    // A full house: the next completion wakes the dispatcher again.
    if (free > 0) {
      const claimed = await store.claim(QUEUE, WEBHOOK_QUEUE_SCOPE, {
        owner: this.#owner,
        now,
        until: now + settings.leaseMs,
        limit: free,
        before: queueKey(now + 1, ""),
      });
      for (const entry of claimed as unknown as WebhookQueueRecord[]) {
        // Only an attempt that outlived its lease could be claimed again while in flight; it is left to finish.
        if (this.#inFlight.has(entry.eventId)) continue;
        if (this.#closing.signal.aborted) {
          await store.release(QUEUE, [entry.id], this.#owner);
          continue;
        }
        this.#launch(entry);
      }
      if (this.#closing.signal.aborted) return;
    }
    const [next] = await store.read((reader) =>
      new DataReader(reader).list(QUEUE, WEBHOOK_QUEUE_SCOPE, { after: queueKey(now + 1, ""), limit: 1 }),
    );
    if (next !== undefined) nextLookMs = Math.min(nextLookMs, next.dueAtMs - now);
    this.#arm(nextLookMs);
  }

  #launch(entry: WebhookQueueRecord): void {
    const run = this.#deliver(entry)
      .then(
        async (done) => {
          this.#failures = 0;
          if (!done) await this.#release(entry);
        },
        async (error: unknown) => {
          this.#pause(error);
          await this.#release(entry);
        },
      )
      .finally(() => {
        this.#inFlight.delete(entry.eventId);
        this.wake();
      });
    this.#inFlight.set(entry.eventId, run);
  }

  /** Hands back a delivery this dispatcher took and did not settle, so any engine may take it at once. */
  async #release(entry: WebhookQueueRecord): Promise<void> {
    try {
      await this.#deps.store.release(QUEUE, [entry.id], this.#owner);
    } catch (error) {
      // The lease still ends on its own; only the hand-over waits for it.
      this.#deps.onError?.(error);
    }
  }

  /** Makes one attempt (or settles without one); false when it was abandoned unrecorded (closing). */
  async #deliver(entry: WebhookQueueRecord): Promise<boolean> {
    const { store, clock, settings, rules, signer } = this.#deps;
    const loaded = await store.read(async (reader): Promise<Loaded> => {
      const data = new DataReader(reader);
      const delivery = await data.get("webhookDeliveries", entry.eventId);
      if (delivery?.status !== "PENDING" || delivery.nextAttemptAtMs !== entry.dueAtMs) return { stale: true };
      return { stale: false, delivery, target: await currentTarget(data, delivery) };
    });
    if (loaded.stale) {
      await store.transaction((tx) => dropQueueEntry(new DataWriter(tx), entry));
      return true;
    }
    const { delivery, target } = loaded;
    if ("cancelled" in target) {
      await this.#settle(delivery, {
        status: "CANCELLED",
        nextAttemptAtMs: null,
        lastError: target.cancelled,
        now: clock(),
      });
      return true;
    }

    const attempt = delivery.attempts + 1;
    const startedAtMs = clock();
    let url: URL;
    try {
      url = checkWebhookUrl(target.url, rules, "url");
    } catch (error) {
      // The rules changed since the URL was set (an engine now opened without allowInsecureWebhooks).
      const message = isCustodyError(error) ? error.message : String(error);
      await this.#settle(delivery, {
        status: "FAILED",
        nextAttemptAtMs: null,
        lastError: message,
        attempt: {
          url: target.url,
          timestampMs: startedAtMs,
          statusCode: null,
          error: message,
          outcome: "FAILED",
          durationMs: 0,
        },
        now: startedAtMs,
      });
      return true;
    }

    await this.#deps.openSigner();
    const body = utf8ToBytes(delivery.body);
    const timestampMs = clock();
    const outcome = await postWebhook({
      url,
      headers: deliveryHeaders(signer, delivery, body, timestampMs),
      body,
      timeoutMs: settings.timeoutMs,
      allowPrivate: rules.allowInsecure,
      signal: this.#closing.signal,
    });
    const verdict = verdictOf(outcome);
    if (verdict.kind === "aborted") return false;

    const finishedAtMs = clock();
    const statusCode = outcome.kind === "response" ? outcome.status : null;
    const record = { url: target.url, timestampMs, statusCode, durationMs: Math.max(0, finishedAtMs - timestampMs) };
    if (verdict.kind === "delivered") {
      await this.#settle(delivery, {
        status: "DELIVERED",
        nextAttemptAtMs: null,
        lastError: null,
        attempt: { ...record, error: null, outcome: "DELIVERED" },
        now: finishedAtMs,
      });
      return true;
    }
    const exhausted = verdict.kind === "retry" && attempt >= settings.maxAttempts;
    if (verdict.kind === "failed" || exhausted) {
      const error = exhausted ? `${verdict.error}; gave up after ${attempt} attempts` : verdict.error;
      await this.#settle(delivery, {
        status: "FAILED",
        nextAttemptAtMs: null,
        lastError: error,
        attempt: { ...record, error, outcome: "FAILED" },
        now: finishedAtMs,
      });
      return true;
    }
    await this.#settle(delivery, {
      status: "PENDING",
      nextAttemptAtMs: finishedAtMs + backoffMs(attempt, settings, this.#deps.random),
      lastError: verdict.error,
      attempt: { ...record, error: verdict.error, outcome: "RETRY" },
      now: finishedAtMs,
    });
    return true;
  }

  #settle(delivery: WebhookDeliveryRecord, update: DeliveryUpdate): Promise<void> {
    return this.#deps.store.transaction((tx) =>
      settleDelivery(new DataWriter(tx), delivery.id, delivery.attempts, update),
    );
  }
}
