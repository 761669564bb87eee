import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: ESM first, with a CJS build and declarations for both.
    entry: {
      index: "src/index.ts",
      http: "src/http/index.ts",
      policy: "src/policy/index.ts",
      file: "src/storage/file/index.ts",
      postgres: "src/storage/postgres/index.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    splitting: true,
  },
  {
    // The command-line tool: ESM only, keeps its shebang.
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
  },
]);
