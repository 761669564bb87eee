/**
 * The entry of a signer thread (`worker_threads`): waits for the `open` message, then answers each `sign`
 * job with its signatures or its failure. Built as its own file (`dist/signer-worker.js` and `.cjs`) so
 * both builds can start it.
 *
 * @module
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { CustodyError } from "../../errors.js";
import type { FromSigner, SignerFailure, ToSigner } from "./protocol.js";
import { ThreadSigner } from "./thread-signer.js";

const port = parentPort;
if (!port) throw new Error("the signer worker runs in a worker thread");

let signer: ThreadSigner | undefined;

function failureOf(error: unknown): SignerFailure {
  if (error instanceof CustodyError) return { code: error.code, message: error.message, details: error.details };
  // Anything else may carry anything in its message (a key, once unsealed): only its kind crosses.
  return { code: "INTERNAL", message: "the signer thread failed while signing", details: {} };
}

/**
 * Runs this thread below the engine's. That thread feeds every signer thread, and with more busy threads than
 * cores the scheduler gave it a third of its time to the signers, which then waited for it (#19). On Linux a nice
 * value belongs to one thread; elsewhere `setPriority` would lower the whole process, so it is left alone.
 */
function lowerPriority(nice: number): void {
  if (nice === 0 || process.platform !== "linux") return;
  try {
    setPriority(nice);
  } catch {
    // A host that forbids it: the thread runs at the engine's priority, as it did before.
  }
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
      const reply = (answer: FromSigner) => port.postMessage(answer);
      if (!signer) {
        reply({
          type: "failed",
          job,
          failure: { code: "INTERNAL", message: "the signer thread was not opened", details: {} },
        });
        return;
      }
      signer.sign(message).then(
        (signatures) => reply({ type: "signed", job, signatures }),
        (error: unknown) => reply({ type: "failed", job, failure: failureOf(error) }),
      );
    }
  }
});
