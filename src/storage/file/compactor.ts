/**
 * Runs the FileStore's compactions ({@link compact}) on a thread of its own, so building a snapshot takes
 * nothing from the thread that commits. The thread starts for a compaction and stops once none is left: a
 * compaction reads the whole store into the thread's heap, and an idle thread never collects that garbage, so a
 * kept thread held about as much memory as the store's files until the next compaction. Starting one costs some
 * 30 ms, against seconds of work in each compaction, which happens at most once per `snapshotAfterBytes` of
 * journal. A thread that dies fails the compaction it held (the journal stays the durable truth; the next one
 * starts a new thread).
 * Made with `onThread` false (the store's `snapshotThread: false`), it compacts on the calling thread instead,
 * for hosts that cannot start workers.
 *
 * @module
 */
import { Worker } from "node:worker_threads";
import { CustodyError, type ErrorCode, type ErrorDetails } from "../../common/errors.js";
import { workerEntry } from "../../common/worker-entry.js";
import { compact } from "./compaction.js";

/** A compaction asked of the thread. */
export interface CompactionJob {
  job: number;
  directory: string;
  segment: number;
}

/** The thread's answer: the snapshot's size, or why it could not write it (a `CustodyError`'s parts, or a file-system error). */
export type CompactionAnswer =
  | { job: number; bytes: number }
  | {
      job: number;
      failure: { code: ErrorCode; message: string; details: ErrorDetails } | { message: string; errno?: string };
    };

interface Pending {
  resolve: (bytes: number) => void;
  reject: (error: CustodyError) => void;
}

export class Compactor {
  readonly #onThread: boolean;
  #worker: Worker | undefined;
  readonly #jobs = new Map<number, Pending>();
  #nextJob = 1;

  constructor(onThread: boolean) {
    this.#onThread = onThread;
  }

  /** Writes the snapshot covering the journal segments before `segment` (see {@link compact}); its size. */
  compact(directory: string, segment: number): Promise<number> {
    if (!this.#onThread) return compact(directory, segment);
    const worker = this.#worker ?? this.#start();
    const job = this.#nextJob++;
    return new Promise<number>((resolve, reject) => {
      this.#jobs.set(job, { resolve, reject });
      worker.ref();
      worker.postMessage({ job, directory, segment } satisfies CompactionJob);
    });
  }

  /** Stops the thread. The store calls it once no compaction is running. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  /** Stops an idle thread, which frees its heap; the next compaction starts a new one. */
  #stop(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    worker.unref();
    // Nothing is lost if stopping fails: the thread holds no job, and a new one serves the next compaction.
    worker.terminate().catch(() => undefined);
  }

  #start(): Worker {
    const { filename, options } = workerEntry(import.meta.url, "file-compactor", "compaction-worker.ts");
    const worker = new Worker(filename, options);
    this.#worker = worker;
    worker.on("message", (answer: CompactionAnswer) => this.#answer(worker, answer));
    worker.on("error", (error) => this.#lost(worker, error));
    worker.on("exit", (exitCode) => this.#lost(worker, exitCode));
    return worker;
  }

  #answer(worker: Worker, answer: CompactionAnswer): void {
    const pending = this.#jobs.get(answer.job);
    if (!pending) return;
    this.#jobs.delete(answer.job);
    if (this.#jobs.size === 0) this.#stop(worker);
    if ("bytes" in answer) {
      pending.resolve(answer.bytes);
      return;
    }
    const { failure } = answer;
    if ("code" in failure) {
      pending.reject(new CustodyError(failure.code, failure.message, failure.details));
      return;
    }
    pending.reject(
      new CustodyError("UNAVAILABLE", `FileStore: writing a snapshot failed: ${failure.message}`, {
        reason: "STORE_IO",
        ...(failure.errno === undefined ? {} : { errno: failure.errno }),
      }),
    );
  }

  #lost(worker: Worker, cause: unknown): void {
    if (this.#worker !== worker) return; // closed on purpose
    this.#worker = undefined;
    const jobs = [...this.#jobs.values()];
    this.#jobs.clear();
    for (const pending of jobs) {
      pending.reject(
        new CustodyError(
          "UNAVAILABLE",
          "FileStore: the compaction thread stopped while writing a snapshot; the journal still holds everything",
          { reason: "COMPACTION_THREAD_STOPPED" },
          { cause },
        ),
      );
    }
  }
}
