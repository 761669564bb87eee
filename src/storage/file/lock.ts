/**
 * The directory lock: one writer per store directory, across processes and within one.
 *
 * The lock is a file named `LOCK` holding its holder's pid, host, boot id and start time. It is created
 * atomically with its content (written to a private temporary file, then hard-linked to `LOCK`, which
 * fails if `LOCK` exists), so nobody ever reads a half-written lock. A lock whose holder is provably gone
 * (same host, and either a different boot or no live process with that pid) is stale and is taken over;
 * the takeover itself runs under a second lock, `LOCK.takeover`, and re-reads `LOCK` before deleting it, so
 * two processes racing for a stale lock cannot both win. A lock held from another host is never taken
 * over: its liveness cannot be checked from here.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { link, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { CustodyError } from "../../common/errors.js";
import { STORE_FILE_MODE } from "./files.js";
import { FILES } from "./format.js";

/** Who holds (or held) a store directory's lock. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** When the lock was taken, ISO 8601. */
  since: string;
  /** Linux boot id; a lock from an earlier boot is stale whatever its pid. */
  bootId?: string;
}

interface LockContent extends LockHolder {
  /** Tells this lock apart from a later one with the same pid, so `release` never deletes someone else's. */
  token: string;
}

const TAKEOVER = `${FILES.lock}.takeover`;
const ATTEMPTS = 5;

/** A held directory lock. */
export class DirectoryLock {
  private constructor(
    private readonly path: string,
    private readonly token: string,
    /** The holder of a stale lock this one replaced. */
    readonly takenOver: LockHolder | undefined,
  ) {}

  /** Takes the lock of `directory`, or throws `FAILED_PRECONDITION` naming its live holder. */
  static async acquire(directory: string): Promise<DirectoryLock> {
    const path = join(directory, FILES.lock);
    const boot = await currentBootId();
    const mine: LockContent = {
      pid: process.pid,
      hostname: hostname(),
      since: new Date().toISOString(),
      ...(boot === undefined ? {} : { bootId: boot }),
      token: randomUUID(),
    };
    const temp = join(directory, `${FILES.lock}.${mine.token}.tmp`);
    await writeFile(temp, `${JSON.stringify(mine)}\n`, { flag: "wx", mode: STORE_FILE_MODE });
    try {
      let takenOver: LockHolder | undefined;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (await linkExclusive(temp, path)) return new DirectoryLock(path, mine.token, takenOver);
        const held = await readLock(directory, path);
        if (held === undefined) continue; // released between our attempt and the read
        if (!isStale(held.holder, boot)) throw lockedError(directory, path, held.holder);
        if (await removeStale(directory, temp, path, held.raw, boot)) takenOver = publicHolder(held.holder);
      }
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `FileStore: ${directory} is contended: its lock changed hands ${ATTEMPTS} times while opening; try again`,
        { reason: "STORE_LOCKED", directory },
      );
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** Releases the lock if it is still this one. */
  async release(): Promise<void> {
    let raw: string;
    try {
      raw = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    if (parseLock(raw)?.token === this.token) await rm(this.path, { force: true });
  }
}

let bootIdRead: Promise<string | undefined> | undefined;

/** This machine's boot id where the OS exposes one (Linux), read once. */
function currentBootId(): Promise<string | undefined> {
  bootIdRead ??= readFile("/proc/sys/kernel/random/boot_id", "utf8").then(
    (text) => text.trim(),
    () => undefined,
  );
  return bootIdRead;
}

async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function parseLock(raw: string): LockContent | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockContent>;
    if (typeof value.pid !== "number" || typeof value.hostname !== "string" || typeof value.since !== "string") {
      return undefined;
    }
    return value as LockContent;
  } catch {
    return undefined;
  }
}

/** The lock at `path` with its raw text, or `undefined` if it is gone. An unreadable lock is refused, not guessed at. */
async function readLock(directory: string, path: string): Promise<{ holder: LockContent; raw: string } | undefined> {
  let raw: string;
  try {
    raw = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const holder = parseLock(raw);
  if (!holder) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      `FileStore: ${directory} is locked by ${path}, which does not name its holder; if no process uses the store, delete that file`,
      { reason: "STORE_LOCKED", directory, lockFile: path },
    );
  }
  return { holder, raw };
}

function isStale(holder: LockHolder, boot: string | undefined): boolean {
  if (holder.hostname !== hostname()) return false;
  if (holder.bootId !== undefined && boot !== undefined && holder.bootId !== boot) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Deletes the stale lock whose text is `staleRaw`, under the takeover lock; says whether it did. */
async function removeStale(
  directory: string,
  temp: string,
  path: string,
  staleRaw: string,
  boot: string | undefined,
): Promise<boolean> {
  const guard = join(directory, TAKEOVER);
  if (!(await linkExclusive(temp, guard))) {
    const taker = await readLock(directory, guard);
    if (taker && !isStale(taker.holder, boot)) throw lockedError(directory, guard, taker.holder);
    // Left by a process that died mid-takeover.
    await rm(guard, { force: true });
    return false;
  }
  try {
    const current = await readLock(directory, path);
    if (current?.raw !== staleRaw) return false; // someone else replaced it meanwhile: start over
    await rm(path, { force: true });
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

function publicHolder(content: LockContent): LockHolder {
  return {
    pid: content.pid,
    hostname: content.hostname,
    since: content.since,
    ...(content.bootId === undefined ? {} : { bootId: content.bootId }),
  };
}

function lockedError(directory: string, path: string, holder: LockHolder): CustodyError {
  const self =
    holder.pid === process.pid && holder.hostname === hostname()
      ? " (this process: another FileStore has it open)"
      : "";
  return new CustodyError(
    "FAILED_PRECONDITION",
    `FileStore: ${directory} is in use by pid ${holder.pid} on ${holder.hostname} since ${holder.since}${self}; close that store first. If that process no longer exists, delete ${path}`,
    { reason: "STORE_LOCKED", directory, lockFile: path, holder: publicHolder(holder as LockContent) },
  );
}
