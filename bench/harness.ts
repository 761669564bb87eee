/**
 * The benchmarks' shared harness. This machine is noisy, so nothing is judged by an absolute time: each row
 * compares a subject with its reference measured in the same process, in interleaved rounds (reference, subject,
 * reference, ...), so a burst of someone else's load lands on both sides. A row prints the median ops/s of the
 * rounds with their min–max, and the median of the per-round ratios, next to the issue's target.
 *
 * Every script collects its rows with {@link BenchReport} and merges them into `bench/results/latest.json` under
 * its own name, so a change can be compared with the run before it.
 *
 * `BENCH_MS` scales the time per round (default 400 ms); `BENCH_ROUNDS` the number of rounds (default 7).
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

export const ROUND_MS = Number(process.env.BENCH_MS ?? 400);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

/** Something to measure: a call (awaited when it returns a promise) and how many operations one call does. */
export interface Workload {
  readonly label: string;
  readonly run: () => unknown;
  /** Operations one call performs (a batch of 100 signatures counts 100). Default 1. */
  readonly opsPerCall?: number;
  /** Calls kept in flight at once. Default 1 (one after the other). */
  readonly inFlight?: number;
}

/** Operations per second of `workload` over about `ms` milliseconds. */
export async function opsPerSecond(workload: Workload, ms: number): Promise<number> {
  const { run, opsPerCall = 1, inFlight = 1 } = workload;
  let calls = 0;
  const start = performance.now();
  const deadline = start + ms;
  const lane = async () => {
    while (performance.now() < deadline) {
      const result = run();
      if (result instanceof Promise) await result;
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (calls * opsPerCall * 1000) / (performance.now() - start);
}

/** How a ratio is judged: at least (`>=`) or at most (`<=`) the target. */
export interface Target {
  readonly op: ">=" | "<=";
  readonly value: number;
}

/** One measured row. */
export interface BenchRow {
  readonly scenario: string;
  readonly subject: string;
  readonly reference: string;
  /** Median, min and max of the subject's rounds (ops/s, or the unit the row names). */
  readonly subjectMedian: number;
  readonly subjectMin: number;
  readonly subjectMax: number;
  readonly referenceMedian: number;
  /** Median of the per-round ratios subject / reference. */
  readonly ratio: number;
  readonly unit: string;
  readonly target?: Target;
  readonly holds?: boolean;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Judges a ratio against its target. */
export function holds(ratio: number, target: Target | undefined): boolean | undefined {
  if (!target) return undefined;
  return target.op === ">=" ? ratio >= target.value : ratio <= target.value;
}

/** Collects one script's rows, prints them as a table and records them in `bench/results/latest.json`. */
export class BenchReport {
  readonly rows: BenchRow[] = [];

  constructor(readonly script: string = basename(process.argv[1] ?? "bench", ".ts")) {}

  /**
   * Measures `subject` against `reference` in interleaved rounds (after a warm-up of each) and adds the row.
   * The ratio is subject ops/s over reference ops/s: above 1 the subject is faster.
   */
  async compare(scenario: string, subject: Workload, reference: Workload, target?: Target): Promise<BenchRow> {
    await opsPerSecond(reference, ROUND_MS / 2);
    await opsPerSecond(subject, ROUND_MS / 2);
    const subjects: number[] = [];
    const references: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r = await opsPerSecond(reference, ROUND_MS);
      const s = await opsPerSecond(subject, ROUND_MS);
      references.push(r);
      subjects.push(s);
      ratios.push(s / r);
    }
    return this.add({
      scenario,
      subject: subject.label,
      reference: reference.label,
      subjectMedian: median(subjects),
      subjectMin: Math.min(...subjects),
      subjectMax: Math.max(...subjects),
      referenceMedian: median(references),
      ratio: median(ratios),
      unit: "ops/s",
      ...(target ? { target } : {}),
    });
  }

  /**
   * Adds a row measured some other way (a heap size, a reopen time), given its samples. `ratio` is computed
   * from the medians: subject / reference.
   */
  measured(
    scenario: string,
    subject: { label: string; samples: readonly number[] },
    reference: { label: string; samples: readonly number[] },
    unit: string,
    target?: Target,
  ): BenchRow {
    const s = median(subject.samples);
    const r = median(reference.samples);
    return this.add({
      scenario,
      subject: subject.label,
      reference: reference.label,
      subjectMedian: s,
      subjectMin: Math.min(...subject.samples),
      subjectMax: Math.max(...subject.samples),
      referenceMedian: r,
      ratio: s / r,
      unit,
      ...(target ? { target } : {}),
    });
  }

  private add(row: Omit<BenchRow, "holds">): BenchRow {
    const judged: BenchRow = { ...row, ...(row.target ? { holds: holds(row.ratio, row.target) } : {}) };
    this.rows.push(judged);
    return judged;
  }

  /** Prints the rows and merges them into `bench/results/latest.json` under this script's name. */
  finish(): void {
    const format = (n: number) => (n >= 100 ? n.toFixed(0) : n.toPrecision(3));
    console.table(
      this.rows.map((row) => ({
        scenario: row.scenario,
        subject: row.subject,
        "median (min–max)": `${format(row.subjectMedian)} (${format(row.subjectMin)}–${format(row.subjectMax)}) ${row.unit}`,
        reference: `${row.reference}: ${format(row.referenceMedian)}`,
        ratio: row.ratio.toFixed(2),
        target: row.target ? `${row.target.op} ${row.target.value}` : "report",
        holds: row.holds === undefined ? "" : row.holds ? "yes" : "NO",
      })),
    );
    const directory = new URL("./results/", import.meta.url);
    mkdirSync(directory, { recursive: true });
    const file = new URL("latest.json", directory);
    let previous: { scripts?: Record<string, unknown> } = {};
    try {
      previous = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      // First run, or a damaged file: start afresh.
    }
    const results = {
      node: process.version,
      platform: `${process.platform}/${process.arch}`,
      roundMs: ROUND_MS,
      rounds: ROUNDS,
      scripts: {
        ...(previous.scripts ?? {}),
        [this.script]: { at: new Date().toISOString(), rows: this.rows },
      },
    };
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  }
}
