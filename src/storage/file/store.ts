/**
 * `FileStore`: the durable adapter. All data lives in memory; a journal in one directory is the durable
 * truth, and snapshots bound how much of it is replayed on open.
 *
 * One committed state is kept, the *head*: it takes each commit as soon as its transaction finishes, so the
 * next writer can start (and see it) while the journal flush is still in flight; that is what lets concurrent
 * commits share one fsync. Readers and leases see the *durable view* (see `durable-view.ts`): the head with the
 * changes of commits still in flight undone, so no reader ever sees a write that a crash could still take back.
 * A commit shows in the view once its flush is on disk, between two reads, never under one. A transaction
 * resolves once its commit is durable. Since the journal is written in commit order, a transaction that saw an
 * earlier one's writes is never durable without it.
 *
 * Snapshots are built on a thread of their own from the files (see `compaction.ts`), not from the state.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { CustodyError, isCustodyError } from "../../common/errors.js";
import { ProcessLeases } from "../leases.js";
import {
  type CommittedState,
  coolInBackground,
  type Entry,
  Overlay,
  ReaderGate,
  warmRecordsOption,
} from "../memory.js";
import type { ClaimOptions, Store, StoredRecord, StoreReader, StoreTransaction } from "../store.js";
import { encodeTransaction } from "./codec.js";
import { Compactor } from "./compactor.js";
import { DurableView } from "./durable-view.js";
import { createDirectory } from "./files.js";
import { FILES } from "./format.js";
import { Journal } from "./journal.js";
import { DirectoryLock, type LockHolder } from "./lock.js";
import { recover, type TornTail } from "./recovery.js";

/** Options of {@link FileStore.open}. */
export interface FileStoreOptions {
  /**
   * Let transactions that commit while a journal flush is in flight share the next write and fsync
   * (default `true`). Turned off, every transaction gets its own fsync; only benchmarks want that.
   */
  groupCommit?: boolean;
  /**
   * Journal bytes after which a snapshot is taken in the background and older journal segments are deleted
   * (default 8 MiB). Smaller means faster opens and more snapshot writes.
   */
  snapshotAfterBytes?: number;
  /**
   * Build snapshots on a thread of their own (default `true`), from the snapshot and journal files, so the
   * thread that commits never pauses for one. `false` builds them on the calling thread, for hosts that
   * cannot start `worker_threads`.
   */
  snapshotThread?: boolean;
  /**
   * Receives a failed background snapshot. Nothing is lost (the journal remains the durable truth) and the
   * next snapshot retries. Default: a process warning.
   */
  onSnapshotError?: (error: CustodyError) => void;
  /**
   * How many of the records written or read most recently are held as objects (default 4096); older ones are
   * held packed and decoded when read, as in `MemoryStore` (see `MemoryStoreOptions.warmRecords`).
   */
  warmRecords?: number;
}

/** What opening the store found and repaired. */
export interface RecoveryReport {
  /** The snapshot the state was loaded from, if any: its last transaction and record count. */
  snapshot: { sequence: number; records: number } | undefined;
  /** Transactions replayed from the journal on top of the snapshot. */
  replayed: number;
  /** Sequence number of the last committed transaction (0 for an empty store). */
  sequence: number;
  /** Journal segment files read, oldest first. */
  segments: string[];
  /**
   * A torn tail cut off the journal: the write that was in flight when the previous process stopped. Its
   * transactions were never acknowledged, unless the storage itself lost acknowledged data.
   */
  tornTail: TornTail | undefined;
  /** The holder of a stale lock (a process that is gone) that was taken over. */
  staleLock: LockHolder | undefined;
}

interface Committed<T> {
  result: T;
  durable: Promise<void>;
}

const DEFAULT_SNAPSHOT_AFTER_BYTES = 8 * 1024 * 1024;
const noop = () => undefined;

/**
 * A durable {@link Store} in one directory: an append-only, checksummed journal fsync'd before each commit
 * resolves (with group commit), periodic snapshots, crash recovery on open and an exclusive directory lock.
 *
 * @example
 * ```ts
 * const store = await FileStore.open("/var/lib/custodian");
 * if (store.recovery.tornTail) console.warn("cut an unfinished write", store.recovery.tornTail);
 * const engine = new CustodyEngine({ store });
 * ```
 */
export class FileStore implements Store {
  /** Data outlives the process: an engine on it needs the host's key-encryption key. */
  readonly durable = true;
  private readonly readers = new ReaderGate();
  private readonly leases = new ProcessLeases();
  private queue: Promise<unknown> = Promise.resolve();
  /** Resolves when every journaled commit so far shows in the durable view; rejects once a flush failed. */
  private applied: Promise<void> = Promise.resolve();
  private headSequence: number;
  /** Snapshots run one after another; this is the last one queued. */
  private snapshots: Promise<void> = Promise.resolve();
  private autoSnapshotQueued = false;
  private closing: Promise<void> | undefined;
  private failure: CustodyError | undefined;
  /** The head state with the in-flight commits undone: what readers and leases see. */
  private readonly view: DurableView;
  /** Packing the records found at open, in the background; close stops it. */
  private cooling: Promise<void> = Promise.resolve();

  private constructor(
    /** The store directory. */
    readonly directory: string,
    /** What opening the store found and repaired. */
    readonly recovery: RecoveryReport,
    /** Every commit so far, durable or in flight; transactions work on it. */
    private readonly head: CommittedState,
    private readonly journal: Journal,
    private readonly lock: DirectoryLock,
    private readonly snapshotAfterBytes: number,
    /** Size of the latest snapshot: the journal must grow past it before the next one is due. */
    private snapshotBytes: number,
    private readonly onSnapshotError: (error: CustodyError) => void,
    private readonly compactor: Compactor,
  ) {
    this.headSequence = recovery.sequence;
    this.view = new DurableView(head);
  }

  /**
   * Opens (creating if needed) the store in `directory`: takes the directory lock, loads the snapshot,
   * replays the journal and cuts a torn tail, which {@link FileStore.recovery} reports.
   *
   * @throws CustodyError `FAILED_PRECONDITION` (`STORE_LOCKED`) naming the pid, host and start time of the
   *   process holding the directory; `INTERNAL` (`STORE_CORRUPT`) with the file and byte offset when the
   *   journal or snapshot is damaged anywhere but its tail; `FAILED_PRECONDITION`
   *   (`STORE_FORMAT_UNSUPPORTED`) for files written by a newer format version.
   */
  static async open(directory: string, options: FileStoreOptions = {}): Promise<FileStore> {
    try {
      await createDirectory(directory);
      const lock = await DirectoryLock.acquire(directory);
      try {
        const warmRecords = warmRecordsOption(options.warmRecords);
        // Built with every record an object, then packed after the open returns (see coolInBackground).
        const recovered = await recover(directory, Number.POSITIVE_INFINITY);
        recovered.state.setWarmRecords(warmRecords);
        const { current } = recovered;
        const journal = await Journal.open(
          directory,
          current.segment,
          current.size,
          options.groupCommit ?? true,
          recovered.older,
        );
        const report: RecoveryReport = {
          snapshot: recovered.snapshot,
          replayed: recovered.replayed,
          sequence: recovered.sequence,
          segments: recovered.segments,
          tornTail: recovered.tornTail,
          staleLock: lock.takenOver,
        };
        const store = new FileStore(
          directory,
          report,
          recovered.state,
          journal,
          lock,
          options.snapshotAfterBytes ?? DEFAULT_SNAPSHOT_AFTER_BYTES,
          await snapshotSize(directory),
          options.onSnapshotError ?? ((error) => process.emitWarning(error)),
          new Compactor(options.snapshotThread ?? true),
        );
        if (warmRecords !== Number.POSITIVE_INFINITY) store.coolRecovered(recovered.state.entries());
        return store;
      } catch (error) {
        await lock.release();
        throw error;
      }
    } catch (error) {
      throw asCustodyError(error, `FileStore: cannot open ${directory}`);
    }
  }

  /**
   * Runs `work` as a transaction. It resolves once the commit is fsync'd in the journal (a transaction that
   * wrote nothing waits for the commits it may have read), and from then on readers see it.
   *
   * @throws CustodyError `UNAVAILABLE` (`STORE_WRITE_FAILED`) when the journal could not be written: the
   *   outcome is then unknown and every later commit is refused until the store is reopened;
   *   `INVALID_ARGUMENT` (`RECORD_NOT_JSON`) for a record JSON cannot hold; `FAILED_PRECONDITION`
   *   (`STORE_CLOSED`) after {@link FileStore.close}.
   */
  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    this.assertOpen();
    const turn = this.queue.then(() => this.commit(work));
    this.queue = turn.then(noop, noop);
    const { result, durable } = await turn;
    await durable;
    return result;
  }

  /** Runs `work` against the durable view: commits whose fsync has completed, never one still in flight. */
  async read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    await this.readers.enter();
    try {
      return await work(this.view.reader);
    } finally {
      this.readers.leave();
    }
  }

  /**
   * Writes a snapshot of everything committed so far and deletes the journal segments it covers. Snapshots
   * also happen on their own as the journal grows; call this to compact before a backup or a shutdown.
   */
  async snapshot(): Promise<void> {
    this.assertOpen();
    await this.queueSnapshot();
  }

  /**
   * Leases records of the durable view (what readers see). Leases are kept in memory only: the directory lock
   * keeps every other process out, and a restart finds no instance left to hold one (see `Store.claim`).
   */
  async claim(collection: string, scope: string, options: ClaimOptions): Promise<StoredRecord[]> {
    this.assertOpen();
    return this.leases.claim(this.view, collection, scope, options);
  }

  async release(collection: string, ids: readonly string[], owner: string): Promise<void> {
    this.assertOpen();
    this.leases.release(this.view, collection, ids, owner);
  }

  /** Waits for transactions in flight and a running snapshot, then closes the journal and releases the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.cooling;
      await this.queue;
      await this.applied.catch(noop);
      await this.snapshots.catch(noop);
      await this.compactor.close();
      await this.journal.close();
      await this.lock.release();
    })();
    return this.closing;
  }

  /** Packs the records the open found, a slice at a time, until done or the store closes. */
  private coolRecovered(entries: Entry[]): void {
    this.cooling = coolInBackground(entries, () => this.closing !== undefined);
  }

  /**
   * Runs one transaction in its writer slot; returns once its commit is in the head state (not yet in the durable
   * view) and the journal queue.
   */
  private async commit<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<Committed<T>> {
    if (this.failure) throw this.failure;
    const overlay = new Overlay(this.head, "FileStore");
    let result: T;
    try {
      result = await work(overlay);
    } finally {
      overlay.finish();
    }
    const changes = overlay.changes();
    // A transaction that wrote nothing may still have read commits whose flush is in flight.
    if (changes.length === 0) return { result, durable: this.applied };
    const text = encodeTransaction(changes);
    if (this.failure) throw this.failure;
    const sequence = ++this.headSequence;
    this.view.apply(sequence, changes);
    const flushed = this.journal.append(sequence, text);
    flushed.catch(noop); // observed through `durable` below; this only keeps an early rejection from going unhandled
    const durable = this.applied
      .then(() => flushed)
      // A commit whose flush failed is never settled, nor is any after it: the view keeps what was durable.
      .then(() => this.readers.whenIdle(() => this.view.settle(sequence)))
      .then(() => this.snapshotIfDue());
    durable.catch((error: unknown) => {
      this.failure ??= asCustodyError(error, "FileStore: a commit failed");
    });
    this.applied = durable;
    return { result, durable };
  }

  /**
   * A snapshot is due once the journal holds more than `snapshotAfterBytes` and more than the last snapshot's
   * size. The second bound keeps rewriting the state proportional to what was appended (each snapshot is paid
   * for by at least as many journal bytes), where a fixed threshold rewrote a growing state ever more often.
   */
  private snapshotIfDue(): void {
    const due = Math.max(this.snapshotAfterBytes, this.snapshotBytes);
    if (this.autoSnapshotQueued || this.closing || this.journal.segmentBytes < due) return;
    this.autoSnapshotQueued = true;
    this.queueSnapshot()
      .catch((error: unknown) => this.onSnapshotError(asCustodyError(error, "FileStore: writing a snapshot failed")))
      .finally(() => {
        this.autoSnapshotQueued = false;
      });
  }

  private queueSnapshot(): Promise<void> {
    const run = this.snapshots.catch(noop).then(() => this.takeSnapshot());
    this.snapshots = run;
    return run;
  }

  /**
   * Rotation comes first: once it resolves, every transaction in the older segments is written and fsync'd,
   * and no more will be, so the compactor can build the snapshot from those files while commits go on into
   * the new segment. The snapshot names the new segment as the first one still needed, which lets the older
   * ones go.
   */
  private async takeSnapshot(): Promise<void> {
    const segment = await this.journal.rotate();
    this.snapshotBytes = await this.compactor.compact(this.directory, segment);
    await this.journal.removeSegmentsBefore(segment);
  }

  private assertOpen(): void {
    if (this.closing) {
      throw new CustodyError("FAILED_PRECONDITION", "FileStore: the store is closed", { reason: "STORE_CLOSED" });
    }
  }
}

/** Bytes of the directory's snapshot, 0 when it has none. */
async function snapshotSize(directory: string): Promise<number> {
  try {
    return (await stat(join(directory, FILES.snapshot))).size;
  } catch {
    return 0;
  }
}

/** Passes `CustodyError`s through and wraps file-system errors as `UNAVAILABLE` with their message. */
function asCustodyError(error: unknown, context: string): CustodyError {
  if (isCustodyError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new CustodyError(
    "UNAVAILABLE",
    `${context}: ${(error as Error).message}`,
    { reason: "STORE_IO", ...(code === undefined ? {} : { errno: code }) },
    { cause: error },
  );
}
