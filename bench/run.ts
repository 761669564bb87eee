/**
 * Runs every benchmark in this folder, one after the other, each in its own process, then prints every row of
 * `bench/results/latest.json` in one table. `--expose-gc` is passed so the heap figures can collect first.
 *
 * The benchmarks measure the built package (`dist/`, what `npm install custodian` gives), not the sources
 * run through tsx: tsx's on-the-fly transform made the policy path a third slower than the build, which
 * measured the loader rather than the engine. `npm run bench` builds first. (`sign.bench.ts` still times the
 * signing primitives from the sources: they are not part of the package's API.)
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { BenchRow } from "./harness.js";

const here = new URL(".", import.meta.url);
const only = process.argv.slice(2);
for (const file of readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => only.length === 0 || only.some((part) => name.includes(part)))
  .sort()) {
  console.log(`\n== ${file}`);
  execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", new URL(file, here).pathname], {
    stdio: "inherit",
  });
}

const results = JSON.parse(readFileSync(new URL("./results/latest.json", here), "utf8")) as {
  scripts: Record<string, { rows: BenchRow[] }>;
};
console.log("\n== every ratio (bench/results/latest.json)");
console.table(
  Object.values(results.scripts).flatMap(({ rows }) =>
    rows.map((row) => ({
      scenario: row.scenario,
      subject: `${row.subject} vs ${row.reference}`,
      ratio: row.ratio.toFixed(2),
      target: row.target ? `${row.target.op} ${row.target.value}` : "report",
      holds: row.holds === undefined ? "" : row.holds ? "yes" : "NO",
    })),
  ),
);
