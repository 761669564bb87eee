import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// In an app, `custodian` comes from node_modules; here the names resolve to this repository's sources.
const source = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^custodian\/testing$/, replacement: source("testing/index.ts") },
      { find: /^custodian\/http$/, replacement: source("http.ts") },
      { find: /^custodian$/, replacement: source("index.ts") },
    ],
  },
  test: { root: fileURLToPath(new URL(".", import.meta.url)), include: ["*.test.ts"], testTimeout: 30_000 },
});
