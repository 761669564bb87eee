/**
 * Committed transactions per second: MemoryStore against FileStore with and without group commit, at
 * several numbers of concurrent committers. Each transaction writes one ~200-byte record with one unique
 * index key, and a FileStore transaction counts only once its journal write is fsync'd.
 *
 * Run: npx tsx bench/store.bench.ts [seconds per case, default 2]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "../src/storage/file/index.js";
import { MemoryStore } from "../src/storage/memory.js";
import type { Store } from "../src/storage/store.js";

const seconds = Number(process.argv[2] ?? 2);
const COMMITTERS = [1, 8, 32];
const payload = "x".repeat(160);

async function committedPerSecond(store: Store, committers: number, durationMs: number): Promise<number> {
  let next = 0;
  let committed = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const committer = async () => {
    while (performance.now() < deadline) {
      const id = `rec-${String(next++).padStart(9, "0")}`;
      await store.transaction(async (tx) =>
        tx.put("records", { id, payload }, { scope: "bench", keys: { recordByKey: `key:${id}` } }),
      );
      committed++;
    }
  };
  await Promise.all(Array.from({ length: committers }, committer));
  return committed / ((performance.now() - start) / 1000);
}

interface Case {
  name: string;
  open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>;
}

async function fileStore(groupCommit: boolean) {
  const directory = await mkdtemp(join(tmpdir(), "custodian-bench-"));
  const store = await FileStore.open(directory, { groupCommit });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const cases: Case[] = [
  { name: "MemoryStore", open: async () => ({ store: new MemoryStore(), cleanup: async () => undefined }) },
  { name: "FileStore, group commit", open: () => fileStore(true) },
  { name: "FileStore, fsync per commit", open: () => fileStore(false) },
];

const results = new Map<string, number>();
console.log(
  `committed transactions per second (${seconds} s per case, node ${process.version}, ${process.platform})\n`,
);
console.log(`${"store".padEnd(30)}${"committers".padStart(12)}${"tx/s".padStart(12)}${"vs memory".padStart(12)}`);
for (const committers of COMMITTERS) {
  for (const { name, open } of cases) {
    const { store, cleanup } = await open();
    await committedPerSecond(store, committers, 200); // warm-up: JIT and file creation
    const rate = await committedPerSecond(store, committers, seconds * 1000);
    await cleanup();
    results.set(`${name}/${committers}`, rate);
    const memory = results.get(`MemoryStore/${committers}`) as number;
    const ratio = name === "MemoryStore" ? "1" : `1/${Math.round(memory / rate)}`;
    console.log(
      `${name.padEnd(30)}${String(committers).padStart(12)}${Math.round(rate).toString().padStart(12)}${ratio.padStart(12)}`,
    );
  }
}
console.log("\ngroup commit speed-up over an fsync per commit:");
for (const committers of COMMITTERS) {
  const grouped = results.get(`FileStore, group commit/${committers}`) as number;
  const single = results.get(`FileStore, fsync per commit/${committers}`) as number;
  console.log(`  ${String(committers).padStart(2)} committers: ${(grouped / single).toFixed(1)}x`);
}
