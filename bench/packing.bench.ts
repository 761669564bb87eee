/**
 * The CPU cost of packing a record (what MemoryStore and FileStore do, on the write path, to each record that
 * leaves the `warmRecords` window): `pack()` of the records real `sign_raw_payload` activities leave behind (the
 * activity and its policy evaluation), next to `JSON.stringify` of the same records, a serializer whose speed
 * every reader knows. Each round runs the engine for a fresh batch of activities (so packing meets new ids,
 * signatures and request bodies, as it does in a store, not strings it has already interned) and then packs, and
 * stringifies, each record once, timed in process CPU time (less swayed by other processes than the wall clock).
 * Half the activities sign a secp256k1 digest and half an ed25519 message, in turn, so bodies of two kinds meet
 * at the same place of the record.
 *
 * `pack()` is internal, so it is imported from the sources; the engine that makes the records is the build.
 *
 * Run: `npx tsx bench/packing.bench.ts` (`BENCH_ROUNDS` rounds of `BENCH_PACKING_ACTIVITIES`, default 2,000).
 */
import {
  MemoryStore,
  type Store,
  type StoredRecord,
  type StoreReader,
  type StoreTransaction,
  type TransactionOptions,
} from "../dist/index.js";
import { pack } from "../src/storage/packing.js";
import { BenchReport, ROUNDS } from "./harness.js";
import { digestParameters, messageParameters, signingOrganization } from "./support.js";

const ACTIVITIES = Number(process.env.BENCH_PACKING_ACTIVITIES ?? 2_000);

/** A record as a store packs it: with the strings its placement hands back to `unpack` (see `Entry.seeds`). */
interface Written {
  readonly record: StoredRecord;
  readonly seeds: readonly string[];
}

/** A MemoryStore that never packs, noting the last version of each record written while `recording` is set. */
class RecordingStore implements Store {
  private readonly inner = new MemoryStore({ warmRecords: Number.POSITIVE_INFINITY });
  recording: Map<string, Written> | undefined;

  /** `options` are hints, which a MemoryStore has no use for. */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    return this.inner.transaction((tx) => work(this.noting(tx)));
  }
  read<T>(work: (reader: StoreReader) => Promise<T>): Promise<T> {
    return this.inner.read(work);
  }
  claim(collection: string, scope: string, options: Parameters<Store["claim"]>[2]): Promise<StoredRecord[]> {
    return this.inner.claim(collection, scope, options);
  }
  release(collection: string, ids: readonly string[], owner: string): Promise<void> {
    return this.inner.release(collection, ids, owner);
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  private noting(tx: StoreTransaction): StoreTransaction {
    return {
      get: (collection, id) => tx.get(collection, id),
      lookup: (index, key) => tx.lookup(index, key),
      list: (collection, scope, options) => tx.list(collection, scope, options),
      delete: (collection, id) => tx.delete(collection, id),
      put: async (collection, record, placement) => {
        await tx.put(collection, record, placement);
        const seeds = [record.id as string, placement.scope, ...Object.values(placement.keys ?? {})];
        this.recording?.set(`${collection}\u0000${record.id}`, { record, seeds });
      },
    };
  }
}

const store = new RecordingStore();
const { signer, organizationId, ethereumAddress, solanaAddress } = await signingOrganization(10, { store });
let next = 0;

/** The records a batch of activities leaves: half secp256k1 digests, half ed25519 messages, each different. */
async function batch(): Promise<Written[]> {
  store.recording = new Map();
  for (let i = 0; i < ACTIVITIES; i++) {
    const n = next++;
    await signer.signRawPayload({
      organizationId,
      parameters:
        n % 2 === 0
          ? { ...digestParameters(ethereumAddress), payload: `0x${n.toString(16).padStart(64, "0")}` }
          : { ...messageParameters(solanaAddress), payload: `bench message ${n}` },
    });
  }
  const written = [...store.recording.values()];
  store.recording = undefined;
  return written;
}

/** Process CPU time (user and system) of one call of `work` on each record, in µs per record. */
function cpuPerRecord(written: readonly Written[], work: (one: Written) => unknown): number {
  const start = process.cpuUsage();
  for (const one of written) work(one);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / written.length;
}

const packOne = (one: Written) => pack(one.record, one.seeds);
const stringifyOne = (one: Written) => JSON.stringify(one.record);
const packed: number[] = [];
const stringified: number[] = [];
// A first batch to compile both paths and fill packing's shared tables, as a store that has run a while has them.
const first = await batch();
cpuPerRecord(first, packOne);
cpuPerRecord(first, stringifyOne);
for (let round = 0; round < ROUNDS; round++) {
  const written = await batch();
  // Both sides take the same records, each once (packing them twice would find their strings interned); who goes
  // first meets them cold in the caches, so that alternates.
  if (round % 2 === 0) stringified.push(cpuPerRecord(written, stringifyOne));
  packed.push(cpuPerRecord(written, packOne));
  if (round % 2 === 1) stringified.push(cpuPerRecord(written, stringifyOne));
}

const report = new BenchReport("packing");
report.measured(
  `pack() of the 2 records of each of ${ACTIVITIES} sign_raw_payload activities, CPU time`,
  { label: "pack() µs per record", samples: packed },
  { label: "JSON.stringify µs per record", samples: stringified },
  "µs/record",
);
report.finish();
