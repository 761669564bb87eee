/**
 * The entry of a signer thread (`worker_threads`): waits for the `open` message, then answers each `sign`
 * job with its signatures or its failure, several answers to a message when several are ready. Built as its
 * own file (`dist/signer-worker.js` and `.cjs`) so both builds can start it.
 *
 * @module
 */
import { setPriority } from "node:os";
import { type MessagePort, parentPort } from "node:worker_threads";
import { isCustodyError } from "../../common/errors.js";
import type { FromSigner, JobAnswer, SignerFailure, ToSigner } from "./protocol.js";
import { ThreadSigner } from "./thread-signer.js";

if (!parentPort) throw new Error("the signer worker runs in a worker thread");
const port: MessagePort = parentPort;

let signer: ThreadSigner | undefined;

function failureOf(error: unknown): SignerFailure {
  if (isCustodyError(error)) return { code: error.code, message: error.message, details: error.details };
  // Anything else may carry anything in its message (a key, once unsealed): only its kind crosses.
  return { code: "INTERNAL", message: "the signer thread failed while signing", details: {} };
}

/**
 * Runs this thread below the engine's. That thread feeds every signer thread, and with more busy threads than
 * cores a fair scheduler gives the signers time the feeding thread needs, and they then wait for it. On Linux a nice
 * value belongs to one thread; elsewhere `setPriority` would lower the whole process, so it is left alone.
 */
function lowerPriority(nice: number): void {
  if (nice === 0 || process.platform !== "linux") return;
  try {
    setPriority(nice);
  } catch {
    // A host that forbids it: the thread runs at the engine's priority.
  }
}

/**
 * The most answers one message carries. Every message wakes the engine's thread, and with as many busy threads
 * as cores one message per answer spends a noticeable share of all CPU on those wake-ups. An answer therefore
 * waits for up to three more, and whatever is ready leaves at the end of this turn of the thread's event loop: a
 * lone job is still answered as soon as it is signed. No more than four, because larger groups leave the
 * engine's thread idle while signatures it could record sit in a thread's hands: sending every answer of a turn
 * together signs fewer activities per second than one message per answer.
 */
const ANSWERS_PER_MESSAGE = 4;

let ready: JobAnswer[] = [];

function send(): void {
  if (ready.length === 0) return;
  const message: FromSigner = { answers: ready };
  ready = [];
  port.postMessage(message);
}

function answer(made: JobAnswer): void {
  ready.push(made);
  if (ready.length === ANSWERS_PER_MESSAGE) send();
  else if (ready.length === 1) setImmediate(send);
}

port.on("message", (message: ToSigner) => {
  switch (message.type) {
    case "open":
      lowerPriority(message.nice);
      signer = new ThreadSigner(message);
      return;
    case "forget":
      signer?.forget(message.id);
      return;
    case "sign": {
      const { job } = message;
      if (!signer) {
        answer({
          type: "failed",
          job,
          failure: { code: "INTERNAL", message: "the signer thread was not opened", details: {} },
        });
        return;
      }
      signer.sign(message).then(
        (signatures) => answer({ type: "signed", job, signatures }),
        (error: unknown) => answer({ type: "failed", job, failure: failureOf(error) }),
      );
    }
  }
});
