/**
 * Resident memory of the dev server (the built package) holding a wallet of `BENCH_DEV_ACCOUNTS` accounts
 * (default 100,000) and `BENCH_DEV_ACTIVITIES` signing activities (default 200,000), all made over HTTP by
 * `@turnkey/sdk-server` with the server's root credentials, in each of its two modes: `custodian serve --memory`
 * (a MemoryStore) and the default `custodian serve` (a durable FileStore in the data directory). Target for each:
 * at most 400 MB (the process's VmRSS, read from /proc once the load is done and the server has been idle for a
 * few seconds).
 *
 * Run: `npx tsx bench/dev-server-rss.bench.ts` (Linux only: it reads /proc).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Turnkey } from "@turnkey/sdk-server";
import { BenchReport } from "./harness.js";

const ACCOUNTS = Number(process.env.BENCH_DEV_ACCOUNTS ?? 100_000);
const ACTIVITIES = Number(process.env.BENCH_DEV_ACTIVITIES ?? 200_000);
const IN_FLIGHT = 32;
const BATCH = 1_000;
const TARGET_MB = 400;

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kb / 1024;
}

function start(dataDir: string, memory: boolean): { child: ChildProcess; url: Promise<string> } {
  // Without --memory the dev server stores in CUSTODIAN_PG_URL's database when one is set; this row measures its
  // default store, the durable FileStore in --data.
  const { CUSTODIAN_PG_URL: _database, ...environment } = process.env;
  const child = spawn(
    process.execPath,
    [
      new URL("../dist/cli.js", import.meta.url).pathname,
      "serve",
      ...(memory ? ["--memory"] : []),
      "--quiet",
      "--port",
      "0",
      "--data",
      dataDir,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: environment },
  );
  let output = "";
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match && /^storage: /m.test(output)) resolve(match[1] as string);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`the dev server exited with ${code}: ${output}`)));
  });
  return { child, url };
}

/**
 * Loads a dev server started in one mode and reports its VmRSS. `--memory` keeps the row label it always had; the
 * durable store's row names it.
 */
async function measure(memory: boolean): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "custodian-bench-rss-"));
  const server = start(dataDir, memory);
  try {
    const baseUrl = await server.url;
    // Each mode writes its credentials to a file of its own (see `custodian serve --help`).
    const credentialsFile = memory ? "memory-root-api-key.json" : "root-api-key.json";
    const credentials = JSON.parse(readFileSync(join(dataDir, credentialsFile), "utf8")) as Record<string, string>;
    const organizationId = credentials.organizationId as string;
    const client = new Turnkey({
      apiBaseUrl: baseUrl,
      apiPublicKey: credentials.apiPublicKey as string,
      apiPrivateKey: credentials.apiPrivateKey as string,
      defaultOrganizationId: organizationId,
    }).apiClient();
    const pid = server.child.pid as number;
    const idle = residentMb(pid);

    const { walletId, addresses } = await client.createWallet({
      walletName: "rss",
      accounts: [
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        },
      ],
    });
    for (let from = 1; from < ACCOUNTS; from += BATCH) {
      await client.createWalletAccounts({
        walletId,
        accounts: Array.from({ length: Math.min(BATCH, ACCOUNTS - from) }, (_, i) => ({
          curve: "CURVE_SECP256K1" as const,
          pathFormat: "PATH_FORMAT_BIP32" as const,
          path: `m/44'/60'/0'/0/${from + i}`,
          addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const,
        })),
      });
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < ACTIVITIES) {
          const n = next++;
          await client.signRawPayload({
            signWith: addresses[0] as string,
            payload: `0x${n.toString(16).padStart(64, "0")}`,
            encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction: "HASH_FUNCTION_NO_OP",
          });
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const loaded = residentMb(pid);
    const mode = memory ? "" : " (default: durable FileStore)";
    console.log(
      `dev server RSS${mode}: ${idle.toFixed(0)} MB idle, ${loaded.toFixed(0)} MB with ${ACCOUNTS} accounts and ${ACTIVITIES} activities`,
    );
    report.measured(
      `dev server RSS${mode}, ${ACCOUNTS} accounts + ${ACTIVITIES} activities`,
      { label: "VmRSS (MB)", samples: [loaded] },
      { label: `${TARGET_MB} MB`, samples: [TARGET_MB] },
      "MB",
      { op: "<=", value: 1 },
    );
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill("SIGINT");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const report = new BenchReport("dev-server-rss");
await measure(true);
await measure(false);
report.finish();
