/**
 * `sign_raw_payload` over HTTP on loopback against the same engine in-process, 32 requests in flight each. The
 * server runs in its own process (`http-server.ts`); requests are stamped beforehand, each with its own
 * timestamp, so the load generator's own signing is not measured. Target: HTTP at least 0.60 of in-process,
 * for secp256k1 and for ed25519.
 *
 * Run: `npx tsx bench/http.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`); `BENCH_PROFILE=1` also
 * profiles the server.
 */
import { spawn } from "node:child_process";
import { createPrivateKey, sign } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import { createInterface } from "node:readline";
import { p256 } from "@noble/curves/nist.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { BenchReport, opsPerSecond, ROUND_MS, ROUNDS } from "./harness.js";
import { digestParameters, messageParameters, signingOrganization } from "./support.js";

const IN_FLIGHT = 32;
/**
 * Each path runs this long before it is measured. The server is a fresh process: with only the harness's short
 * warm-up, its compilers were still at work through the first scenario's rounds (they rose from a third to the
 * rate of the last ones), and that scenario was measured against an in-process engine already warm.
 */
const WARM_MS = 3000;
const report = new BenchReport("http");

// BENCH_PROFILE=1 writes the server's CPU profile to bench/results/profiles/ (open it in Chrome's DevTools): the
// profile the README's HTTP explanation is read from.
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
function stamped(path: string, type: string, parameters: object): { url: string; body: string; stamp: string } {
  const body = JSON.stringify({
    type,
    timestampMs: String(timestamp++),
    organizationId: server.organizationId,
    parameters,
  });
  const signature = sign("sha256", Buffer.from(body), stampKey).toString("hex");
  const stamp = Buffer.from(
    JSON.stringify({ publicKey: server.signerKey.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature }),
  ).toString("base64url");
  return { url: `http://127.0.0.1:${server.port}/public/v1/submit/${path}`, body, stamp };
}

/** Enough stamped requests for every round of one case, made before any is timed. */
function requestPool(parameters: object): () => Promise<unknown> {
  // Generous: a quiet machine serves a few thousand a second.
  const count = Math.ceil(((WARM_MS + (ROUNDS + 1) * ROUND_MS) * 8000) / 1000);
  const pool = Array.from({ length: count }, () =>
    stamped("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", parameters),
  );
  let next = 0;
  return () => {
    const request = pool[next++];
    if (!request) throw new Error("the stamped request pool ran out: raise its size");
    return post(request);
  };
}

/**
 * One POST on a kept-alive connection with `node:http`. Global `fetch` (undici) cost the load generator about as
 * much CPU per request as the server spent answering it, so on 2 cores the client was the bottleneck: a CPU
 * profile of the server showed it idle half the time.
 */
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
function post(request: { url: string; body: string; stamp: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      request.url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(request.body),
          "x-stamp": request.stamp,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode === 200) resolve();
          else reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString("utf8")}`));
        });
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

const local = await signingOrganization(10);
// Both pools are stamped before any request: stamping one takes seconds, longer than the server keeps an idle
// connection open, and the agent would then reuse a socket the server has closed.
const secp256k1Requests = requestPool(digestParameters(server.ethereumAddress));
const ed25519Requests = requestPool(messageParameters(server.solanaAddress));
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
agent.destroy();
child.stdin!.end();
report.finish();
