import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { FileStore } from "../../src/storage/file/index.js";
import type { StoredRecord } from "../../src/storage/store.js";

const WRITER = fileURLToPath(new URL("./fixtures/crash-writer.ts", import.meta.url));
const ROUNDS = 24;

let directory: string | undefined;
afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

interface Round {
  child: ChildProcess;
  /** Ids the child printed, each only after its commit resolved. */
  reported: string[];
  ready: boolean;
}

/** Starts the writer and SIGKILLs it `delayMs` after it opened the store, or after it started when `early`. */
async function killedWriter(storeDirectory: string, round: number, delayMs: number, early: boolean): Promise<Round> {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, storeDirectory, String(round)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const state: Round = { child, reported: [], ready: false };
  let pending = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const kill = () => setTimeout(() => child.kill("SIGKILL"), delayMs);
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? ""; // a line cut by the kill was never fully reported
    for (const line of lines) {
      if (line === "ready") {
        state.ready = true;
        if (!early) kill();
      } else {
        state.reported.push(line);
      }
    }
  });
  if (early) kill();
  const code = await exited;
  // Only the kill may end the child; an exit code means it failed on its own.
  expect(code, stderr).toBeNull();
  return state;
}

it("keeps every acknowledged commit, with consistent indexes, through repeated SIGKILLs", async () => {
  directory = await mkdtemp(join(tmpdir(), "custodian-filestore-crash-"));
  let seed = 2024;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const everReported = new Set<string>();
  let tornTails = 0;
  let staleLocks = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Most kills land while commits are in flight; some land while the child is still starting or recovering.
    const early = round % 6 === 5;
    const { child, reported, ready } = await killedWriter(
      directory,
      round,
      Math.floor(random() * (early ? 400 : 150)),
      early,
    );
    for (const id of reported) everReported.add(id);

    const store = await FileStore.open(directory);
    if (store.recovery.tornTail) tornTails++;
    if (ready) {
      expect(store.recovery.staleLock?.pid).toBe(child.pid);
      staleLocks++;
    }
    await store.read(async (r) => {
      const listed: StoredRecord[] = [];
      for (;;) {
        const page = await r.list("records", "all", { after: listed[listed.length - 1]?.id, limit: 250 });
        listed.push(...page);
        if (page.length < 250) break;
      }
      const listedIds = new Set(listed.map((record) => record.id));
      expect([...everReported].filter((id) => !listedIds.has(id))).toEqual([]);
      // Each commit inserted one record and bumped the tally once, atomically.
      expect((await r.get("tallies", "tally"))?.count ?? 0).toBe(listed.length);
      const disagreements: string[] = [];
      for (const record of listed) {
        const key = record.key as string;
        if ((await r.lookup("recordByKey", key)) !== record.id) disagreements.push(`${key} does not find ${record.id}`);
        const original = `key:${record.id}`;
        if (key !== original && (await r.lookup("recordByKey", original)) !== undefined) {
          disagreements.push(`the replaced key ${original} still resolves`);
        }
      }
      expect(disagreements).toEqual([]);
    });
    await store.close();
  }
  // The kills must actually have interrupted running writers, or the test proved nothing.
  expect(everReported.size).toBeGreaterThan(ROUNDS);
  expect(staleLocks).toBeGreaterThan(ROUNDS / 2);
  console.info(
    `crash test: ${everReported.size} acknowledged commits, ${tornTails} torn tails cut, ${staleLocks} stale locks taken over`,
  );
}, 60_000);
