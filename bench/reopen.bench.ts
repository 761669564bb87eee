/**
 * FileStore reopen: the CPU time to open a store holding `BENCH_ACTIVITIES` activities (default 100,000, written
 * through the engine) against the least any reader must do: read the same files and `JSON.parse` every frame.
 * Target: at most 3× that time.
 *
 * Both sides are measured in CPU time (`process.cpuUsage`, user + system), not wall time, in interleaved rounds:
 * other processes on a loaded machine then stretch neither side. The count is the whole process's (Node 20 has
 * no per-thread count), so the GC's helper threads and the file reads on libuv's threads count on both sides.
 *
 * `BENCH_REOPEN_KEEP=1` keeps the written store in `$TMPDIR/custodian-bench-reopen-<activities>` and reuses it
 * on the next run with the same count: writing 500,000 activities takes far longer than measuring their reopen.
 *
 * Run: `npx tsx bench/reopen.bench.ts` (`BENCH_ACTIVITIES=500000` for the larger store).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "../dist/file.js";
import { CustodyEngine } from "../dist/index.js";
import { BenchReport } from "./harness.js";
import { benchOrganization } from "./support.js";

const ACTIVITIES = Number(process.env.BENCH_ACTIVITIES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_ROUNDS ?? 3);
const KEEP = process.env.BENCH_REOPEN_KEEP === "1";
// Every store file starts with a 16-byte header; each frame is a 12-byte header (marker, length, checksum) and
// its JSON payload (see src/storage/file/format.ts).
const FILE_HEADER = 16;
const FRAME_HEADER = 12;

const report = new BenchReport("reopen");
const kept = join(tmpdir(), `custodian-bench-reopen-${ACTIVITIES}`);
const directory = KEEP ? kept : mkdtempSync(join(tmpdir(), "custodian-bench-reopen-"));
const done = `${kept}.done`;
if (!(KEEP && existsSync(done))) await writeStore();

/** Milliseconds of CPU time (user + system, whole process) that `work` takes. */
async function cpuMs(work: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

async function writeStore(): Promise<void> {
  rmSync(done, { force: true });
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const keyEncryptionKey = new Uint8Array(32).fill(9);
  const written = await FileStore.open(directory);
  const engine = new CustodyEngine({ store: written, keyEncryptionKey });
  const { organizationId, root } = await benchOrganization(engine);
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < ACTIVITIES) {
        const n = next++;
        await root.createPrivateKeyTag({
          organizationId,
          parameters: { privateKeyTagName: `t${n}`, privateKeyIds: [] },
        });
      }
    }),
  );
  await engine.close();
  await written.close();
  // Beside the store, not in it: a kept store is reused only once it was written completely.
  if (KEEP) writeFileSync(done, "");
}

function readAndParse(): void {
  for (const name of readdirSync(directory)) {
    if (name === "LOCK" || name.endsWith(".tmp")) continue;
    const bytes = readFileSync(join(directory, name));
    for (let at = FILE_HEADER; at + FRAME_HEADER <= bytes.length; ) {
      const length = bytes.readUInt32LE(at + 4);
      JSON.parse(bytes.toString("utf8", at + FRAME_HEADER, at + FRAME_HEADER + length));
      at += FRAME_HEADER + length;
    }
  }
}

async function reopen(): Promise<number> {
  let store: FileStore | undefined;
  const elapsed = await cpuMs(async () => {
    store = await FileStore.open(directory);
  });
  await store?.close();
  return elapsed;
}

const opens: number[] = [];
const reads: number[] = [];
for (let sample = 0; sample < SAMPLES; sample++) {
  reads.push(await cpuMs(readAndParse));
  opens.push(await reopen());
}
report.measured(
  `FileStore reopen of ${ACTIVITIES} activities`,
  { label: "FileStore.open", samples: opens },
  { label: "read files + JSON.parse every frame", samples: reads },
  "ms",
  // Twice the reference at 100,000 activities, three times at 500,000: a larger store pays more for its maps and
  // indexes than for parsing.
  { op: "<=", value: ACTIVITIES <= 100_000 ? 2 : 3 },
);
if (!KEEP) rmSync(directory, { recursive: true, force: true });
report.finish();
