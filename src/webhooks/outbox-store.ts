/**
 * The store decorator that writes the webhook outbox. Every transaction through it notes the activities it
 * puts (and the send-status records and balance updates, see `chains/send-status.ts`, `chains/balance-updates.ts`); when the work is done, still inside the same transaction, it queues one delivery per receiver for
 * each of them (their final state in this transaction). So an activity version and its deliveries commit
 * together or not at all, and the submit pipeline never has to know about webhooks. After a commit that
 * queued something, the dispatcher is woken.
 *
 * @module
 */
import { DataWriter } from "../model/data.js";
import type {
  ClaimOptions,
  ListOptions,
  Placement,
  Store,
  StoredRecord,
  StoreReader,
  StoreTransaction,
  TransactionOptions,
} from "../storage/store.js";
import {
  type EnqueueContext,
  enqueueActivityUpdates,
  enqueueBalanceUpdates,
  enqueueSendStatusUpdates,
} from "./outbox.js";

/**
 * Passes everything through to the real transaction, noting the ids of activities written and the parents
 * of organizations deleted (a deleted sub-organization's last activity still goes to its parent).
 */
class ActivityTrackingTransaction implements StoreTransaction {
  readonly activityIds = new Set<string>();
  /** Send-status records written (each write is a `SEND_TRANSACTION_STATUS_UPDATES` event). */
  readonly sendStatusIds = new Set<string>();
  /** Balance updates written (each write is a balance event, see `chains/balance-updates.ts`). */
  readonly balanceUpdateIds = new Set<string>();
  readonly removedParents = new Map<string, string | null>();

  constructor(private readonly tx: StoreTransaction) {}

  get(collection: string, id: string): Promise<StoredRecord | undefined> {
    return this.tx.get(collection, id);
  }

  lookup(index: string, key: string): Promise<string | undefined> {
    return this.tx.lookup(index, key);
  }

  list(collection: string, scope: string, options?: ListOptions): Promise<StoredRecord[]> {
    return this.tx.list(collection, scope, options);
  }

  async put(collection: string, record: StoredRecord, placement: Placement): Promise<void> {
    await this.tx.put(collection, record, placement);
    if (collection === "activities") this.activityIds.add(record.id);
    if (collection === "sendTransactionStatuses") this.sendStatusIds.add(record.id);
    if (collection === "balanceUpdates") this.balanceUpdateIds.add(record.id);
  }

  async delete(collection: string, id: string): Promise<void> {
    if (collection === "organizations") {
      const organization = await this.tx.get(collection, id);
      if (organization) this.removedParents.set(id, (organization.parentOrganizationId as string | null) ?? null);
    }
    await this.tx.delete(collection, id);
  }
}

/** What the decorator needs from the engine. */
export interface OutboxHooks {
  /** The clock and id source for the deliveries of one transaction. */
  context(): EnqueueContext;
  /** Called after a commit that queued deliveries. Must not block (the dispatcher only schedules a scan). */
  committed(): void;
}

/** A {@link Store} that writes webhook deliveries with the activities they report. */
export class OutboxStore implements Store {
  constructor(
    private readonly inner: Store,
    private readonly hooks: OutboxHooks,
  ) {}

  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    let queued = 0;
    const result = await this.inner.transaction(async (tx) => {
      // Reset per run: an adapter may run `work` again after a serialization conflict.
      queued = 0;
      const tracking = new ActivityTrackingTransaction(tx);
      const value = await work(tracking);
      if (tracking.activityIds.size > 0) {
        queued = await enqueueActivityUpdates(new DataWriter(tx), tracking, this.hooks.context());
      }
      if (tracking.sendStatusIds.size > 0) {
        queued += await enqueueSendStatusUpdates(new DataWriter(tx), tracking.sendStatusIds, this.hooks.context());
      }
      if (tracking.balanceUpdateIds.size > 0) {
        queued += await enqueueBalanceUpdates(new DataWriter(tx), tracking.balanceUpdateIds, this.hooks.context());
      }
      return value;
    }, options);
    if (queued > 0) this.hooks.committed();
    return result;
  }

  read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    return this.inner.read(work);
  }

  claim(collection: string, scope: string, options: ClaimOptions): Promise<StoredRecord[]> {
    return this.inner.claim(collection, scope, options);
  }

  release(collection: string, ids: readonly string[], owner: string): Promise<void> {
    return this.inner.release(collection, ids, owner);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get readsAhead(): boolean | undefined {
    return this.inner.readsAhead;
  }
}
