/**
 * Whole-activity cost: `sign_raw_payload` in-process (validation, liveness, fingerprint, policy decision, signer
 * cache, activity record, response) by a non-root member allowed by one policy among N, next to what a test suite
 * would do instead: sign with a bare local key (viem's local account; node:crypto for ed25519). Also the cost of
 * policies: the same activity under 100 policies against the one policy that allows it, for each shape conditions
 * are written in (equality tests; `in`; nested `&&`/`||`; `eth.tx` fields, on `sign_transaction`; all mixed).
 *
 * Run: `npx tsx bench/activity.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { generateKeyPairSync, sign as nodeSign } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { parseEther, serializeTransaction } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { BenchReport } from "./harness.js";
import {
  type ConditionShape,
  DIGEST,
  digestParameters,
  ETH_TX_CONDITION,
  IN_CONDITION,
  MESSAGE,
  MIXED_CONDITION,
  messageParameters,
  NESTED_CONDITION,
  signingOrganization,
} from "./support.js";

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
for (const [name, shape] of [
  ["`in`", IN_CONDITION],
  ["nested &&/||", NESTED_CONDITION],
] as [string, ConditionShape][]) {
  const many = await signingOrganization(100, {}, shape);
  const single = await signingOrganization(1, {}, shape);
  await report.compare(
    `sign_raw_payload secp256k1, 100 policies vs 1, ${name} conditions`,
    { label: "100 policies", run: signDigest(many) },
    { label: "1 policy", run: signDigest(single) },
    { op: ">=", value: 0.9 },
  );
}

// `sign_transaction` of one EIP-1559 transaction, and of 64 that differ in value (every activity then gives the
// policies other values to judge).
const transactions = Array.from({ length: 64 }, (_, i) =>
  serializeTransaction({
    type: "eip1559",
    chainId: 1,
    nonce: 7,
    to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    value: parseEther("0.01") + BigInt(i),
    gas: 21_000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  }).slice(2),
);
const signTransaction = (org: typeof ten, varying: boolean) => {
  let next = 0;
  return () =>
    org.signer.signTransaction({
      organizationId: org.organizationId,
      parameters: {
        signWith: org.ethereumAddress,
        type: "TRANSACTION_TYPE_ETHEREUM",
        unsignedTransaction: transactions[varying ? next++ % transactions.length : 0] as string,
      },
    });
};
for (const [name, shape] of [
  ["`eth.tx` conditions", ETH_TX_CONDITION],
  ["mixed conditions", MIXED_CONDITION],
] as [string, ConditionShape][]) {
  const many = await signingOrganization(100, {}, shape);
  const single = await signingOrganization(1, {}, ETH_TX_CONDITION);
  for (const varying of [false, true]) {
    await report.compare(
      `sign_transaction EIP-1559, 100 policies vs 1 eth.tx policy, ${name}${varying ? ", values varying" : ""}`,
      { label: "100 policies", run: signTransaction(many, varying) },
      { label: "1 policy", run: signTransaction(single, varying) },
      { op: ">=", value: 0.9 },
    );
  }
}

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
