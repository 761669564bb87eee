/**
 * Prints the rows of one or more results files (`bench/results/latest.json` by default) as the Markdown table
 * `docs/performance.md` keeps: one line per row, the subject and reference medians of the first file, and every
 * file's ratio side by side, so two full runs read as one table with their spread.
 *
 * Run: `node --import tsx bench/table.ts [results.json ...]`.
 */
import { readFileSync } from "node:fs";
import type { BenchRow } from "./harness.js";

interface Results {
  readonly node: string;
  readonly platform: string;
  readonly scripts: Record<string, { readonly at: string; readonly rows: readonly BenchRow[] }>;
}

const files = process.argv.slice(2);
const runs: Results[] = (files.length > 0 ? files : [new URL("./results/latest.json", import.meta.url).pathname]).map(
  (file) => JSON.parse(readFileSync(file, "utf8")) as Results,
);
const first = runs[0] as Results;

/** Rounds to three significant digits, whole numbers from 100 up, with thousands separated. */
function figure(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  return value.toPrecision(3);
}

const cell = (text: string) => text.replaceAll("|", "\\|");
const key = (row: BenchRow) => `${row.scenario}\u0000${row.subject}\u0000${row.reference}`;

console.log(`| scenario | subject | reference | ratio${runs.length > 1 ? " (each run)" : ""} | target | holds |`);
console.log("|---|---|---|---|---|---|");
for (const [script, { rows }] of Object.entries(first.scripts)) {
  for (const row of rows) {
    const matching = runs.map((run) => run.scripts[script]?.rows.find((other) => key(other) === key(row)));
    const ratios = matching.map((other) => (other ? other.ratio.toFixed(2) : "–")).join(" / ");
    const judged = matching.filter((other): other is BenchRow => other?.holds !== undefined);
    const verdict =
      row.target === undefined
        ? ""
        : judged.every((other) => other.holds)
          ? "yes"
          : judged.some((other) => other.holds)
            ? "once"
            : "no";
    const target = row.target ? `${row.target.op} ${row.target.value}` : "report";
    console.log(
      `| ${cell(row.scenario)} | ${cell(row.subject)}: ${figure(row.subjectMedian)} ${row.unit} | ${cell(row.reference)}: ${figure(row.referenceMedian)} | ${ratios} | ${target} | ${verdict} |`,
    );
  }
}
