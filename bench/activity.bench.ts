/**
 * Whole-activity throughput: `sign_raw_payload` and `sign_raw_payloads` through the engine (validation,
 * liveness, fingerprint, decision, signer cache, activity record, response rendering) next to the bare
 * signature it wraps, so the ratio is the price of everything that makes it a custody activity.
 * Run: `npx tsx bench/activity.bench.ts`. `BENCH_MS` sets the time per case (default 2000 ms).
 */
import { generateKeyPairSync, sign as nodeSign } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { CustodyEngine } from "../src/index.js";

const BUDGET_MS = Number(process.env.BENCH_MS ?? 2000);

async function opsPerSecond(fn: () => unknown | Promise<unknown>, ms: number): Promise<number> {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await fn();
    ops++;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

const engine = new CustodyEngine();
const { organizationId, rootUserIds } = await engine.createOrganization({
  organizationName: "bench",
  rootUsers: [
    {
      userName: "root",
      apiKeys: [
        {
          apiKeyName: "k",
          publicKey: bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true)),
          curveType: "API_KEY_CURVE_P256",
        },
      ],
    },
  ],
});
const root = engine.as({ userId: rootUserIds[0] as string });
const { activity } = await root.createWallet({
  organizationId,
  parameters: {
    walletName: "bench",
    accounts: [
      {
        curve: "CURVE_SECP256K1",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/44'/60'/0'/0/0",
        addressFormat: "ADDRESS_FORMAT_ETHEREUM",
      },
      {
        curve: "CURVE_ED25519",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/44'/501'/0'/0'",
        addressFormat: "ADDRESS_FORMAT_SOLANA",
      },
    ],
  },
});
const [ethAddress, solAddress] = (activity.result!.createWalletResult as { addresses: string[] }).addresses as [
  string,
  string,
];

const digest = "0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658";
const secpKey = secp256k1.utils.randomSecretKey();
const edKeyObject = generateKeyPairSync("ed25519").privateKey;
const message = new TextEncoder().encode("bench message for ed25519 signing");

const cases: { name: string; primitive: () => unknown; activity: () => Promise<unknown>; perActivity: number }[] = [
  {
    name: "sign_raw_payload secp256k1 (vs noble secp256k1.sign)",
    primitive: () => secp256k1.sign(hexToBytes(digest.slice(2)), secpKey, { prehash: false }),
    activity: () =>
      root.signRawPayload({
        organizationId,
        parameters: {
          signWith: ethAddress,
          payload: digest,
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
      }),
    perActivity: 1,
  },
  {
    name: "sign_raw_payload ed25519 (vs node:crypto sign)",
    primitive: () => nodeSign(null, message, edKeyObject),
    activity: () =>
      root.signRawPayload({
        organizationId,
        parameters: {
          signWith: solAddress,
          payload: "bench message for ed25519 signing",
          encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
          hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
        },
      }),
    perActivity: 1,
  },
  {
    name: "sign_raw_payloads x100 secp256k1 (per signature, vs noble)",
    primitive: () => secp256k1.sign(hexToBytes(digest.slice(2)), secpKey, { prehash: false }),
    activity: () =>
      root.signRawPayloads({
        organizationId,
        parameters: {
          signWith: ethAddress,
          payloads: Array.from({ length: 100 }, () => digest),
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
      }),
    perActivity: 100,
  },
];

const rows = [];
for (const c of cases) {
  await opsPerSecond(c.activity, BUDGET_MS / 4); // warm-up: JIT, signer cache
  const primitive = await opsPerSecond(c.primitive, BUDGET_MS);
  const signatures = (await opsPerSecond(c.activity, BUDGET_MS)) * c.perActivity;
  rows.push({
    case: c.name,
    "primitive ops/s": primitive.toFixed(0),
    "engine signatures/s": signatures.toFixed(0),
    "vs primitive": (signatures / primitive).toFixed(2),
  });
}
console.table(rows);
