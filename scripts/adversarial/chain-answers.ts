/**
 * A hostile chain node: a dev server started with `--rpc` naming a local node that answers endlessly, answers
 * 200 MB, or refuses with a 10 MB or a 500 000-character error. Each send must fail cleanly and typed (503 for
 * no usable answer, 400 for a refusal), the server's memory must stay bounded and its event loop responsive,
 * and the FAILED activity must keep a short quote of the node's words, not the words. Prints the server's peak
 * RSS growth, the longest wait of a probe request meanwhile, and the size of the FAILED activity.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { HostileAnswer } from "../../test/support/hostile-node.js";
import {
  check,
  clientFor,
  credentials,
  figure,
  raw,
  type Server,
  stampHeader,
  startServer,
  stopServer,
} from "./harness.js";

const CAIP2 = "eip155:31337";
const MB = 1024 * 1024;
/** Bounds the run holds the server to: far above reading up to the answer limit, far below reading it all. */
const RSS_GROWTH_CAP_MB = 128;
/** Generous: the machine is shared, and a 200 MB answer parsed whole held the loop for over a second (15 s here). */
const PROBE_DELAY_CAP_MS = 1000;
const ACTIVITY_CAP_BYTES = 8 * 1024;

/** The server's resident memory (VmRSS), in bytes. */
function rssOf(server: Server): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Runs `work` while sampling the server's memory and sending it a preflight request every 10 ms, which it
 * answers from its event loop alone: the longest wait for one is how long the loop was held.
 */
async function watched<T>(server: Server, work: () => Promise<T>) {
  const before = rssOf(server);
  let peak = before;
  let longestProbeMs = 0;
  let failedProbes = 0;
  let running = true;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(server));
  }, 10);
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${server.baseUrl}/public/v1/query/whoami`, { method: "OPTIONS" })
        .then((r) => r.arrayBuffer())
        .catch(() => {
          failedProbes++;
        });
      longestProbeMs = Math.max(longestProbeMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    const outcome = await work();
    return { outcome, rssGrowthMb: (Math.max(peak, rssOf(server)) - before) / MB, longestProbeMs, failedProbes };
  } finally {
    running = false;
    clearInterval(sampler);
    await probing;
  }
}

/** The child process's program: a hostile node that takes its next answer as a JSON line on stdin. */
const NODE_PROGRAM = `
const { startHostileNode } = await import("./test/support/hostile-node.ts");
const node = await startHostileNode({ kind: "endless" });
console.log(node.url);
const lines = (await import("node:readline")).createInterface({ input: process.stdin });
lines.on("line", (line) => { node.answer = JSON.parse(line); console.log("ok"); });
lines.on("close", () => node.close().then(() => process.exit(0)));
`;

/**
 * The hostile node, in a process of its own: pouring an endless answer takes a loop's time, which must not be
 * counted against the server's when the probes measure it.
 */
async function hostileNodeProcess() {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", NODE_PROGRAM], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise<string>((resolve) => lines.once("line", resolve));
  const url = await next();
  return {
    url,
    async answer(answer: HostileAnswer): Promise<void> {
      const acknowledged = next();
      child.stdin.write(`${JSON.stringify(answer)}\n`);
      await acknowledged;
    },
    close: () => new Promise((resolve) => child.once("exit", resolve).stdin.end()),
  };
}

/** `text` as JSON, or an empty object when it is none (a server that did not answer). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export async function chainAnswers(): Promise<void> {
  const node = await hostileNodeProcess();
  const directory = mkdtempSync(join(tmpdir(), "custodian-adversarial-rpc-"));
  const server = await startServer({ directory, args: ["--rpc", `${CAIP2}=${node.url}`] });
  try {
    const creds = credentials(directory);
    const root = { publicKey: creds.apiPublicKey, privateKey: creds.apiPrivateKey };
    const client = clientFor(server.baseUrl, root, creds.organizationId);
    const { addresses } = await client.createWallet({
      walletName: "hostile node",
      accounts: [
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        },
      ],
    });
    const cases: { name: string; answer: HostileAnswer; status: number }[] = [
      { name: "an endless answer", answer: { kind: "endless" }, status: 503 },
      { name: "a 200 MB answer", answer: { kind: "huge", bytes: 200 * MB, announced: false }, status: 503 },
      {
        name: "a 10 MB error message",
        answer: { kind: "error", error: { code: -32000, message: "e".repeat(10 * MB) } },
        status: 503,
      },
      {
        name: "a 500 000-character error message",
        answer: { kind: "error", error: { code: -32000, message: "e".repeat(500_000) } },
        status: 400,
      },
    ];
    const sendBody = (value: number) =>
      JSON.stringify({
        type: "ACTIVITY_TYPE_ETH_SEND_TRANSACTION",
        timestampMs: String(Date.now()),
        organizationId: creds.organizationId,
        parameters: {
          from: addresses[0],
          to: "0x000000000000000000000000000000000000beef",
          caip2: CAIP2,
          value: String(value),
          nonce: "0",
          maxFeePerGas: "2",
          maxPriorityFeePerGas: "1",
        },
      });
    // One send first, unmeasured, so the figures are not those of a server running a send for the first time.
    await node.answer({ kind: "result", result: "0x1" });
    const warmUp = sendBody(0);
    await raw(`${server.baseUrl}/public/v1/submit/eth_send_transaction`, warmUp, await stampHeader(root, warmUp));
    for (const [i, { name, answer, status }] of cases.entries()) {
      await node.answer(answer);
      const body = sendBody(i + 1);
      const { outcome, rssGrowthMb, longestProbeMs, failedProbes } = await watched(server, async () =>
        raw(`${server.baseUrl}/public/v1/submit/eth_send_transaction`, body, await stampHeader(root, body)).catch(
          (error: unknown) => ({ status: 0, text: String(error) }),
        ),
      );
      check(`a node's ${name} leaves the server answering`, failedProbes === 0, `${failedProbes} probes failed`);
      const answered = parsed(outcome.text) as { details?: { activityId?: string }[] };
      const activityId = answered.details?.map((d) => d.activityId).find((id) => id !== undefined);
      const stored = activityId ? JSON.stringify(await client.getActivity({ activityId }).catch(String)) : "";
      check(`a node's ${name} fails the send with ${status}`, outcome.status === status, String(outcome.status));
      check(`a node's ${name} leaves a FAILED activity`, stored.includes("ACTIVITY_STATUS_FAILED"), activityId);
      check(`a node's ${name} keeps the server's memory bounded`, rssGrowthMb < RSS_GROWTH_CAP_MB, `${rssGrowthMb}`);
      check(`a node's ${name} leaves the event loop free`, longestProbeMs < PROBE_DELAY_CAP_MS, `${longestProbeMs}`);
      check(`a node's ${name} is quoted, not stored`, stored.length < ACTIVITY_CAP_BYTES, `${stored.length} bytes`);
      figure(`hostile RPC, ${name}: server peak RSS growth`, rssGrowthMb, "MB");
      figure(`hostile RPC, ${name}: longest probe wait (event-loop delay)`, longestProbeMs, "ms");
      figure(`hostile RPC, ${name}: FAILED activity`, stored.length, "bytes");
    }
  } finally {
    await stopServer(server);
    await node.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
