/**
 * Serializes work per key within one engine. Submissions of one body (one fingerprint) run one after the
 * other, so a failed first run records its FAILED activity before an identical body is looked up: one
 * fingerprint, one activity, one answer, and the handler runs at most once.
 *
 * @module
 */

export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier `run` with the same key has settled. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last one out clears the key, so the map holds only keys with work in flight.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
