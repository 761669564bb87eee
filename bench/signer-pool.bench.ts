/**
 * The signer pool (engine option `signerThreads`): `sign_raw_payload` throughput with two signer threads
 * against the same engine signing on its calling thread, both with 32 activities in flight (the pool only
 * helps when activities overlap: one caller awaiting each signature in turn gets no second core). Also a batch
 * (`sign_raw_payloads` of 100), where the signature is nearly all of the work.
 *
 * Each side is warmed with a few thousand signatures first, so the JIT and each thread's key cache are settled
 * before either is measured.
 *
 * Run: `npx tsx bench/signer-pool.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { keccak256, toHex } from "viem";
import { BenchReport } from "./harness.js";
import { digestParameters, type SigningOrganization, signingOrganization } from "./support.js";

const IN_FLIGHT = 32;
const THREADS = 2;
const report = new BenchReport("signer-pool");
const single = await signingOrganization(10);
const pooled = await signingOrganization(10, { signerThreads: THREADS });

const signDigest = (org: SigningOrganization) => () =>
  org.signer.signRawPayload({ organizationId: org.organizationId, parameters: digestParameters(org.ethereumAddress) });

async function warm(org: SigningOrganization, signatures: number): Promise<void> {
  const run = signDigest(org);
  for (let done = 0; done < signatures; done += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, run));
}
await warm(single, 2500);
await warm(pooled, 2500 * THREADS);

await report.compare(
  `sign_raw_payload secp256k1, 10 policies, ${IN_FLIGHT} in flight`,
  { label: `${THREADS} signer threads`, run: signDigest(pooled), inFlight: IN_FLIGHT },
  { label: "calling thread signs", run: signDigest(single), inFlight: IN_FLIGHT },
  { op: ">=", value: 1.6 },
);

const payloads = Array.from({ length: 100 }, (_, i) => keccak256(toHex(`payload ${i}`)));
const signBatch = (org: SigningOrganization) => () =>
  org.signer.signRawPayloads({
    organizationId: org.organizationId,
    parameters: {
      signWith: org.ethereumAddress,
      payloads,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    },
  });
await report.compare(
  "sign_raw_payloads x100 secp256k1, per signature, 4 in flight",
  { label: `${THREADS} signer threads`, run: signBatch(pooled), inFlight: 4, opsPerCall: 100 },
  { label: "calling thread signs", run: signBatch(single), inFlight: 4, opsPerCall: 100 },
);

report.finish();
await Promise.all([single.engine.close(), pooled.engine.close()]);
