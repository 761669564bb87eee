/**
 * The entry of a signer thread (`worker_threads`): waits for the `open` message, then answers each job of
 * each `sign` message with its signatures or its failure. Built as its own file (`dist/signer-worker.js` and `.cjs`) so
 * both builds can start it.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import { CustodyError } from "../../errors.js";
import type { FromSigner, SignerAnswer, SignerFailure, SignJob, ToSigner } from "./protocol.js";
import { ThreadSigner } from "./thread-signer.js";

const port = parentPort;
if (!port) throw new Error("the signer worker runs in a worker thread");

let signer: ThreadSigner | undefined;

function failureOf(error: unknown): SignerFailure {
  if (error instanceof CustodyError) return { code: error.code, message: error.message, details: error.details };
  // Anything else may carry anything in its message (a key, once unsealed): only its kind crosses.
  return { code: "INTERNAL", message: "the signer thread failed while signing", details: {} };
}

// Answers finished in one turn go back in one message (see `ToSigner`'s "sign").
let answers: SignerAnswer[] = [];

function reply(answer: SignerAnswer): void {
  answers.push(answer);
  if (answers.length === 1) {
    setImmediate(() => {
      const finished = answers;
      answers = [];
      const message: FromSigner = { type: "answers", answers: finished };
      port?.postMessage(message);
    });
  }
}

function signJob(job: SignJob): void {
  if (!signer) {
    reply({
      type: "failed",
      job: job.job,
      failure: { code: "INTERNAL", message: "the signer thread was not opened", details: {} },
    });
    return;
  }
  signer.sign(job).then(
    (signatures) => reply({ type: "signed", job: job.job, signatures }),
    (error: unknown) => reply({ type: "failed", job: job.job, failure: failureOf(error) }),
  );
}

port.on("message", (message: ToSigner) => {
  switch (message.type) {
    case "open":
      signer = new ThreadSigner(message);
      return;
    case "forget":
      signer?.forget(message.id);
      return;
    case "sign":
      for (const job of message.jobs) signJob(job);
  }
});
