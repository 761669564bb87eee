/**
 * Where a stretch of work spends CPU: in this process (`process.cpuUsage`) and on the whole machine
 * (`/proc/stat`, Linux), so a benchmark can say what one operation costs on each side of a connection (this
 * process, and the rest of the machine: a database server on the same host) and whether the machine's cores
 * were already full. Elsewhere than Linux the machine's side reads as unknown (`NaN`).
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** The machine's CPU ticks since boot, all cores together: busy ones and all of them. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const first = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] as string;
    // user nice system idle iowait irq softirq steal: guest time is already counted in user and nice.
    const ticks = first.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((sum, value) => sum + value, 0);
    const idle = (ticks[3] as number) + (ticks[4] as number);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** CPU spent over a stretch of work. */
export interface CpuSpent {
  /** Wall-clock milliseconds the work took. */
  readonly wallMs: number;
  /** CPU milliseconds of this process (all its threads). */
  readonly processMs: number;
  /** Share of all the machine's cores that was busy, 0 to 1. */
  readonly machineBusy: number;
  /** CPU milliseconds of everything else on the machine (busy share × cores × wall time, less this process's). */
  readonly othersMs: number;
}

/** Runs `work` and tells the CPU it took, here and on the rest of the machine. */
export async function cpuSpent<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
  const machineBefore = machineTicks();
  const processBefore = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(processBefore);
  const machineAfter = machineTicks();
  const processMs = (used.user + used.system) / 1000;
  const machineBusy =
    machineBefore && machineAfter
      ? (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total)
      : Number.NaN;
  const othersMs = machineBusy * availableParallelism() * wallMs - processMs;
  return { result, cpu: { wallMs, processMs, machineBusy, othersMs } };
}
