/**
 * How much this process's resident memory grew while some work ran: sampled every few milliseconds, so a
 * buffer that was filled and dropped again still counts at its peak.
 */

export interface Measured<T> {
  outcome: T;
  /** Peak resident memory during the work, less what it was before, in bytes. */
  rssGrowth: number;
  ms: number;
}

export async function measuredRss<T>(work: () => Promise<T>): Promise<Measured<T>> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  try {
    const outcome = await work();
    return { outcome, rssGrowth: Math.max(peak, process.memoryUsage().rss) - before, ms: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}
