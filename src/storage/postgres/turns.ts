/**
 * The order in which one PostgresStore object lets its write transactions reach the database: one at a time
 * per partition, a transaction with no partition alone, and partitions side by side up to a limit that adapts
 * to conflicts. The advisory locks (see `store.ts`) give the first two across processes; this queue keeps
 * waiting writers in the process instead of on pooled connections.
 *
 * Writers of different partitions still conflict when they write the same rows (a wrong partition, or a unique
 * key both take). So the number of partitions writing at once is halved on each conflict and raised by one after
 * as many commits as it allows (additive increase, multiplicative decrease): where partitions keep meeting,
 * writers end up taking turns as one would, and where they do not, they run side by side.
 *
 * @module
 */

/** Partitions writing at once, at most (each holds a pooled connection). */
const MOST_AT_ONCE = 8;

export class WriterTurns {
  /** The end of the latest writer with no partition: every writer that comes after it waits for it. */
  private barrier: Promise<void> = Promise.resolve();
  /** Partition → the end of its latest writer. An entry goes when that writer ends, so the map stays small. */
  private readonly tails = new Map<string, Promise<void>>();
  /** How many partitioned writers may run at once now. */
  private limit = MOST_AT_ONCE;
  private running = 0;
  /** Partitioned writers whose turn has come, waiting for room under the limit. */
  private readonly waiting: (() => void)[] = [];
  /** Commits since the limit last changed. */
  private streak = 0;

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
    if (partition !== undefined) await this.room();
    try {
      return await write();
    } finally {
      if (partition !== undefined) {
        this.running--;
        this.wake();
        if (this.tails.get(partition) === end) this.tails.delete(partition);
      }
      done();
    }
  }

  /** A write conflicted with another: fewer partitions write at once. */
  conflicted(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.streak = 0;
  }

  /** A write committed: after as many commits as the limit, one more partition may write at once. */
  committed(): void {
    if (++this.streak < this.limit) return;
    this.streak = 0;
    this.limit = Math.min(MOST_AT_ONCE, this.limit + 1);
    this.wake();
  }

  private room(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private wake(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      this.running++;
      (this.waiting.shift() as () => void)();
    }
  }
}
