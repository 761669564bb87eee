/**
 * The order in which one PostgresStore object lets its write transactions reach the database: one at a time
 * per partition, any number of partitions at once, and a transaction with no partition alone. The advisory
 * locks (see `store.ts`) give the same order across processes; this queue keeps waiting writers in the process
 * instead of on pooled connections.
 *
 * @module
 */

export class WriterTurns {
  /** The end of the latest writer with no partition: every writer that comes after it waits for it. */
  private barrier: Promise<void> = Promise.resolve();
  /** Partition → the end of its latest writer. An entry goes when that writer ends, so the map stays small. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `write` once the writers it must follow have ended. */
  async run<T>(partition: string | undefined, write: () => Promise<T>): Promise<T> {
    let done: () => void = () => undefined;
    const end = new Promise<void>((resolve) => {
      done = resolve;
    });
    let earlier: Promise<unknown>;
    if (partition === undefined) {
      // After everyone already waiting or writing; everyone after it waits for it.
      earlier = Promise.all([this.barrier, ...this.tails.values()]);
      this.barrier = end;
      this.tails.clear();
    } else {
      earlier = Promise.all([this.barrier, this.tails.get(partition)]);
      this.tails.set(partition, end);
    }
    await earlier;
    try {
      return await write();
    } finally {
      if (partition !== undefined && this.tails.get(partition) === end) this.tails.delete(partition);
      done();
    }
  }
}
