/**
 * CPU per activity on PostgresStore, on each side: the engine's process (`process.cpuUsage`) and the PostgreSQL
 * backends serving the store's pool (utime + stime from `/proc/<pid>/stat`, so the server must run on this
 * machine), with the round trips, statements and bytes of query text each activity sends. Time spent waiting does
 * not enter either figure, so the numbers hold on a loaded machine better than rates do. The activity is the one
 * `postgres.bench.ts` times: a `create_private_key_tag`, submitted in process.
 *
 * Run after `npm run build`: `npx tsx bench/postgres-cpu.ts [submitters] [organizations] [activities]` (defaults
 * 1, 1, 2000). `BENCH_LOG=1` prints the queries of one activity; run under `node --cpu-prof --import tsx` for a
 * profile of the engine's side. Needs `CUSTODIAN_PG_URL` (else the local default).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { CustodyEngine } from "../dist/index.js";
import { PostgresStore } from "../dist/postgres.js";
import { countingPool } from "./counting-pool.js";
import { apiKeyPair } from "./support.js";

const url = process.env.CUSTODIAN_PG_URL || "postgres://postgres@127.0.0.1:5432/test";
const [submitters = 1, organizations = 1, activities = 2000] = process.argv.slice(2).map(Number);
const application = `custodian_cpu_${process.pid}`;
const schema = `cpu_${randomBytes(6).toString("hex")}`;

let logging = false;
const { pool, counts } = countingPool({
  connectionString: url,
  applicationName: application,
  max: 10,
  onQuery: (text, values) => {
    if (logging) console.log(`-- query (${Buffer.byteLength(text)} B)\n${text}\n   values: ${JSON.stringify(values)}`);
  },
});

const admin = new pg.Client({ connectionString: url });
await admin.connect();

/** Clock ticks of CPU (user + system) used so far by the backends serving the store's pool. */
async function backendTicks(): Promise<number> {
  const { rows } = await admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [application]);
  let ticks = 0;
  for (const { pid } of rows as { pid: number }[]) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

const store = await PostgresStore.open(pool, { schema, endPoolOnClose: true });
const engine = new CustodyEngine({ store, keyEncryptionKey: new Uint8Array(32).fill(7) });
await engine.open();
const views: { organizationId: string; root: CustodyEngine }[] = [];
for (let n = 0; n < organizations; n++) {
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: `cpu ${n}`,
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: apiKeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  views.push({ organizationId, root: engine.as({ userId: rootUserIds[0] as string }) });
}
let next = 0;
const activity = () => {
  const n = next++;
  const { organizationId, root } = views[n % views.length] as (typeof views)[number];
  return root.createPrivateKeyTag({ organizationId, parameters: { privateKeyTagName: `tag-${n}`, privateKeyIds: [] } });
};
async function run(total: number): Promise<void> {
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      await activity();
    }
  };
  await Promise.all(Array.from({ length: submitters }, lane));
}

await run(Math.max(200, activities / 4));
if (process.env.BENCH_LOG) {
  logging = true;
  await activity();
  logging = false;
}
Object.assign(counts, { roundTrips: 0, statements: 0, bytes: 0 });
const ticksBefore = await backendTicks();
const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
await run(activities);
const elapsed = performance.now() - startedAt;
const cpu = process.cpuUsage(cpuBefore);
const ticks = (await backendTicks()) - ticksBefore;
const perActivity = (x: number) => (x / activities).toFixed(3);
console.log(
  JSON.stringify({
    submitters,
    organizations,
    activities,
    perSecond: Math.round(activities / (elapsed / 1000)),
    nodeCpuMs: perActivity((cpu.user + cpu.system) / 1000),
    nodeUserMs: perActivity(cpu.user / 1000),
    backendCpuMs: perActivity((ticks * 1000) / 100),
    roundTrips: perActivity(counts.roundTrips),
    statements: perActivity(counts.statements),
    queryBytes: perActivity(counts.bytes),
  }),
);
await engine.close();
await store.close();
await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
await admin.end();
