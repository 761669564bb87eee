import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: ESM first, with a CJS build and declarations for both.
    entry: {
      index: "src/index.ts",
      http: "src/http.ts",
      policy: "src/policy/index.ts",
      file: "src/storage/file/index.ts",
      postgres: "src/storage/postgres/index.ts",
      testing: "src/testing/index.ts",
      // The signer pool's thread (engine option `signerThreads`): the pool starts `signer-worker.js` or
      // `.cjs` from the directory of its own chunk, which is this one.
      "signer-worker": "src/keys/signer-pool/worker.ts",
      // FileStore's compaction thread: `file.js` starts `file-compactor.js` (or `.cjs`) from its own directory.
      "file-compactor": "src/storage/file/compaction-worker.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    // No source maps: they would triple the published tarball, and the sources are not shipped with it.
    sourcemap: false,
    clean: true,
    target: "node20",
    splitting: true,
    // The pool finds its worker from `import.meta.url`, which the CommonJS build gets from this shim.
    shims: true,
    // Bundled rather than installed, so they are devDependencies:
    // - cborg ships ESM only, which a CommonJS require cannot load;
    // - the @solana/* codecs depend on @solana/errors, whose error-decoding command pulls a CLI framework that
    //   refuses Node 20 at install; the library code the codecs use needs none of it, and tree-shaking leaves
    //   it out.
    noExternal: ["cborg", /^@solana\//],
    // The frames bundle their browser scripts with esbuild only when run from source; the build ships them.
    external: ["esbuild"],
  },
  {
    // The export, import and auth frames' browser scripts: `custodian/http`'s frames handler serves
    // `frame-scripts/<kind>.js` from next to its own chunk (src/frames/kinds.ts lists the same entries).
    entry: {
      "frame-scripts/export": "src/frames/browser/export-frame.ts",
      "frame-scripts/import": "src/frames/browser/import-frame.ts",
      "frame-scripts/auth": "src/frames/browser/auth-frame.ts",
    },
    format: ["iife"],
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: false,
    outExtension: () => ({ js: ".js" }),
  },
  {
    // The command-line tool: ESM only, keeps its shebang.
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    sourcemap: false,
    target: "node20",
  },
]);
