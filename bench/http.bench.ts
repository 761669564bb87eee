/**
 * `sign_raw_payload` over HTTP on loopback against the same engine in-process, 32 requests in flight each. The
 * server runs in its own process (`http-server.ts`); requests are stamped beforehand, each with its own
 * timestamp, so the load generator's own signing is not measured, and sent as prepared bytes on kept-alive
 * sockets (`loopback-client.ts`), so its HTTP costs little of the two cores the server needs. Target: HTTP at
 * least 0.60 of in-process, for secp256k1 and for ed25519.
 *
 * Run: `npx tsx bench/http.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`); `BENCH_PROFILE=1` also
 * profiles the server.
 */
import { spawn } from "node:child_process";
import { createPrivateKey, sign } from "node:crypto";
import { createInterface } from "node:readline";
import { p256 } from "@noble/curves/nist.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { BenchReport, opsPerSecond, ROUND_MS, ROUNDS } from "./harness.js";
import { encodePost, LoopbackClient } from "./loopback-client.js";
import { digestParameters, messageParameters, signingOrganization } from "./support.js";

const IN_FLIGHT = 32;
/**
 * Each path runs this long before it is measured. The server is a fresh process: with only the harness's short
 * warm-up, its compilers were still at work through the first scenario's rounds (they rose from a third to the
 * rate of the last ones), and that scenario was measured against an in-process engine already warm.
 */
const WARM_MS = 3000;
const report = new BenchReport("http");

// BENCH_PROFILE=1 writes the server's CPU profile to bench/results/profiles/ (open it in Chrome's DevTools), to see
// where an HTTP request's time goes on the server's thread.
const profile = process.env.BENCH_PROFILE
  ? ["--cpu-prof", `--cpu-prof-dir=${new URL("./results/profiles", import.meta.url).pathname}`]
  : [];
const child = spawn(
  process.execPath,
  [...profile, "--import", "tsx", new URL("./http-server.ts", import.meta.url).pathname],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const [line] = await createInterface({ input: child.stdout! })
  [Symbol.asyncIterator]()
  .next()
  .then((r) => [r.value as string]);
const server = JSON.parse(line as string) as {
  port: number;
  organizationId: string;
  signerKey: { publicKey: string; privateKey: string };
  ethereumAddress: string;
  solanaAddress: string;
};

// The member's P-256 key as a node:crypto key: stamping thousands of bodies up front must be quick.
const point = p256.Point.fromBytes(hexToBytes(server.signerKey.publicKey)).toBytes(false);
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const stampKey = createPrivateKey({
  key: {
    kty: "EC",
    crv: "P-256",
    d: b64url(hexToBytes(server.signerKey.privateKey)),
    x: b64url(point.subarray(1, 33)),
    y: b64url(point.subarray(33)),
  },
  format: "jwk",
});

let timestamp = Date.now();
/** The bytes of one stamped `sign_raw_payload` request, with a timestamp no other request has. */
function stamped(parameters: object): Buffer {
  const body = JSON.stringify({
    type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
    timestampMs: String(timestamp++),
    organizationId: server.organizationId,
    parameters,
  });
  const signature = sign("sha256", Buffer.from(body), stampKey).toString("hex");
  const stamp = Buffer.from(
    JSON.stringify({ publicKey: server.signerKey.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature }),
  ).toString("base64url");
  return encodePost({
    path: "/public/v1/submit/sign_raw_payload",
    headers: { "content-type": "application/json", "x-stamp": stamp },
    body,
  });
}

/** Enough stamped requests for every round of one case, made before any is timed. */
function requestPool(parameters: object): Buffer[] {
  // Generous: a quiet machine serves a few thousand a second.
  const count = Math.ceil(((WARM_MS + (ROUNDS + 1) * ROUND_MS) * 8000) / 1000);
  return Array.from({ length: count }, () => stamped(parameters));
}

/** Posts the requests of `pool` one after another. */
function poster(client: LoopbackClient, pool: readonly Buffer[]): () => Promise<unknown> {
  let next = 0;
  return () => {
    const request = pool[next++];
    if (!request) throw new Error("the stamped request pool ran out: raise its size");
    return client.post(request);
  };
}

const local = await signingOrganization(10);
// Both pools are stamped before the connections open, so none of them sits idle through the seconds that takes.
const secp256k1Pool = requestPool(digestParameters(server.ethereumAddress));
const ed25519Pool = requestPool(messageParameters(server.solanaAddress));
const client = await LoopbackClient.open(server.port, IN_FLIGHT);
const secp256k1Requests = poster(client, secp256k1Pool);
const ed25519Requests = poster(client, ed25519Pool);
const inProcess = (parameters: typeof digestParameters | typeof messageParameters, signWith: string) => () =>
  local.signer.signRawPayload({ organizationId: local.organizationId, parameters: parameters(signWith) });
for (const run of [
  secp256k1Requests,
  ed25519Requests,
  inProcess(digestParameters, local.ethereumAddress),
  inProcess(messageParameters, local.solanaAddress),
]) {
  await opsPerSecond({ label: "warm-up", run, inFlight: IN_FLIGHT }, WARM_MS / 2);
}
await report.compare(
  "sign_raw_payload secp256k1 over HTTP vs in-process, 32 in flight",
  { label: "HTTP loopback", inFlight: IN_FLIGHT, run: secp256k1Requests },
  { label: "in-process", inFlight: IN_FLIGHT, run: inProcess(digestParameters, local.ethereumAddress) },
  { op: ">=", value: 0.6 },
);
await report.compare(
  "sign_raw_payload ed25519 over HTTP vs in-process, 32 in flight",
  { label: "HTTP loopback", inFlight: IN_FLIGHT, run: ed25519Requests },
  { label: "in-process", inFlight: IN_FLIGHT, run: inProcess(messageParameters, local.solanaAddress) },
  { op: ">=", value: 0.6 },
);
client.close();
child.stdin!.end();
report.finish();
