/**
 * Heap per stored activity in MemoryStore: `BENCH_STORED_ACTIVITIES` (default 1,000,000) `sign_raw_payload`
 * activities, each of a different digest, by a member allowed by one policy among 10, each kept with its policy
 * evaluation. Target: at most 1 KiB of heap per activity (records, indexes and scope lists together).
 *
 * Run: `node --expose-gc --import tsx bench/stored-activities.bench.ts` (`npm run bench` passes the flag).
 */
import { BenchReport } from "./harness.js";
import { signingOrganization } from "./support.js";

const ACTIVITIES = Number(process.env.BENCH_STORED_ACTIVITIES ?? 1_000_000);
const IN_FLIGHT = 32;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc: the heap figure needs a collection before each reading");

const report = new BenchReport("stored-activities");
const { signer, organizationId, ethereumAddress } = await signingOrganization(10);
const sign = (n: number) =>
  signer.signRawPayload({
    organizationId,
    parameters: {
      signWith: ethereumAddress,
      payload: `0x${n.toString(16).padStart(64, "0")}`,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    },
  });
// Warm the code paths first, so that what they compile is not counted as stored data.
for (let n = 0; n < 1_000; n++) await sign(ACTIVITIES + n);

gc();
gc();
const before = process.memoryUsage().heapUsed;
const start = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < ACTIVITIES) await sign(next++);
  }),
);
const seconds = (performance.now() - start) / 1000;
gc();
gc();
const perActivity = (process.memoryUsage().heapUsed - before) / ACTIVITIES;
console.log(`${ACTIVITIES} activities in ${seconds.toFixed(1)} s (${(ACTIVITIES / seconds).toFixed(0)}/s)`);
report.measured(
  `heap per stored activity at ${ACTIVITIES} activities`,
  { label: "bytes per activity", samples: [perActivity] },
  { label: "1 KiB", samples: [1024] },
  "bytes",
  { op: "<=", value: 1 },
);
report.finish();
