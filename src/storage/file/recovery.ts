/**
 * Opening a store directory: load the snapshot, replay the journal after it, and repair what a crash can
 * legitimately leave behind.
 *
 * What a crash can leave: a torn last frame in the last segment (the one write that was in flight), a
 * half-created last segment, a temporary snapshot file, and segments a new snapshot already covers. Those
 * are repaired and reported. Anything else (a damaged frame with a valid frame after it, a damaged earlier
 * segment, a gap or repeat in the sequence numbers, a damaged snapshot) means storage lost or altered data
 * that had been acknowledged, and is refused with the file and byte offset, never skipped.
 *
 * @module
 */
import { open, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { type Change, CommittedState } from "../memory.js";
import { decodeTransaction } from "./codec.js";
import { writeAll } from "./files.js";
import {
  checkHeader,
  corrupt,
  encodeHeader,
  FILES,
  findValidFrame,
  HEADER_BYTES,
  JOURNAL_MAGIC,
  parsePayload,
  readFrame,
} from "./format.js";
import { FrameFile } from "./frame-file.js";
import { decodeFlushText, type FlushChanges, type FramePlace } from "./scan.js";
import { readSnapshot } from "./snapshot.js";

/** The tail cut off the last journal segment on open. */
export interface TornTail {
  /** The segment file, relative to the store directory. */
  file: string;
  /** Where the valid prefix ends: the file now ends here. */
  offset: number;
  /** How many bytes were cut. */
  discardedBytes: number;
  /** What was wrong with the first discarded byte range. */
  reason: string;
}

/** The state rebuilt from disk and where the journal continues. */
export interface Recovered {
  state: CommittedState;
  /** Sequence number of the last committed transaction (0 for an empty store). */
  sequence: number;
  snapshot: { sequence: number; records: number } | undefined;
  /** Transactions applied from the journal on top of the snapshot. */
  replayed: number;
  /** Segment files read, oldest first. */
  segments: string[];
  tornTail: TornTail | undefined;
  /** The segment to append to, with its valid length, or no length when it must be created. */
  current: { segment: number; size: number | undefined };
  /** Segments before the current one that are still needed. */
  older: number[];
}

interface SegmentScan {
  validLength: number;
  torn: { offset: number; reason: string } | undefined;
}

/** Rebuilds the committed state of `directory`. The caller holds the directory lock. */
export async function recover(directory: string, warmRecords?: number): Promise<Recovered> {
  await rm(join(directory, FILES.snapshotTemp), { force: true });
  const state = new CommittedState(warmRecords);
  // Loaded in file order, which is not id order within a scope; the scope lists are sorted once at the end.
  state.beginBulkLoad();
  const snapshot = await readSnapshot(directory, (records) => state.apply(records));
  const base = snapshot?.sequence ?? 0;

  const numbers = await segmentNumbers(directory);
  const firstLive = snapshot?.segment ?? 0;
  // A crash between writing a snapshot and deleting the segments it covers leaves them behind.
  for (const n of numbers.filter((n) => n < firstLive)) await rm(join(directory, FILES.segment(n)), { force: true });
  const live = numbers.filter((n) => n >= firstLive);

  const replay = new JournalReplay(state, base);
  let tornTail: TornTail | undefined;
  let currentSize: number | undefined;
  for (const [i, n] of live.entries()) {
    const file = FILES.segment(n);
    const bytes = await readFile(join(directory, file));
    const scan = replay.segment(bytes, n, i === live.length - 1);
    currentSize = scan.validLength;
    if (scan.torn) {
      // An empty file is a segment whose creation was cut short: nothing to report, only its header to write.
      if (bytes.length > 0) {
        const discardedBytes = bytes.length - scan.validLength;
        tornTail = { file, offset: scan.validLength, discardedBytes, reason: scan.torn.reason };
      }
      currentSize = await cutTornTail(directory, n, scan.validLength);
    }
  }

  state.endBulkLoad();
  const lastNumber = numbers[numbers.length - 1] ?? 0;
  return {
    state,
    sequence: replay.sequence,
    snapshot: snapshot && { sequence: snapshot.sequence, records: snapshot.records },
    replayed: replay.replayed,
    segments: live.map(FILES.segment),
    tornTail,
    current:
      live.length > 0
        ? { segment: live[live.length - 1] as number, size: currentSize }
        : { segment: Math.max(lastNumber, firstLive - 1) + 1, size: undefined },
    older: live.slice(0, -1),
  };
}

/** The numbers of the journal segments in `directory`, ascending. */
export async function segmentNumbers(directory: string): Promise<number[]> {
  return (await readdir(directory))
    .map((name) => FILES.segmentPattern.exec(name)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Where replayed change sets go: the state being rebuilt, or a compaction's pass over them. */
export interface ChangeSink {
  apply(changes: Change[]): void;
}

/**
 * Applies journal segments, oldest first, on top of a snapshot taken at sequence `base`: every transaction
 * must follow the one before it, and those the snapshot already holds (written to the segment that was
 * current while it was taken) are skipped. Opening a store and compacting one both replay through it.
 */
export class JournalReplay {
  /** Sequence number of the last transaction read, if any. */
  private last: number | undefined;
  /** Transactions applied on top of the snapshot. */
  replayed = 0;

  constructor(
    private readonly sink: ChangeSink,
    private readonly base: number,
  ) {}

  /** Sequence number of the last transaction the state now holds. */
  get sequence(): number {
    return Math.max(this.base, this.last ?? 0);
  }

  /** Applies segment `number`, read as `bytes`; only the journal's last segment (`mayBeTorn`) may end torn. */
  segment(bytes: Buffer, number: number, mayBeTorn: boolean): SegmentScan {
    // Each flush is applied as it is read: the changes of a whole segment never pile up beside the state.
    const file = FILES.segment(number);
    return scanSegment(bytes, file, number, mayBeTorn, (offset, payload) => this.flush(payload, file, offset));
  }

  /**
   * Applies finished segment `number` of `directory`, read a frame at a time (see `frame-file.ts`). A finished
   * segment is followed by others, so any damage in it is corruption, never a torn tail. `afterFrame` runs after
   * each frame's transactions are applied.
   */
  async finishedSegment(directory: string, number: number, afterFrame?: () => Promise<void>): Promise<void> {
    const file = FILES.segment(number);
    const input = await FrameFile.open(join(directory, file));
    if (input === undefined) throw corrupt(file, undefined, "the segment is missing");
    try {
      const header = checkHeader(await input.header(), JOURNAL_MAGIC, file);
      if (!header.ok) throw corrupt(file, 0, `${header.reason}, in a segment that later segments follow`);
      if (header.number !== number) throw corrupt(file, 12, `the header names segment ${header.number}`);
      for (let offset = HEADER_BYTES; offset < input.size; ) {
        const frame = await input.frame(offset);
        if (!frame.ok) throw corrupt(file, offset, `${frame.reason}, in a segment that later segments follow`);
        this.flush(frame.payload, file, offset);
        await afterFrame?.();
        offset = frame.next;
      }
    } finally {
      await input.close();
    }
  }

  /** Applies the flush framed at `offset` of `file`. */
  private flush(payload: string, file: string, offset: number): void {
    const where = { file, offset };
    const flush = decodeFlushText(payload, where) ?? decodeFlush(parsePayload(payload, file, offset), where);
    for (const [j, changes] of flush.transactions.entries()) {
      const seq = flush.seq + j;
      const last = this.last;
      if (last === undefined ? seq > this.base + 1 : seq !== last + 1) {
        const expected = last === undefined ? this.base + 1 : last + 1;
        throw corrupt(
          file,
          offset,
          seq > expected
            ? `transactions ${expected} to ${seq - 1} are missing (a journal segment was lost or removed)`
            : `transaction ${seq} is out of order after ${expected - 1}`,
        );
      }
      this.last = seq;
      if (seq <= this.base) continue; // written to the new segment before the snapshot was taken
      this.sink.apply(changes);
      this.replayed++;
    }
  }
}

/** A flush parsed whole (when {@link decodeFlushText} did not take its text), checked and decoded. */
function decodeFlush(value: unknown, where: FramePlace): FlushChanges {
  const flush = value as { seq?: unknown; transactions?: unknown };
  if (!Number.isSafeInteger(flush?.seq) || (flush.seq as number) < 1 || !Array.isArray(flush.transactions)) {
    throw corrupt(where.file, where.offset, "a record names no sequence number or transactions");
  }
  return {
    seq: flush.seq as number,
    transactions: flush.transactions.map((transaction: unknown) => decodeTransaction(transaction, where)),
  };
}

/** Walks the frames of one segment, handing each to `onFrame`; only the last segment may end in a torn frame. */
function scanSegment(
  bytes: Buffer,
  file: string,
  number: number,
  isLast: boolean,
  onFrame: (offset: number, payload: string) => void,
): SegmentScan {
  const stop = (offset: number, reason: string): SegmentScan => {
    const next = findValidFrame(bytes, offset + 1);
    if (next !== undefined) throw corrupt(file, offset, `${reason}, yet a valid record follows at byte ${next}`);
    if (!isLast) throw corrupt(file, offset, `${reason}, in a segment that later segments follow`);
    return { validLength: offset, torn: { offset, reason } };
  };
  const header = checkHeader(bytes, JOURNAL_MAGIC, file);
  if (!header.ok) return stop(0, header.reason);
  if (header.number !== number) throw corrupt(file, 12, `the header names segment ${header.number}`);
  let offset = HEADER_BYTES;
  while (offset < bytes.length) {
    const frame = readFrame(bytes, offset);
    if (!frame.ok) return stop(offset, frame.reason);
    onFrame(offset, frame.payload);
    offset = frame.next;
  }
  return { validLength: offset, torn: undefined };
}

/** Cuts segment `number` back to `validLength` (rewriting a torn header) and returns its new size. */
async function cutTornTail(directory: string, number: number, validLength: number): Promise<number> {
  const handle = await open(join(directory, FILES.segment(number)), "r+");
  try {
    if (validLength < HEADER_BYTES) {
      await handle.truncate(0);
      await writeAll(handle, encodeHeader(JOURNAL_MAGIC, number), 0);
    } else {
      await handle.truncate(validLength);
    }
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return Math.max(validLength, HEADER_BYTES);
}
