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
 * @module
 */
import { open, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import type { Change } from "../memory.js";
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
  readFrame,
  SNAPSHOT_MAGIC,
} from "./format.js";
import { decodeRecordsText } from "./scan.js";

/** Records per frame: bounded frames keep both writing and reading free of one giant string. */
const RECORDS_PER_FRAME = 512;

/** What a snapshot holds. */
export interface Snapshot {
  /** Sequence number of the last transaction it includes. */
  sequence: number;
  /** The journal segment that was current when it was taken. */
  segment: number;
  /** Every record, as puts. */
  records: Change[];
}

/** Writes `snapshot` durably, replacing the previous one. */
/** What reading a snapshot found: its place in the journal and how many records it applied. */
export interface SnapshotRead {
  sequence: number;
  segment: number;
  records: number;
}

export async function writeSnapshot(directory: string, snapshot: Snapshot): Promise<number> {
  const temp = join(directory, FILES.snapshotTemp);
  const handle = await open(temp, "w", STORE_FILE_MODE);
  let position = 0;
  try {
    const write = async (bytes: Buffer) => {
      await writeAll(handle, bytes, position);
      position += bytes.length;
    };
    await write(encodeHeader(SNAPSHOT_MAGIC, 0));
    const { sequence, segment, records } = snapshot;
    await write(encodeFrame(JSON.stringify({ sequence, segment, createdAt: new Date().toISOString() })));
    for (let at = 0; at < records.length; at += RECORDS_PER_FRAME) {
      const chunk = records.slice(at, at + RECORDS_PER_FRAME).map(({ collection, entry }) => {
        return encodeEntryPut(collection, entry as NonNullable<Change["entry"]>);
      });
      await write(encodeFrame(`{"records":[${chunk.join(",")}]}`));
    }
    await write(encodeFrame(JSON.stringify({ end: true, records: records.length })));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(directory, FILES.snapshot));
  await syncDirectory(directory);
  return position;
}

/** Reads the snapshot, or `undefined` when there is none yet. */
export async function readSnapshot(
  directory: string,
  apply: (records: Change[]) => void,
): Promise<SnapshotRead | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(directory, FILES.snapshot));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const file = FILES.snapshot;
  const header = checkHeader(bytes, SNAPSHOT_MAGIC, file);
  if (!header.ok) throw corrupt(file, 0, header.reason);
  const frames = frameReader(bytes, file);
  const first = frames.next();
  const sequence = first.changes === undefined ? first.value.sequence : undefined;
  const segment = first.changes === undefined ? first.value.segment : undefined;
  if (!Number.isSafeInteger(sequence) || !Number.isSafeInteger(segment)) {
    throw corrupt(file, HEADER_BYTES, "the first frame does not name a sequence and segment");
  }
  let records = 0;
  for (;;) {
    const frame = frames.next();
    if (frame.changes !== undefined) {
      apply(frame.changes);
      records += frame.changes.length;
      continue;
    }
    const { at, value } = frame;
    if (value.end === true) {
      if (value.records !== records) {
        throw corrupt(file, at, `the end frame counts ${String(value.records)} records but ${records} were read`);
      }
      if (frames.offset !== bytes.length) throw corrupt(file, frames.offset, "bytes follow the end frame");
      return { sequence: sequence as number, segment: segment as number, records };
    }
    if (!Array.isArray(value.records)) throw corrupt(file, at, "a frame holds neither records nor the end mark");
    // Applied frame by frame: the parsed frames of a large snapshot never pile up beside the state built from them.
    apply(value.records.map((item) => decodePut(item, { file, offset: at })));
    records += value.records.length;
  }
}

/**
 * Walks the frames of a snapshot; every frame must be whole and valid. A records frame laid out as written comes
 * back as its changes, with the records kept as text (see `scan.ts`); any other frame parsed.
 */
function frameReader(bytes: Buffer, file: string) {
  const reader = {
    offset: HEADER_BYTES,
    next(): { at: number; value: Record<string, unknown>; changes?: undefined } | { at: number; changes: Change[] } {
      const at = reader.offset;
      const frame = readFrame(bytes, at);
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
