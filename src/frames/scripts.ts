/**
 * The frames' browser scripts. A built package ships them prebuilt (`dist/frame-scripts/<kind>.js`, next to
 * this module's chunk, from the browser entries of `tsup.config.ts`). Run from source (the dev server under tsx,
 * tests), they are bundled from `browser/` with esbuild on first use, which tsup brings along.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FRAME_SOURCES, type FrameKind } from "./kinds.js";

const cache = new Map<FrameKind, Promise<string>>();

async function bundleFromSource(directory: string, kind: FrameKind): Promise<string> {
  // Not a dependency of the package: only a source checkout gets here, and it has tsup's esbuild.
  const esbuild = await import("esbuild");
  const built = await esbuild.build({
    entryPoints: [join(directory, FRAME_SOURCES[kind])],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return (built.outputFiles[0] as { text: string }).text;
}

async function load(kind: FrameKind): Promise<string> {
  const here = fileURLToPath(import.meta.url);
  const directory = dirname(here);
  if (extname(here) === ".ts") return bundleFromSource(directory, kind);
  return readFile(join(directory, "frame-scripts", `${kind}.js`), "utf8");
}

/** The script of `kind`, loaded or bundled once per process. */
export function frameScript(kind: FrameKind): Promise<string> {
  let script = cache.get(kind);
  if (script === undefined) {
    script = load(kind);
    // A failed build is not kept, so the next request tries again.
    script.catch(() => cache.delete(kind));
    cache.set(kind, script);
  }
  return script;
}
