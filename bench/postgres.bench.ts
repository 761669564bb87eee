/**
 * Committed activities per second on PostgresStore, beside the reference the targets name, measured on
 * the same server in the same run: raw one-row INSERT transactions per second (autocommit, one round trip each)
 * from 1 and from 32 clients. Each activity is a `create_private_key_tag` (a tag, an activity and an evaluation
 * record in one SERIALIZABLE transaction), submitted in process through `engine.as(...)`.
 *
 * Rows: 1 submitter against raw INSERTs from 1 client; 32 submitters spread over 8 organizations against raw
 * INSERTs from 32 clients; 32 submitters over 8 organizations against 32 on one (what partitions add); two
 * processes on one schema against one (each process an instance with its own pool and 32 submitters over the
 * same 8 organizations, `postgres-instance.ts`); MemoryStore beside PostgresStore for scale; and the statements
 * and round trips one activity costs (counted through the store's pool). What bounds the rates is told beside
 * them: CPU per activity in the engine's process and on the rest of the machine (the server's backends) next to
 * the same for one raw INSERT, and how busy the machine's cores were with one instance process and with two.
 *
 * Needs a PostgreSQL server: `CUSTODIAN_PG_URL`, else `postgres://postgres@127.0.0.1:5432/test`; without one it
 * prints why and measures nothing. Each run uses schemas of its own, dropped at the end.
 *
 * Run: `npx tsx bench/postgres.bench.ts` after `npm run build` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { CustodyEngine, MemoryStore, type Store } from "../dist/index.js";
import { PostgresStore, type SqlPool } from "../dist/postgres.js";
import { countingPool } from "./counting-pool.js";
import { cpuSpent } from "./cpu-meter.js";
import { BenchReport, opsPerSecond, ROUND_MS, ROUNDS, type Workload } from "./harness.js";
import { apiKeyPair } from "./support.js";

/** How long the first PostgresStore workload runs before it is measured (see its row). */
const WARM_UP_MS = 3_000;
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
const pools: pg.Pool[] = [];
const schemas: string[] = [];
const instances: ChildProcess[] = [];

function freshSchema(): string {
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  schemas.push(schema);
  return schema;
}

/** Raw one-row INSERT transactions from `clients` clients: the reference the targets name. */
async function rawInserts(clients: number): Promise<Workload> {
  const schema = freshSchema();
  const pool = new pg.Pool({ connectionString: url, max: clients });
  pools.push(pool);
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(`CREATE TABLE "${schema}".rows (id bigserial PRIMARY KEY, body text NOT NULL)`);
  const insert = `INSERT INTO "${schema}".rows (body) VALUES ($1)`;
  const body = JSON.stringify({ id: "x".repeat(36), value: "y".repeat(200) });
  return {
    label: `raw INSERT, ${clients} ${clients === 1 ? "client" : "clients"}`,
    inFlight: clients,
    run: () => pool.query(insert, [body]),
  };
}

/** `count` top-level organizations with a root user each, created through `engine`. */
async function organizationsOn(
  engine: CustodyEngine,
  count: number,
): Promise<{ organizationId: string; userId: string }[]> {
  const organizations = [];
  for (let n = 0; n < count; n++) {
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: `bench ${n}`,
      rootUsers: [
        {
          userName: "root",
          apiKeys: [{ apiKeyName: "k", publicKey: apiKeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
        },
      ],
    });
    organizations.push({ organizationId, userId: rootUserIds[0] as string });
  }
  return organizations;
}

/** Tags committed through one engine on `store`, `inFlight` submitters spread over `organizations` organizations. */
async function tagWorkload(store: Store, label: string, inFlight: number, organizations: number): Promise<Workload> {
  const engine = new CustodyEngine({ store, keyEncryptionKey });
  engines.push(engine);
  await engine.open();
  const views = (await organizationsOn(engine, organizations)).map(({ organizationId, userId }) => ({
    organizationId,
    root: engine.as({ userId }),
  }));
  let next = 0;
  return {
    label,
    inFlight,
    run: () => {
      const n = next++;
      const { organizationId, root } = views[n % views.length] as (typeof views)[number];
      return root.createPrivateKeyTag({
        organizationId,
        parameters: { privateKeyTagName: `tag-${n}`, privateKeyIds: [] },
      });
    },
  };
}

async function postgres(pool?: SqlPool): Promise<Store> {
  const store = await PostgresStore.open(pool ?? url, { schema: freshSchema(), endPoolOnClose: true });
  opened.push(store);
  return store;
}

/** Statements and round trips per activity, counted over `activities` activities after a warm-up. */
async function costPerActivity(activities: number): Promise<{ roundTrips: number; statements: number }> {
  const { pool, counts } = countingPool({ connectionString: url });
  const workload = await tagWorkload(await postgres(pool), "counted", 1, 1);
  for (let n = 0; n < 5; n++) await workload.run();
  counts.roundTrips = 0;
  counts.statements = 0;
  for (let n = 0; n < activities; n++) await workload.run();
  return { roundTrips: counts.roundTrips / activities, statements: counts.statements / activities };
}

/** CPU per committed operation of `workload` over `ms`: in this process, and on the rest of the machine. */
async function cpuPerOperation(workload: Workload, ms: number) {
  const { result: rate, cpu } = await cpuSpent(() => opsPerSecond(workload, ms));
  const operations = (rate * cpu.wallMs) / 1000;
  return { processMs: cpu.processMs / operations, othersMs: cpu.othersMs / operations, busy: cpu.machineBusy };
}

/**
 * What bounds the 32-submitter row: CPU per activity in the engine's process and on the rest of the machine
 * (the PostgreSQL server's backends), beside the same for one raw INSERT, and how busy the machine's cores were.
 */
async function cpuCost(store: Workload, raw: Workload): Promise<void> {
  const stores: Awaited<ReturnType<typeof cpuPerOperation>>[] = [];
  const raws: Awaited<ReturnType<typeof cpuPerOperation>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    raws.push(await cpuPerOperation(raw, ROUND_MS));
    stores.push(await cpuPerOperation(store, ROUND_MS));
  }
  report.measured(
    "PostgresStore, CPU per activity in the engine's process, 32 submitters over 8 organizations",
    { label: "engine process", samples: stores.map((cost) => cost.processMs) },
    { label: "raw INSERT client process", samples: raws.map((cost) => cost.processMs) },
    "ms",
  );
  report.measured(
    "PostgresStore, CPU per activity on the rest of the machine (the PostgreSQL server), 32 submitters over 8 organizations",
    { label: "PostgreSQL server", samples: stores.map((cost) => cost.othersMs) },
    { label: "for a raw INSERT", samples: raws.map((cost) => cost.othersMs) },
    "ms",
  );
  report.measured(
    "PostgresStore, machine CPU busy, 32 submitters over 8 organizations",
    { label: "busy", samples: stores.map((cost) => cost.busy * 100) },
    { label: "all cores", samples: [100] },
    "%",
  );
}

/** Starts an instance process on `schema` and waits until its engine is open. */
async function instance(schema: string, organizations: { organizationId: string; userId: string }[]) {
  const child = fork(new URL("./postgres-instance.ts", import.meta.url).pathname, [url, schema], {
    execArgv: ["--import", "tsx"],
  });
  instances.push(child);
  child.on("error", (error) => {
    throw error;
  });
  const answer = (message: object) =>
    new Promise<Record<string, unknown>>((resolve) => {
      child.once("message", (reply) => resolve(reply as Record<string, unknown>));
      child.send(message);
    });
  await answer({ organizations, keyEncryptionKey: [...keyEncryptionKey] });
  return {
    /** Activities per second committed by this process with `inFlight` submitters over `ms`. */
    rate: async (ms: number, inFlight: number) => ((await answer({ ms, inFlight })).activities as number) / (ms / 1000),
  };
}

/** Two instance processes on one schema against one, 32 submitters each over the same 8 organizations. */
async function processes(): Promise<void> {
  const store = await postgres();
  const engine = new CustodyEngine({ store, keyEncryptionKey });
  engines.push(engine);
  await engine.open();
  const organizations = await organizationsOn(engine, 8);
  const schema = schemas[schemas.length - 1] as string;
  const [first, second] = await Promise.all([instance(schema, organizations), instance(schema, organizations)]);
  await first.rate(ROUND_MS / 2, 32);
  await Promise.all([first.rate(ROUND_MS / 2, 32), second.rate(ROUND_MS / 2, 32)]);
  const one: number[] = [];
  const two: number[] = [];
  const busyOne: number[] = [];
  const busyTwo: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const single = await cpuSpent(() => first.rate(ROUND_MS, 32));
    one.push(single.result);
    busyOne.push(single.cpu.machineBusy * 100);
    const both = await cpuSpent(() => Promise.all([first.rate(ROUND_MS, 32), second.rate(ROUND_MS, 32)]));
    two.push(both.result[0] + both.result[1]);
    busyTwo.push(both.cpu.machineBusy * 100);
  }
  report.measured(
    "PostgresStore, two processes on one schema vs one, 32 submitters each over 8 organizations",
    { label: "two processes", samples: two },
    { label: "one process", samples: one },
    "ops/s",
    { op: ">=", value: 1.6 },
  );
  // A second process can only add what the first leaves of the machine's cores.
  report.measured(
    "PostgresStore, machine CPU busy: one process vs two, 32 submitters each over 8 organizations",
    { label: "one process", samples: busyOne },
    { label: "two processes", samples: busyTwo },
    "%",
  );
  for (const child of instances) child.send({ stop: true });
}

try {
  const cost = await costPerActivity(50);
  report.measured(
    "PostgresStore, round trips per activity (1 submitter)",
    { label: "round trips", samples: [cost.roundTrips] },
    { label: "one-row INSERT transaction", samples: [1] },
    "round trips",
  );
  report.measured(
    "PostgresStore, statements per activity (1 submitter)",
    { label: "statements", samples: [cost.statements] },
    { label: "one-row INSERT transaction", samples: [1] },
    "statements",
  );
  // This row is the first to run the engine on PostgresStore for more than a few activities: without seconds of
  // it first, V8 has not yet optimized that path and the early rounds time unoptimized code (the same workload
  // measured last in this file ran up to twice as fast). Every later row starts warm.
  const oneSubmitter = await tagWorkload(await postgres(), "PostgresStore, 1 submitter", 1, 1);
  await opsPerSecond(oneSubmitter, WARM_UP_MS);
  await report.compare("PostgresStore, 1 submitter vs raw INSERT, 1 client", oneSubmitter, await rawInserts(1), {
    op: ">=",
    value: 0.25,
  });
  const eightOrganizations = await tagWorkload(
    await postgres(),
    "PostgresStore, 32 submitters, 8 organizations",
    32,
    8,
  );
  const rawFromThirtyTwo = await rawInserts(32);
  await report.compare(
    "PostgresStore, 32 submitters over 8 organizations vs raw INSERT, 32 clients",
    eightOrganizations,
    rawFromThirtyTwo,
    { op: ">=", value: 0.25 },
  );
  await cpuCost(eightOrganizations, rawFromThirtyTwo);
  await report.compare(
    "PostgresStore, 32 submitters: 8 organizations vs 1",
    await tagWorkload(await postgres(), "8 organizations", 32, 8),
    await tagWorkload(await postgres(), "1 organization", 32, 1),
  );
  await processes();
  for (const submitters of [1, 32]) {
    await report.compare(
      `PostgresStore vs MemoryStore, ${submitters} ${submitters === 1 ? "submitter" : "submitters over 8 organizations"}`,
      await tagWorkload(await postgres(), "PostgresStore", submitters, submitters === 1 ? 1 : 8),
      await tagWorkload(new MemoryStore(), "MemoryStore", submitters, submitters === 1 ? 1 : 8),
    );
  }
} finally {
  for (const child of instances) if (child.connected) child.kill();
  for (const engine of engines) await engine.close();
  for (const store of opened) await store.close();
  for (const pool of pools) await pool.end();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
report.finish();
