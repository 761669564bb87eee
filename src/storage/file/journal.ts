/**
 * The journal writer: appends committed transactions to the current segment file with group commit.
 *
 * A segment is a header plus frames; each frame is one *flush*: `{"seq": first, "transactions": [...]}`,
 * where transaction `i` has sequence number `first + i`. Only one flush is in flight at a time, and every
 * transaction that commits while it is in flight joins the next one, so concurrent commits share one write
 * and one fsync. Because a flush is a single frame, a crash can only ever leave the *last* frame torn;
 * a damaged frame followed by a valid one is therefore real corruption, never a torn write.
 *
 * When a flush starts: not at the first commit, which would then go alone while the rest of its wave (the
 * activities the previous flush let go) waits for the flush after it; at the end of
 * the event loop's turn, so the commits of one turn share one; or, as soon as {@link EARLY_FLUSH_COMMITS} wait
 * while none is in flight, in the middle of the turn, so that flush's write overlaps the rest of the wave's
 * work. That needs a flush to finish without this thread: segments are opened with `O_DSYNC`, so one write is
 * written and on disk when it completes, with no fsync call to issue from here after it. Where the platform has
 * no `O_DSYNC` (Windows), each write is followed by an fsync and flushes start only at the end of the turn.
 *
 * Rotation closes the current segment and starts the next between two flushes, so a snapshot can make
 * every earlier segment obsolete.
 *
 * @module
 */
import { constants } from "node:fs";
import { type FileHandle, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { CustodyError } from "../../common/errors.js";
import { STORE_FILE_MODE, syncDirectory, writeAll } from "./files.js";
import { encodeFrame, encodeHeader, FILES, HEADER_BYTES, JOURNAL_MAGIC } from "./format.js";

/** Writes that complete only once on disk, where the platform has them. */
const DSYNC: number | undefined = constants.O_DSYNC;

/**
 * Commits that start a flush in the middle of a turn. Half of 32 submitters: their flush then overlaps the other
 * half's work, and the two halves take turns (+5–20% at 32 submitters against end-of-turn flushes alone).
 */
export const EARLY_FLUSH_COMMITS = 16;

interface PendingTransaction {
  seq: number;
  text: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface PendingRotation {
  resolve: (segment: number) => void;
  reject: (error: unknown) => void;
}

/** The JSON payload of one flush. */
export interface FlushPayload {
  seq: number;
  transactions: unknown[];
}

/** Appends transactions to journal segments. */
export class Journal {
  private pending: PendingTransaction[] = [];
  private rotations: PendingRotation[] = [];
  private running: Promise<void> | undefined;
  /** A start is queued for the end of this turn. */
  private startQueued = false;
  private failure: CustodyError | undefined;
  private closed = false;

  private constructor(
    private readonly directory: string,
    private handle: FileHandle,
    private segment: number,
    private size: number,
    private readonly groupCommit: boolean,
    private readonly older: number[],
  ) {}

  /**
   * Continues segment `segment`, whose first `size` bytes are valid (recovery has cut any torn tail), or
   * starts it when it does not exist. `older` lists earlier segments still on disk.
   */
  static async open(
    directory: string,
    segment: number,
    size: number | undefined,
    groupCommit: boolean,
    older: number[],
  ): Promise<Journal> {
    if (size === undefined) {
      return new Journal(directory, await createSegment(directory, segment), segment, HEADER_BYTES, groupCommit, older);
    }
    const handle = await open(join(directory, FILES.segment(segment)), constants.O_RDWR | (DSYNC ?? 0));
    return new Journal(directory, handle, segment, size, groupCommit, older);
  }

  /** Bytes in the current segment. */
  get segmentBytes(): number {
    return this.size;
  }

  /** Resolves once the transaction with sequence `seq` (the next one) is written and fsync'd. */
  append(seq: number, text: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(closedError());
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ seq, text, resolve, reject });
      this.kick(DSYNC !== undefined && this.pending.length >= EARLY_FLUSH_COMMITS);
    });
  }

  /** Starts a new segment after the flush in flight; resolves with its number. */
  rotate(): Promise<number> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(closedError());
    return new Promise<number>((resolve, reject) => {
      this.rotations.push({ resolve, reject });
      this.kick();
    });
  }

  /** Deletes the segments before `segment`; a snapshot covers them. */
  async removeSegmentsBefore(segment: number): Promise<void> {
    while (this.older.length > 0 && (this.older[0] as number) < segment) {
      await rm(join(this.directory, FILES.segment(this.older[0] as number)), { force: true });
      this.older.shift();
    }
  }

  /** Waits for the flush in flight and closes the segment file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running || this.startQueued) await (this.running ?? endOfTurn());
    await this.handle.close();
  }

  /** Starts draining now, or at the end of this turn of the event loop (see the module comment). */
  private kick(now = false): void {
    if (this.running) return;
    if (now) {
      this.start();
    } else if (!this.startQueued) {
      this.startQueued = true;
      setImmediate(() => {
        this.startQueued = false;
        if (!this.running) this.start();
      });
    }
  }

  private start(): void {
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // Work queued between the loop's last check and this callback would otherwise wait for the next commit.
      if (!this.failure && (this.pending.length > 0 || this.rotations.length > 0)) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (!this.failure && (this.pending.length > 0 || this.rotations.length > 0)) {
      if (this.rotations.length > 0) {
        const rotations = this.rotations.splice(0);
        try {
          await this.startNextSegment();
          for (const rotation of rotations) rotation.resolve(this.segment);
        } catch (error) {
          // The current segment is still whole; only this rotation (and the snapshot waiting on it) fails.
          for (const rotation of rotations) rotation.reject(error);
        }
        continue;
      }
      const batch = this.groupCommit ? this.pending.splice(0) : this.pending.splice(0, 1);
      const frame = encodeFrame(
        `{"seq":${(batch[0] as PendingTransaction).seq},"transactions":[${batch.map((t) => t.text).join(",")}]}`,
      );
      try {
        await writeAll(this.handle, frame, this.size);
        if (DSYNC === undefined) await this.handle.datasync();
      } catch (error) {
        this.fail(error, batch);
        return;
      }
      this.size += frame.length;
      for (const transaction of batch) transaction.resolve();
    }
  }

  private async startNextSegment(): Promise<void> {
    const next = this.segment + 1;
    const handle = await createSegment(this.directory, next);
    const previous = this.handle;
    this.older.push(this.segment);
    this.handle = handle;
    this.segment = next;
    this.size = HEADER_BYTES;
    await previous.close();
  }

  /**
   * After a failed write or fsync the file's contents are unknown (the kernel may even have dropped the
   * dirty pages), so every transaction in flight and every later one is refused until the store is reopened
   * and recovery reads what actually reached the disk.
   */
  private fail(cause: unknown, batch: PendingTransaction[]): void {
    this.failure = new CustodyError(
      "UNAVAILABLE",
      `FileStore: writing the journal ${FILES.segment(this.segment)} failed (${(cause as Error).message}); the outcome of the transactions in flight is unknown. Close and reopen the store`,
      { reason: "STORE_WRITE_FAILED", file: FILES.segment(this.segment) },
      { cause },
    );
    for (const transaction of [...batch, ...this.pending.splice(0)]) transaction.reject(this.failure);
    for (const rotation of this.rotations.splice(0)) rotation.reject(this.failure);
  }
}

function endOfTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Creates segment `segment` with its header, durable together with its directory entry before first use. */
async function createSegment(directory: string, segment: number): Promise<FileHandle> {
  const path = join(directory, FILES.segment(segment));
  const handle = await open(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (DSYNC ?? 0),
    STORE_FILE_MODE,
  );
  try {
    await writeAll(handle, encodeHeader(JOURNAL_MAGIC, segment), 0);
    if (DSYNC === undefined) await handle.datasync();
    await syncDirectory(directory);
    return handle;
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    throw error;
  }
}

function closedError(): CustodyError {
  return new CustodyError("FAILED_PRECONDITION", "FileStore: the store is closed", { reason: "STORE_CLOSED" });
}
