/**
 * The few file-system steps durability depends on.
 *
 * @module
 */
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * Makes the directory's entries (created, renamed and removed files) durable. POSIX needs this after a
 * create or rename; a file's own fsync does not cover its name. Windows cannot open a directory and
 * persists entries with the file, so there is nothing to do there.
 */
export async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Mode of every file the store creates: owner read and write only. */
export const STORE_FILE_MODE = 0o600;

/** Writes all of `bytes` at `position`; a regular-file write may in principle stop short. */
export async function writeAll(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * Creates `directory` (and missing parents) so that it survives a crash: each new directory's entry lives
 * in its parent, which must be fsync'd like any other directory.
 */
export async function createDirectory(directory: string): Promise<void> {
  const target = resolve(directory);
  // Owner-only: the journal and snapshots hold every record (secrets only sealed, but names, keys and audit).
  const firstCreated = await mkdir(target, { recursive: true, mode: 0o700 });
  if (firstCreated === undefined) return;
  for (let created = target; ; created = dirname(created)) {
    await syncDirectory(dirname(created));
    if (created === firstCreated || dirname(created) === created) return;
  }
}
