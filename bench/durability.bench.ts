/**
 * Committed activities per second on FileStore with group commit: 32 concurrent submitters against one at a
 * time (group commit should let many commits share an fsync), and FileStore against MemoryStore at 32
 * submitters (the price of durability). Each activity is a `create_private_key_tag`: one tag and one activity
 * record in one transaction, acknowledged only once fsync'd.
 *
 * Run: `npx tsx bench/durability.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "../dist/file.js";
import { CustodyEngine, MemoryStore, type Store } from "../dist/index.js";
import { BenchReport, type Workload } from "./harness.js";
import { benchOrganization } from "./support.js";

const report = new BenchReport("durability");
const directories: string[] = [];
const keyEncryptionKey = new Uint8Array(32).fill(7);

async function tagWorkload(store: Store, label: string, inFlight: number): Promise<Workload> {
  const engine = new CustodyEngine({ store, keyEncryptionKey });
  const { organizationId, root } = await benchOrganization(engine);
  let next = 0;
  return {
    label,
    inFlight,
    run: () =>
      root.createPrivateKeyTag({
        organizationId,
        parameters: { privateKeyTagName: `tag-${next++}`, privateKeyIds: [] },
      }),
  };
}

const opened: Store[] = [];

async function fileStore(): Promise<Store> {
  const directory = mkdtempSync(join(tmpdir(), "custodian-bench-"));
  directories.push(directory);
  const store = await FileStore.open(directory);
  opened.push(store);
  return store;
}
await report.compare(
  "FileStore (group commit), 32 submitters vs 1",
  await tagWorkload(await fileStore(), "32 submitters", 32),
  await tagWorkload(await fileStore(), "1 submitter", 1),
  { op: ">=", value: 5 },
);
await report.compare(
  "FileStore vs MemoryStore, 32 submitters",
  await tagWorkload(await fileStore(), "FileStore", 32),
  await tagWorkload(new MemoryStore(), "MemoryStore", 32),
);
for (const store of opened) await store.close();
for (const directory of directories) rmSync(directory, { recursive: true, force: true });
report.finish();
