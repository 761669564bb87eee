/**
 * Compaction: the next snapshot, built from the store's files alone (the current snapshot plus the journal
 * segments before `segment`) rather than from the state in memory. That is what lets it run on a thread of
 * its own (`compaction-worker.ts`) while commits go on: encoding the whole state on the committing thread would
 * pause commits for as long as that takes, and take a large share of that thread's time under load.
 *
 * It reads the files exactly as opening the store does (`readSnapshot`, `JournalReplay`), so the snapshot holds
 * what a reopen would rebuild, and a journal that can no longer be read is reported now, as `STORE_CORRUPT`, not
 * at the next open. The segments it reads are finished: the journal rotated to `segment` first, after
 * their last write was fsync'd, and only a finished compaction deletes them.
 *
 * The files are read twice, a frame at a time, so its memory follows the number of records, not their size.
 * The first pass numbers every change in file order and keeps, per record, the number of its last change (a
 * deleted record none). The second pass reads the same changes in the same order and writes each put that is
 * its record's last change, as the text it was read as. The snapshot is therefore in file order, not id order:
 * opening a store sorts the scope lists once after loading (`CommittedState.beginBulkLoad`).
 *
 * @module
 */
import type { Change } from "../memory.js";
import { type ChangeSink, JournalReplay, segmentNumbers } from "./recovery.js";
import { readSnapshot, SnapshotWriter } from "./snapshot.js";

/**
 * collection → record id → the number of the record's last change; a deleted record has none. The ids are the
 * strings `JSON.parse` made of each triple's small parts (see `scan.ts`), copies rather than slices of the frame's
 * text, so keeping them keeps no record text alive.
 */
type LastChanges = Map<string, Map<string, number>>;

/**
 * Writes the snapshot that covers every journal segment before `segment` and names `segment` as the first
 * one still needed; resolves with its size in bytes. The caller holds the directory lock and runs one
 * compaction at a time.
 */
export async function compact(directory: string, segment: number): Promise<number> {
  const last: LastChanges = new Map();
  let changes = 0;
  const { sequence } = await readChanges(directory, segment, (change) => {
    changes++;
    let ids = last.get(change.collection);
    if (ids === undefined) {
      ids = new Map();
      last.set(change.collection, ids);
    }
    if (change.entry === null) ids.delete(change.id);
    else ids.set(change.id, changes);
  });
  let kept = 0;
  for (const ids of last.values()) kept += ids.size;

  const writer = await SnapshotWriter.create(directory, sequence, segment);
  try {
    let read = 0;
    let written = 0;
    await readChanges(
      directory,
      segment,
      ({ collection, id, entry }) => {
        read++;
        if (entry === null || last.get(collection)?.get(id) !== read) return;
        writer.add(collection, entry);
        written++;
      },
      () => writer.flush(),
    );
    if (read !== changes || written !== kept) {
      throw new Error(`the store's files changed while a snapshot was built from them (${written} of ${kept} records)`);
    }
    return await writer.finish();
  } catch (error) {
    await writer.abandon().catch(() => undefined);
    throw error;
  }
}

/**
 * Hands each change the snapshot and the finished segments before `segment` hold to `visit`, in file order,
 * with the checks of opening the store; `afterFrame` runs after each frame's changes. Resolves with the
 * sequence number of the last transaction.
 */
async function readChanges(
  directory: string,
  segment: number,
  visit: (change: Change) => void,
  afterFrame?: () => Promise<void>,
): Promise<{ sequence: number }> {
  const sink: ChangeSink = {
    apply(changes) {
      for (const change of changes) visit(change);
    },
  };
  const previous = await readSnapshot(directory, (records) => {
    sink.apply(records);
    return afterFrame?.();
  });
  const replay = new JournalReplay(sink, previous?.sequence ?? 0);
  const firstLive = previous?.segment ?? 0;
  for (const n of await segmentNumbers(directory)) {
    if (n < firstLive || n >= segment) continue;
    await replay.finishedSegment(directory, n, afterFrame);
  }
  return { sequence: replay.sequence };
}
