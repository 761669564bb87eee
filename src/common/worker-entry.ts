/**
 * Where a `worker_threads` entry of this package is, from the module that starts it (the signer pool, the
 * FileStore's compactor). Built, it is `<name>.js` (or `.cjs`) next to the starting module's chunk: tsup emits
 * both into `dist/`. From source (tests, benchmarks) it is the `.ts` file next to the starting module, loaded
 * through tsx, which a worker cannot take from `--import` on Node 20 (its entry loads before the hooks are
 * registered), so a small evaluated bootstrap imports it through tsx's API instead.
 *
 * @module
 */
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { WorkerOptions } from "node:worker_threads";

/**
 * `callerUrl` is the starting module's `import.meta.url`; `builtName` the entry's name in `tsup.config.ts`;
 * `sourceFile` the entry's source file, in the caller's directory.
 */
export function workerEntry(
  callerUrl: string,
  builtName: string,
  sourceFile: string,
): { filename: string | URL; options: WorkerOptions } {
  const here = fileURLToPath(callerUrl);
  const extension = extname(here);
  if (extension !== ".ts") return { filename: join(dirname(here), `${builtName}${extension}`), options: {} };
  const entry = pathToFileURL(join(dirname(here), sourceFile)).href;
  // tsx's ESM API (its CommonJS one cannot register hooks from a worker), found from its package.json.
  const tsxPackage = createRequire(here).resolve("tsx/package.json");
  const tsx = pathToFileURL(join(dirname(tsxPackage), "dist/esm/api/index.mjs")).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return { filename: bootstrap, options: { eval: true } };
}
