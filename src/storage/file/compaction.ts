/**
 * Compaction: the next snapshot, built from the store's files alone (the current snapshot plus the journal
 * segments before `segment`) rather than from the state in memory. That is what lets it run on a thread of
 * its own (`compaction-worker.ts`) while commits go on: encoding the whole state on the committing thread would
 * pause commits for as long as that takes, and take a large share of that thread's time under load.
 *
 * It reads the files exactly as opening the store does (`JournalReplay`), so the snapshot holds what a
 * reopen would rebuild, and a journal that can no longer be read is reported now, as `STORE_CORRUPT`, not
 * at the next open. The segments it reads are finished: the journal rotated to `segment` first, after
 * their last write was fsync'd, and only a finished compaction deletes them.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CommittedState } from "../memory.js";
import { FILES } from "./format.js";
import { JournalReplay, segmentNumbers } from "./recovery.js";
import { readSnapshot, writeSnapshot } from "./snapshot.js";

/**
 * Writes the snapshot that covers every journal segment before `segment` and names `segment` as the first
 * one still needed; resolves with its size in bytes. The caller holds the directory lock and runs one
 * compaction at a time.
 */
export async function compact(directory: string, segment: number): Promise<number> {
  // Every record is read once, to be written out: packing them on the way would only cost time.
  const state = new CommittedState(Number.POSITIVE_INFINITY);
  const previous = await readSnapshot(directory, (records) => state.apply(records));
  const replay = new JournalReplay(state, previous?.sequence ?? 0);
  const firstLive = previous?.segment ?? 0;
  for (const n of await segmentNumbers(directory)) {
    if (n < firstLive || n >= segment) continue;
    replay.segment(await readFile(join(directory, FILES.segment(n))), n, false);
  }
  return writeSnapshot(directory, { sequence: replay.sequence, segment, records: state.changes() });
}
