/**
 * Runs every benchmark in this folder, one after the other, each in its own process.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";

const here = new URL(".", import.meta.url);
for (const file of readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort()) {
  console.log(`\n== ${file}`);
  execFileSync(process.execPath, ["--import", "tsx", new URL(file, here).pathname], { stdio: "inherit" });
}
