/**
 * Rounds of background work on a timer: the send-status tracker and the balance watcher each run one round,
 * wait their interval, and run the next, until closed.
 *
 * @module
 */

/**
 * Runs `round` now and then every `intervalMs` after the previous round ended (never two at once), reporting a
 * round's failure to `onError` and going on. The timer never keeps a process alive on its own.
 */
export class Rounds {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  #started = false;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError?: (error: unknown) => void,
  ) {}

  /** Whether {@link Rounds.close} was called: a round in flight checks it to stop early. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Starts the rounds (idempotent; nothing after close). */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#schedule(0);
  }

  /** Asks for a round soon instead of waiting out the interval (nothing while one runs or before start). */
  wake(): void {
    if (!this.#started || this.#closed || this.#running) return;
    this.#schedule(0);
  }

  /** Stops the rounds and waits for the one in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.round()
        .catch((error) => this.onError?.(error))
        .finally(() => {
          this.#running = undefined;
          if (!this.#closed) this.#schedule(this.intervalMs);
        });
    }, delayMs);
    this.#timer.unref?.();
  }
}
