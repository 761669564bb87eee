/**
 * Committed activities per second on PostgresStore, next to MemoryStore and FileStore in the same run: 1 and
 * 32 submitters, on one instance and on two. "Two instances" are two engines in this one process, each with
 * its own PostgresStore (its own connection pool) on one schema, the submitters alternating between them: the
 * database sees two independent clients, but they share this process's CPU. Each activity is a
 * `create_private_key_tag` (a tag, an activity and an evaluation record in one SERIALIZABLE transaction).
 *
 * Needs a PostgreSQL server: `CUSTODIAN_PG_URL`, else `postgres://postgres@127.0.0.1:5432/test`; without one it
 * prints why and measures nothing. Each run uses a schema of its own, dropped at the end.
 *
 * Run: `npx tsx bench/postgres.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { FileStore } from "../dist/file.js";
import { CustodyEngine, MemoryStore, type Store } from "../dist/index.js";
import { PostgresStore } from "../dist/postgres.js";
import { BenchReport, type Workload } from "./harness.js";
import { apiKeyPair } from "./support.js";

const url = process.env.CUSTODIAN_PG_URL || "postgres://postgres@127.0.0.1:5432/test";
const keyEncryptionKey = new Uint8Array(32).fill(7);

async function reachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await reachable();
if (unreachable !== undefined) {
  console.log(`postgres.bench: skipped, no PostgreSQL server at ${url} (${unreachable})`);
  process.exit(0);
}

const report = new BenchReport("postgres");
const opened: Store[] = [];
const engines: CustodyEngine[] = [];
const directories: string[] = [];
const schemas: string[] = [];

/** Tags committed through `stores` (one engine each, on one organization), submitters taking turns between them. */
async function tagWorkload(stores: Store[], label: string, inFlight: number): Promise<Workload> {
  const opened = [];
  for (const store of stores) {
    const engine = new CustodyEngine({ store, keyEncryptionKey });
    engines.push(engine);
    // One at a time: the first seals the engine's keys into the store, the others find them.
    await engine.open();
    opened.push(engine);
  }
  const [first] = opened as [CustodyEngine];
  const { organizationId, rootUserIds } = await first.createOrganization({
    organizationName: "bench",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: apiKeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  const roots = opened.map((engine) => engine.as({ userId: rootUserIds[0] as string }));
  let next = 0;
  return {
    label,
    inFlight,
    run: () => {
      const n = next++;
      return (roots[n % roots.length] as (typeof roots)[number]).createPrivateKeyTag({
        organizationId,
        parameters: { privateKeyTagName: `tag-${n}`, privateKeyIds: [] },
      });
    },
  };
}

/** `count` PostgresStores on one fresh schema (their own pools): one instance each. */
async function postgres(count: number): Promise<Store[]> {
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  schemas.push(schema);
  const stores: Store[] = [];
  for (let i = 0; i < count; i++) stores.push(await PostgresStore.open(url, { schema }));
  opened.push(...stores);
  return stores;
}

async function fileStore(): Promise<Store> {
  const directory = mkdtempSync(join(tmpdir(), "custodian-bench-"));
  directories.push(directory);
  const store = await FileStore.open(directory);
  opened.push(store);
  return store;
}

try {
  for (const submitters of [1, 32]) {
    const plural = submitters === 1 ? "submitter" : "submitters";
    await report.compare(
      `PostgresStore vs MemoryStore, ${submitters} ${plural}`,
      await tagWorkload(await postgres(1), "PostgresStore", submitters),
      await tagWorkload([new MemoryStore()], "MemoryStore", submitters),
    );
    await report.compare(
      `PostgresStore vs FileStore, ${submitters} ${plural}`,
      await tagWorkload(await postgres(1), "PostgresStore", submitters),
      await tagWorkload([await fileStore()], "FileStore", submitters),
    );
    await report.compare(
      `PostgresStore, two instances vs one (in one process), ${submitters} ${plural}`,
      await tagWorkload(await postgres(2), "two instances", submitters),
      await tagWorkload(await postgres(1), "one instance", submitters),
    );
  }
  await report.compare(
    "PostgresStore, 32 submitters vs 1",
    await tagWorkload(await postgres(1), "32 submitters", 32),
    await tagWorkload(await postgres(1), "1 submitter", 1),
  );
} finally {
  for (const engine of engines) await engine.close();
  for (const store of opened) await store.close();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
report.finish();
