/**
 * FileStore reopen: the time to open a store holding `BENCH_ACTIVITIES` activities (default 100,000, written
 * through the engine) against the least any reader must do: read the same files and `JSON.parse` every frame.
 * Target: at most 3× that time.
 *
 * Run: `npx tsx bench/reopen.bench.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "../dist/file.js";
import { CustodyEngine } from "../dist/index.js";
import { BenchReport } from "./harness.js";
import { apiKeyPair } from "./support.js";

const ACTIVITIES = Number(process.env.BENCH_ACTIVITIES ?? 100_000);
const SAMPLES = 3;
// Every store file starts with a 16-byte header; each frame is a 12-byte header (marker, length, checksum) and
// its JSON payload (see src/storage/file/format.ts).
const FILE_HEADER = 16;
const FRAME_HEADER = 12;

const report = new BenchReport("reopen");
const directory = mkdtempSync(join(tmpdir(), "custodian-bench-reopen-"));
const keyEncryptionKey = new Uint8Array(32).fill(9);

const written = await FileStore.open(directory);
const engine = new CustodyEngine({ store: written, keyEncryptionKey });
const { organizationId, rootUserIds } = await engine.createOrganization({
  organizationName: "bench",
  rootUsers: [
    {
      userName: "root",
      apiKeys: [{ apiKeyName: "k", publicKey: apiKeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
    },
  ],
});
const root = engine.as({ userId: rootUserIds[0] as string });
let next = 0;
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (next < ACTIVITIES) {
      const n = next++;
      await root.createPrivateKeyTag({ organizationId, parameters: { privateKeyTagName: `t${n}`, privateKeyIds: [] } });
    }
  }),
);
await engine.close();
await written.close();

function readAndParse(): number {
  const start = performance.now();
  for (const name of readdirSync(directory)) {
    if (name === "LOCK" || name.endsWith(".tmp")) continue;
    const bytes = readFileSync(join(directory, name));
    for (let at = FILE_HEADER; at + FRAME_HEADER <= bytes.length; ) {
      const length = bytes.readUInt32LE(at + 4);
      JSON.parse(bytes.toString("utf8", at + FRAME_HEADER, at + FRAME_HEADER + length));
      at += FRAME_HEADER + length;
    }
  }
  return performance.now() - start;
}

async function reopen(): Promise<number> {
  const start = performance.now();
  const store = await FileStore.open(directory);
  const elapsed = performance.now() - start;
  await store.close();
  return elapsed;
}

const opens: number[] = [];
const reads: number[] = [];
for (let sample = 0; sample < SAMPLES; sample++) {
  reads.push(readAndParse());
  opens.push(await reopen());
}
report.measured(
  `FileStore reopen of ${ACTIVITIES} activities`,
  { label: "FileStore.open", samples: opens },
  { label: "read files + JSON.parse every frame", samples: reads },
  "ms",
  { op: "<=", value: 3 },
);
rmSync(directory, { recursive: true, force: true });
report.finish();
