/**
 * Threads' nice values as Linux reports them (`/proc/<pid>/task/<tid>/stat`), for the tests of the signer
 * threads' priority.
 */
import { readdirSync, readFileSync } from "node:fs";

/** A thread's nice value from its `stat` text: field 19, counting the fields after the command's ")". */
export const niceOf = (stat: string): number => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);

/** The nice value of each thread of process `pid` (this one by default). */
export function threadNiceValues(pid: number | "self" = "self"): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      return [niceOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"))];
    } catch {
      return []; // a thread that ended while listed
    }
  });
}
