/**
 * The webhook dispatcher: finds the organizations with deliveries due (see `queue.ts`), sends up to
 * `concurrency` deliveries at once, no more than `concurrencyPerOrganization` of them to one receiving
 * organization (see `shares.ts`), and records each attempt's outcome with the delivery's next state in one
 * transaction. It runs beside the engine, never inside a submission: a commit only wakes it, so a slow or
 * dead receiver costs `submit` nothing. State lives in the store, so a new engine on the same store resumes
 * what was pending.
 *
 * Several engines may share one store (PostgreSQL). Each dispatcher takes due deliveries with `Store.claim`:
 * a lease in its own name, for `leaseMs`, so no other dispatcher sends that delivery meanwhile.
 * Recording the outcome replaces the queue entry, which ends the lease; an attempt abandoned by `close()` or a
 * store failure releases it. A dispatcher that dies (a crash, SIGKILL) keeps its leases until they end; then
 * any other dispatcher takes the deliveries over. Dispatchers are woken by their own engine's commits and
 * otherwise look at the queue every quarter lease, which is how work left by a dead peer is found.
 *
 * Delivery is at least once: an attempt cut short by `close()` or a crash is not recorded, and the event is
 * sent again, with the same event id, by the next dispatcher to take it. A crash after the receiver answered
 * and before the outcome was recorded therefore sends the event twice; receivers deduplicate on the event id.
 *
 * Each organization's events are taken oldest-due first, but with more than one slot per organization, or
 * after a retry, they can arrive out of order; a receiver orders an activity's versions by its `updatedAt`
 * and status. Shares are per dispatcher: engines sharing a store each give an organization its share.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { isCustodyError } from "../common/errors.js";
import { utf8ToBytes } from "../crypto/bytes.js";
import { DataReader, DataWriter } from "../model/data.js";
import type { Clock, RandomSource } from "../model/random.js";
import type { WebhookDeliveryRecord, WebhookQueueEntryRecord } from "../model/records.js";
import type { Store } from "../storage/store.js";
import { deliveryHeaders } from "./headers.js";
import { type DeliveryUpdate, dropQueueEntry, settleDelivery } from "./outbox.js";
import { adoptStoreWideQueue, dueBy, dueHeads, nextEntryAfter, nextHeadAfter, QUEUE_ENTRIES } from "./queue.js";
import { backoffMs, verdictOf, type WebhookDeliverySettings } from "./retry.js";
import { SlotShares } from "./shares.js";
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

/**
 * How many organizations with deliveries due one scan looks at, besides four per slot. Those holding their
 * whole share here, or whose due deliveries other engines hold, are passed over, and the look must reach
 * past them to the organizations still waiting; the rest are seen once these move on.
 */
const MORE_HEADS_PER_SCAN = 64;

type Loaded = { stale: true } | { stale: false; delivery: WebhookDeliveryRecord; target: CurrentTarget };

export class WebhookDispatcher {
  readonly #deps: DispatcherDependencies;
  readonly #closing = new AbortController();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #shares: SlotShares;
  #started = false;
  /** Whether a store-wide queue left by an earlier build has been moved into the per-organization queues. */
  #adopted = false;
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
    this.#shares = new SlotShares(deps.settings.concurrencyPerOrganization);
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
    if (!this.#adopted) {
      await adoptStoreWideQueue(store);
      this.#adopted = true;
    }
    // Another engine's new work, or work a dead one left, is found by looking again (see the module comment).
    let nextLookMs = Math.max(1, Math.floor(settings.leaseMs / 4));
    // A full house: the next completion wakes the dispatcher again.
    if (this.#inFlight.size < settings.concurrency) {
      const nextDueAtMs = await this.#fillSlots(now);
      if (this.#closing.signal.aborted) return;
      if (nextDueAtMs !== undefined) nextLookMs = Math.min(nextLookMs, nextDueAtMs - now);
    }
    const next = await store.read((reader) => nextHeadAfter(new DataReader(reader), now));
    if (next !== undefined) nextLookMs = Math.min(nextLookMs, next.dueAtMs - now);
    this.#arm(nextLookMs);
  }

  /**
   * Hands the free slots out, one at a time, to the organizations with deliveries due, fewest slots held
   * first (see `shares.ts`), taking each delivery under a lease in this dispatcher's name. Returns when the
   * next delivery of an organization with attempts in flight here falls due: its head is the delivery in
   * flight, so the heads do not tell.
   */
  async #fillSlots(now: number): Promise<number | undefined> {
    const { settings, store } = this.#deps;
    const heads = await store.read((reader) =>
      dueHeads(new DataReader(reader), now, 4 * settings.concurrency + MORE_HEADS_PER_SCAN),
    );
    const waiting = heads.map((head) => head.organizationId).filter((id) => this.#shares.room(id) > 0);
    let nextDueAtMs: number | undefined;
    while (waiting.length > 0 && this.#inFlight.size < settings.concurrency) {
      const index = this.#shares.next(waiting);
      const organizationId = waiting[index] as string;
      const room = Math.min(settings.concurrency - this.#inFlight.size, this.#shares.room(organizationId));
      // One at a time while others wait, so each free slot goes to whoever holds the fewest.
      const limit = waiting.length === 1 ? room : 1;
      const claimed = await store.claim(QUEUE_ENTRIES, organizationId, {
        owner: this.#owner,
        now,
        until: now + settings.leaseMs,
        limit,
        before: dueBy(now),
      });
      for (const entry of claimed as unknown as WebhookQueueEntryRecord[]) {
        // Only an attempt that outlived its lease could be claimed again while in flight; it is left to finish.
        if (this.#inFlight.has(entry.eventId)) continue;
        if (this.#closing.signal.aborted) {
          await store.release(QUEUE_ENTRIES, [entry.id], this.#owner);
          continue;
        }
        this.#launch(entry);
      }
      if (this.#closing.signal.aborted) return undefined;
      if (this.#shares.room(organizationId) <= 0) {
        // Its share is taken: a completion wakes the dispatcher again.
        waiting.splice(index, 1);
      } else if (claimed.length < limit) {
        // Nothing else of this organization is due and free to take now.
        waiting.splice(index, 1);
        if (this.#shares.held(organizationId) > 0) {
          const due = await store.read((reader) => nextEntryAfter(new DataReader(reader), organizationId, now));
          if (due !== undefined) nextDueAtMs = Math.min(nextDueAtMs ?? due.dueAtMs, due.dueAtMs);
        }
      }
    }
    return nextDueAtMs;
  }

  #launch(entry: WebhookQueueEntryRecord): void {
    this.#shares.take(entry.organizationId);
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
        this.#shares.give(entry.organizationId);
        this.wake();
      });
    this.#inFlight.set(entry.eventId, run);
  }

  /** Hands back a delivery this dispatcher took and did not settle, so any engine may take it at once. */
  async #release(entry: WebhookQueueEntryRecord): Promise<void> {
    try {
      await this.#deps.store.release(QUEUE_ENTRIES, [entry.id], this.#owner);
    } catch (error) {
      // The lease still ends on its own; only the hand-over waits for it.
      this.#deps.onError?.(error);
    }
  }

  /** Makes one attempt (or settles without one); false when it was abandoned unrecorded (closing). */
  async #deliver(entry: WebhookQueueEntryRecord): Promise<boolean> {
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
