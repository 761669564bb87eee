/**
 * Snapshots: the whole committed state at one sequence number, so the journal before it can go.
 *
 * The file is a snapshot header followed by frames: `{"sequence", "segment", "createdAt"}` first, then
 * `{"records": [[collection, record, placement], ...]}` in chunks, then `{"end": true, "records": count}`.
 * It is written to a temporary file, fsync'd, renamed over the previous snapshot and the directory is
 * fsync'd, so the name `snapshot` only ever points at a complete file: any damage in it is corruption,
 * never a torn write. `segment` is the journal segment that was current when it was taken; every earlier
 * segment holds only transactions the snapshot covers.
 *
 * Both directions go a frame at a time: a {@link SnapshotWriter} takes records one by one and a reader hands
 * over each frame's records as it reads them, so neither holds the file, or the records of the whole store.
 *
 * @module
 */
import { type FileHandle, open, rename } from "node:fs/promises";
import { join } from "node:path";
import type { Change, Entry } from "../memory.js";
import { decodePut, encodeEntryPut } from "./codec.js";
import { STORE_FILE_MODE, syncDirectory, writeAll } from "./files.js";
import {
  checkHeader,
  corrupt,
  encodeFrame,
  encodeHeader,
  FILES,
  HEADER_BYTES,
  parsePayload,
  SNAPSHOT_MAGIC,
} from "./format.js";
import { FrameFile } from "./frame-file.js";
import { decodeRecordsText } from "./scan.js";

/** Records per frame: bounded frames keep both writing and reading free of one giant string. */
const RECORDS_PER_FRAME = 512;

/** What reading a snapshot found: its place in the journal and how many records it applied. */
export interface SnapshotRead {
  sequence: number;
  segment: number;
  records: number;
}

/**
 * Writes a snapshot durably, replacing the previous one: {@link SnapshotWriter.add} each record (as a put),
 * then {@link SnapshotWriter.finish}. Records are framed as they come; {@link SnapshotWriter.flush} writes the
 * frames made so far, so a caller adding many records holds at most a frame or two of them.
 */
export class SnapshotWriter {
  private position = 0;
  private puts: string[] = [];
  private framed: Buffer[] = [];
  private count = 0;

  private constructor(
    private readonly directory: string,
    private readonly handle: FileHandle,
  ) {}

  /** Starts the snapshot at `sequence` that names `segment` as the first journal segment still needed. */
  static async create(directory: string, sequence: number, segment: number): Promise<SnapshotWriter> {
    const handle = await open(join(directory, FILES.snapshotTemp), "w", STORE_FILE_MODE);
    const writer = new SnapshotWriter(directory, handle);
    writer.framed.push(
      encodeHeader(SNAPSHOT_MAGIC, 0),
      encodeFrame(JSON.stringify({ sequence, segment, createdAt: new Date().toISOString() })),
    );
    return writer;
  }

  /** Adds the record of `entry`; a record held as the text it was read as is written as that text. */
  add(collection: string, entry: Entry): void {
    this.puts.push(encodeEntryPut(collection, entry));
    this.count++;
    if (this.puts.length === RECORDS_PER_FRAME) this.frame();
  }

  /** Writes the frames made so far. */
  async flush(): Promise<void> {
    for (const bytes of this.framed.splice(0)) {
      await writeAll(this.handle, bytes, this.position);
      this.position += bytes.length;
    }
  }

  /** Ends, fsyncs and renames the snapshot into place; its size in bytes. */
  async finish(): Promise<number> {
    try {
      if (this.puts.length > 0) this.frame();
      this.framed.push(encodeFrame(JSON.stringify({ end: true, records: this.count })));
      await this.flush();
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    await rename(join(this.directory, FILES.snapshotTemp), join(this.directory, FILES.snapshot));
    await syncDirectory(this.directory);
    return this.position;
  }

  /** Closes the unfinished file, after a failure; opening the store or the next snapshot removes it. */
  async abandon(): Promise<void> {
    await this.handle.close();
  }

  private frame(): void {
    this.framed.push(encodeFrame(`{"records":[${this.puts.join(",")}]}`));
    this.puts = [];
  }
}

/**
 * Reads the snapshot, handing each frame's records to `apply` as it is read (and waiting for what `apply`
 * returns before reading on), or `undefined` when there is none yet. Every frame must be whole and valid, the first must name the snapshot's place in the journal, and the
 * last must count the records before it and end the file.
 */
export async function readSnapshot(
  directory: string,
  apply: (records: Change[]) => void | Promise<void>,
): Promise<SnapshotRead | undefined> {
  const input = await FrameFile.open(join(directory, FILES.snapshot));
  if (input === undefined) return undefined;
  try {
    return await readFrames(input, apply);
  } finally {
    await input.close();
  }
}

async function readFrames(input: FrameFile, apply: (records: Change[]) => void | Promise<void>): Promise<SnapshotRead> {
  const file = FILES.snapshot;
  const header = checkHeader(await input.header(), SNAPSHOT_MAGIC, file);
  if (!header.ok) throw corrupt(file, 0, header.reason);
  const frames = frameReader(input, file);
  const first = await frames.next();
  const sequence = first.changes === undefined ? first.value.sequence : undefined;
  const segment = first.changes === undefined ? first.value.segment : undefined;
  if (!Number.isSafeInteger(sequence) || !Number.isSafeInteger(segment)) {
    throw corrupt(file, HEADER_BYTES, "the first frame does not name a sequence and segment");
  }
  let records = 0;
  for (;;) {
    const frame = await frames.next();
    if (frame.changes !== undefined) {
      await apply(frame.changes);
      records += frame.changes.length;
      continue;
    }
    const { at, value } = frame;
    if (value.end === true) {
      if (value.records !== records) {
        throw corrupt(file, at, `the end frame counts ${String(value.records)} records but ${records} were read`);
      }
      if (frames.offset !== input.size) throw corrupt(file, frames.offset, "bytes follow the end frame");
      return { sequence: sequence as number, segment: segment as number, records };
    }
    if (!Array.isArray(value.records)) throw corrupt(file, at, "a frame holds neither records nor the end mark");
    await apply(value.records.map((item) => decodePut(item, { file, offset: at })));
    records += value.records.length;
  }
}

/**
 * Walks the frames of a snapshot; every frame must be whole and valid. A records frame laid out as written comes
 * back as its changes, with the records kept as text (see `scan.ts`); any other frame parsed.
 */
function frameReader(input: FrameFile, file: string) {
  const reader = {
    offset: HEADER_BYTES,
    async next(): Promise<
      { at: number; value: Record<string, unknown>; changes?: undefined } | { at: number; changes: Change[] }
    > {
      const at = reader.offset;
      const frame = await input.frame(at);
      if (!frame.ok) throw corrupt(file, at, frame.reason);
      reader.offset = frame.next;
      const changes = decodeRecordsText(frame.payload, { file, offset: at });
      if (changes !== undefined) return { at, changes };
      const value = parsePayload(frame.payload, file, at);
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw corrupt(file, at, "a frame does not hold an object");
      }
      return { at, value: value as Record<string, unknown> };
    },
  };
  return reader;
}
