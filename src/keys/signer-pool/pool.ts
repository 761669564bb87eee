/**
 * The signer pool (engine option `signerThreads`): signatures made on `worker_threads`, so a process signing
 * from many concurrent activities uses every core. The engine's thread still parses, decides and stores;
 * a thread gets the planned inputs (checked and hashed already) and the key sealed as the store holds it.
 *
 * - Threads start at the first signature, are kept (their key caches warm) and are `unref`'d while idle, so
 *   a host that forgets `close()` is not kept alive by them.
 * - A job goes to the live thread with the fewest jobs in flight.
 * - A thread that dies (an uncaught error, an abort, `process.exit` in it) fails the jobs it held with
 *   `UNAVAILABLE` (reason `SIGNER_THREAD_STOPPED`) and nothing else; the next job starts a fresh thread.
 * - `close()` terminates every thread and fails what was in flight.
 *
 * @module
 */

import { Worker } from "node:worker_threads";
import { CustodyError, type ErrorCode, invalidArgument } from "../../common/errors.js";
import { workerEntry } from "../../common/worker-entry.js";
import type { RawPayloadSignature, SigningPlan } from "../../crypto/sign/index.js";
import type { FromSigner, JobAnswer, SealedKey, ToSigner } from "./protocol.js";

/** The most threads a pool may have: more than any machine's cores would only add contention. */
export const MAX_SIGNER_THREADS = 64;

/** What opens sealed keys, fetched when a thread starts (the vault is open by then). */
export interface SealingKeys {
  /** A copy the pool may hand over (its buffer is transferred to the thread). */
  readonly keyEncryptionKey: Uint8Array;
  readonly wrappedDataKey: string;
}

export interface SignerPoolOptions {
  readonly threads: number;
  /** The threads' nice value on Linux (see {@link assertSignerThreadNice}). */
  readonly nice: number;
  readonly sealingKeys: () => SealingKeys;
  readonly strictEd25519Paths: boolean;
}

interface Pending {
  readonly resolve: (signatures: RawPayloadSignature[]) => void;
  readonly reject: (error: CustodyError) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly jobs: Map<number, Pending>;
  /** Set when the pool itself terminates the thread, so its exit is not taken for a crash. */
  stopping: boolean;
}

/** The default nice value of signer threads: below the engine's thread, which feeds them (see `worker.ts`). */
export const DEFAULT_SIGNER_THREAD_NICE = 10;

/** Checks the `signerThreadNice` engine option: a whole number from 0 (the engine's own priority) to 19. */
export function assertSignerThreadNice(value: unknown): asserts value is number {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > 19) {
    throw invalidArgument("signerThreadNice must be a whole number from 0 to 19", "signerThreadNice");
  }
}

/** Checks the `signerThreads` engine option: a whole number from 1 to {@link MAX_SIGNER_THREADS}. */
export function assertSignerThreads(value: unknown): asserts value is number {
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > MAX_SIGNER_THREADS) {
    throw invalidArgument(`signerThreads must be a whole number from 1 to ${MAX_SIGNER_THREADS}`, "signerThreads");
  }
}

export class SignerPool {
  readonly #options: SignerPoolOptions;
  readonly #threads: (Thread | undefined)[];
  #nextJob = 1;
  #closed = false;

  constructor(options: SignerPoolOptions) {
    assertSignerThreads(options.threads);
    this.#options = options;
    this.#threads = Array.from({ length: options.threads }, () => undefined);
  }

  /** Signs `plan` with `key` in a thread; resolves with the signatures in the plan's order. */
  sign(key: SealedKey, plan: SigningPlan): Promise<RawPayloadSignature[]> {
    if (this.#closed) {
      return Promise.reject(
        new CustodyError("FAILED_PRECONDITION", "the engine is closed: its signer threads have stopped", {
          reason: "ENGINE_CLOSED",
        }),
      );
    }
    const thread = this.#leastBusy();
    const job = this.#nextJob++;
    const message: ToSigner = { type: "sign", job, key, taproot: plan.taproot, inputs: plan.inputs };
    return new Promise<RawPayloadSignature[]>((resolve, reject) => {
      thread.jobs.set(job, { resolve, reject });
      if (thread.jobs.size === 1) thread.worker.ref();
      thread.worker.postMessage(message);
    });
  }

  /** Tells every running thread to drop what it caches for a deleted wallet, account or private key. */
  forget(id: string): void {
    const message: ToSigner = { type: "forget", id };
    for (const thread of this.#threads) thread?.worker.postMessage(message);
  }

  /** Terminates every thread; jobs in flight fail with `UNAVAILABLE`. Later signatures are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const stopping = this.#threads.map((thread, index) => {
      if (!thread) return undefined;
      thread.stopping = true;
      this.#release(index, thread, "UNAVAILABLE", "the engine was closed while the payload was being signed");
      return thread.worker.terminate();
    });
    await Promise.all(stopping);
  }

  #leastBusy(): Thread {
    let best: Thread | undefined;
    for (let index = 0; index < this.#threads.length; index++) {
      const thread = this.#threads[index] ?? this.#start(index);
      if (best === undefined || thread.jobs.size < best.jobs.size) best = thread;
    }
    return best as Thread;
  }

  #start(index: number): Thread {
    const { filename, options } = workerEntry(import.meta.url, "signer-worker", "worker.ts");
    const worker = new Worker(filename, options);
    const thread: Thread = { worker, jobs: new Map(), stopping: false };
    this.#threads[index] = thread;
    worker.unref();
    worker.on("message", ({ answers }: FromSigner) => {
      for (const answer of answers) this.#answer(thread, answer);
    });
    worker.on("error", (error) => this.#lost(index, thread, error));
    worker.on("exit", (exitCode) => this.#lost(index, thread, exitCode));
    const keys = this.#options.sealingKeys();
    // A fresh buffer of exactly the key, moved to the thread: no copy stays behind in this one.
    const keyEncryptionKey = Uint8Array.from(keys.keyEncryptionKey);
    keys.keyEncryptionKey.fill(0);
    const open: ToSigner = {
      type: "open",
      keyEncryptionKey,
      wrappedDataKey: keys.wrappedDataKey,
      strictEd25519Paths: this.#options.strictEd25519Paths,
      nice: this.#options.nice,
    };
    worker.postMessage(open, [keyEncryptionKey.buffer]);
    return thread;
  }

  #answer(thread: Thread, answer: JobAnswer): void {
    const pending = thread.jobs.get(answer.job);
    if (!pending) return;
    thread.jobs.delete(answer.job);
    if (thread.jobs.size === 0) thread.worker.unref();
    if (answer.type === "signed") {
      pending.resolve(answer.signatures);
    } else {
      const { code, message, details } = answer.failure;
      pending.reject(new CustodyError(code as ErrorCode, message, details));
    }
  }

  /** A thread that died: its jobs fail, its slot empties, and the next job starts another. */
  #lost(index: number, thread: Thread, cause: unknown): void {
    if (thread.stopping) return;
    thread.stopping = true;
    this.#release(
      index,
      thread,
      "UNAVAILABLE",
      "a signer thread stopped while signing; the payload was not signed, and submitting it again is safe",
      cause,
    );
  }

  #release(index: number, thread: Thread, code: ErrorCode, message: string, cause?: unknown): void {
    if (this.#threads[index] === thread) this.#threads[index] = undefined;
    const jobs = [...thread.jobs.values()];
    thread.jobs.clear();
    for (const pending of jobs) {
      // The cause (the thread's error or exit code) is for the host's logs; it never reaches the wire.
      pending.reject(new CustodyError(code, message, { reason: "SIGNER_THREAD_STOPPED" }, { cause }));
    }
  }
}
