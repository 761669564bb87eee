/**
 * Committed activities per second on each store: MemoryStore, FileStore with group commit, and FileStore
 * fsyncing every commit alone. Each activity is a `create_private_key_tag` (one tag and one activity
 * record in one transaction), submitted by `CONCURRENCY` callers at once. The ratio is to MemoryStore,
 * the same engine work without durability.
 * Run: `npx tsx bench/durability.bench.ts`. `BENCH_MS` sets the time per store (default 3000 ms).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { CustodyEngine, MemoryStore, type Store } from "../src/index.js";
import { FileStore } from "../src/storage/file/index.js";

const BUDGET_MS = Number(process.env.BENCH_MS ?? 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);

async function activitiesPerSecond(store: Store): Promise<number> {
  // Throw-away directories: a key generated for this process is enough.
  const engine = new CustodyEngine({ store, ephemeralKeyEncryptionKey: true });
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "bench",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [
          {
            apiKeyName: "k",
            publicKey: bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true)),
            curveType: "API_KEY_CURVE_P256",
          },
        ],
      },
    ],
  });
  const root = engine.as({ userId: rootUserIds[0] as string });
  let next = 0;
  let done = 0;
  const deadline = performance.now() + BUDGET_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await root.createPrivateKeyTag({
          organizationId,
          parameters: { privateKeyTagName: `tag-${next++}`, privateKeyIds: [] },
        });
        done++;
      }
    }),
  );
  const rate = (done * 1000) / (performance.now() - start);
  await store.close();
  return rate;
}

const directories: string[] = [];
const fileStore = async (groupCommit: boolean) => {
  const directory = mkdtempSync(join(tmpdir(), "custodian-bench-"));
  directories.push(directory);
  return FileStore.open(directory, { groupCommit });
};

const memory = await activitiesPerSecond(new MemoryStore());
const grouped = await activitiesPerSecond(await fileStore(true));
const single = await activitiesPerSecond(await fileStore(false));
for (const directory of directories) rmSync(directory, { recursive: true, force: true });

console.table([
  { store: "MemoryStore", "activities/s": memory.toFixed(0), "vs memory": "1.00" },
  { store: "FileStore, group commit", "activities/s": grouped.toFixed(0), "vs memory": (grouped / memory).toFixed(2) },
  {
    store: "FileStore, fsync per commit",
    "activities/s": single.toFixed(0),
    "vs memory": (single / memory).toFixed(2),
  },
]);
console.log(
  `${CONCURRENCY} concurrent submitters; group commit / fsync per commit = ${(grouped / single).toFixed(2)}x`,
);
