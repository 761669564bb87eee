/**
 * The entry of the FileStore's compaction thread (`worker_threads`): answers each job, a store directory and
 * the segment the journal rotated to, with the size of the snapshot {@link compact} wrote or why it failed. Built as its own file
 * (`dist/file-compactor.js` and `.cjs`) so both builds can start it.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { isCustodyError } from "../../common/errors.js";
import { compact } from "./compaction.js";
import type { CompactionAnswer, CompactionJob } from "./compactor.js";

const port = parentPort;
if (!port) throw new Error("the compaction worker runs in a worker thread");

port.on("message", async ({ job, directory, segment }: CompactionJob) => {
  let answer: CompactionAnswer;
  try {
    answer = { job, bytes: await compact(directory, segment) };
  } catch (error) {
    // Records hold secrets only sealed, and file-system errors name paths: the message may cross as it is.
    answer = isCustodyError(error)
      ? { job, failure: { code: error.code, message: error.message, details: error.details } }
      : { job, failure: { message: (error as Error).message, errno: (error as NodeJS.ErrnoException).code } };
  }
  port.postMessage(answer);
});
