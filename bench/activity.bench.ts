/**
 * Whole-activity cost: `sign_raw_payload` in-process (validation, liveness, fingerprint, policy decision, signer
 * cache, activity record, response) by a non-root member allowed by one policy among N, next to what a test suite
 * would do instead: sign with a bare local key (viem's local account; node:crypto for ed25519). Also the cost of
 * policies: the same activity under 100 policies against the one policy that allows it.
 *
 * Run: `npx tsx bench/activity.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { generateKeyPairSync, sign as nodeSign } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { privateKeyToAccount } from "viem/accounts";
import { BenchReport } from "./harness.js";
import { DIGEST, digestParameters, MESSAGE, messageParameters, signingOrganization } from "./support.js";

const report = new BenchReport("activity");
const ten = await signingOrganization(10);
const hundred = await signingOrganization(100);
const one = await signingOrganization(1);

const viemAccount = privateKeyToAccount(`0x${bytesToHex(secp256k1.utils.randomSecretKey())}`);
const edKey = generateKeyPairSync("ed25519").privateKey;
const message = new TextEncoder().encode(MESSAGE);
const digest = hexToBytes(DIGEST.slice(2));
const secpKey = secp256k1.utils.randomSecretKey();

const signDigest = (org: typeof ten) => () =>
  org.signer.signRawPayload({ organizationId: org.organizationId, parameters: digestParameters(org.ethereumAddress) });

await report.compare(
  "sign_raw_payload secp256k1, 10 policies",
  { label: "engine in-process", run: signDigest(ten) },
  { label: "viem local account sign({ hash })", run: () => viemAccount.sign({ hash: DIGEST }) },
  { op: ">=", value: 0.8 },
);
await report.compare(
  "sign_raw_payload ed25519, 10 policies",
  {
    label: "engine in-process",
    run: () =>
      ten.signer.signRawPayload({
        organizationId: ten.organizationId,
        parameters: messageParameters(ten.solanaAddress),
      }),
  },
  { label: "node:crypto sign", run: () => nodeSign(null, message, edKey) },
  { op: ">=", value: 0.35 },
);
await report.compare(
  "sign_raw_payload secp256k1, 100 policies vs 1",
  { label: "100 policies", run: signDigest(hundred) },
  { label: "1 policy", run: signDigest(one) },
  { op: ">=", value: 0.9 },
);
await report.compare(
  "sign_raw_payloads x100 secp256k1, per signature",
  {
    label: "engine in-process",
    opsPerCall: 100,
    run: () =>
      ten.signer.signRawPayloads({
        organizationId: ten.organizationId,
        parameters: {
          signWith: ten.ethereumAddress,
          payloads: Array.from({ length: 100 }, () => DIGEST),
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
      }),
  },
  { label: "noble secp256k1.sign", run: () => secp256k1.sign(digest, secpKey, { prehash: false }) },
);
report.finish();
