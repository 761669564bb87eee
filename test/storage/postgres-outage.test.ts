/**
 * PostgresStore while its database cannot be reached: the machine's PostgreSQL behind a TCP forwarder that the
 * test stops (cutting every connection and refusing new ones) and starts again, the server itself untouched.
 * Every call fails as `UNAVAILABLE` (HTTP 503, gRPC 14) with a plain message, the host hears of the outage once
 * when it begins and once when it ends, a transaction cut in its middle keeps nothing, and a database that
 * accepts a connection but never answers is given up on after the connection timeout. Needs the server
 * (`CUSTODIAN_PG_URL`); PGlite has no connection to lose.
 */
import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { type AvailabilityChange, PostgresStore } from "../../src/storage/postgres/index.js";
import type { Store } from "../../src/storage/store.js";
import { freshSchema, serverUrl } from "../support/postgres.js";
import { startTcpForwarder, type TcpForwarder, throughForwarder } from "../support/tcp-forwarder.js";

const opened: { store?: Store; forwarder?: TcpForwarder }[] = [];

afterEach(async () => {
  for (const { store, forwarder } of opened.splice(0)) {
    await forwarder?.start().catch(() => undefined);
    await store?.close();
    await forwarder?.stop();
  }
});

/** A store on a fresh schema reached through a forwarder, and the availability changes it reports. */
async function storeBehindForwarder() {
  const { hostname, port } = new URL(serverUrl as string);
  const forwarder = await startTcpForwarder({ host: hostname, port: Number(port || 5432) });
  const changes: AvailabilityChange[] = [];
  const store = await PostgresStore.open(throughForwarder(serverUrl as string, forwarder), {
    schema: freshSchema(),
    onAvailabilityChange: (change) => changes.push(change),
  });
  opened.push({ store, forwarder });
  return { store, forwarder, changes };
}

/** Expects `call` to fail as the store's UNAVAILABLE, with nothing of the connection in its message. */
async function expectUnavailable(call: Promise<unknown>, port: number): Promise<void> {
  const error = await call.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  const custody = error as CustodyError;
  expect(custody.code).toBe("UNAVAILABLE");
  expect(custody.httpStatus).toBe(503);
  expect(custody.grpcCode).toBe(14);
  expect(custody.details.reason).toBe("STORE_UNAVAILABLE");
  expect(custody.message).toBe("the database is unavailable; nothing was done, try again shortly");
  expect(JSON.stringify(custody.toRpcStatus())).not.toContain(String(port));
}

describe.runIf(serverUrl)("PostgresStore while its database is unreachable", () => {
  it("fails every call as UNAVAILABLE, tells the outage once each way, and works again after it", async () => {
    const { store, forwarder, changes } = await storeBehindForwarder();
    await store.transaction((tx) => tx.put("things", { id: "before" }, { scope: "s" }));

    await forwarder.stop();
    for (let i = 0; i < 10; i++) {
      await expectUnavailable(
        store.transaction((tx) => tx.put("things", { id: `during-${i}` }, { scope: "s" })),
        forwarder.port,
      );
      await expectUnavailable(
        store.read((r) => r.get("things", "before")),
        forwarder.port,
      );
      await expectUnavailable(store.claim("things", "s", { owner: "o", now: 0, until: 1, limit: 1 }), forwarder.port);
      await expectUnavailable(store.release("things", ["before"], "o"), forwarder.port);
    }
    expect(changes).toEqual([{ available: false, reason: expect.any(String) }]);

    await forwarder.start();
    await store.transaction((tx) => tx.put("things", { id: "after" }, { scope: "s" }));
    expect((await store.read((r) => r.list("things", "s"))).map((record) => record.id)).toEqual(["after", "before"]);
    expect(changes).toEqual([
      { available: false, reason: expect.any(String) },
      { available: true, unavailableMs: expect.any(Number) },
    ]);
  });

  it("fails a transaction cut in its middle as UNAVAILABLE, whatever its callback made of it, keeping nothing", async () => {
    const { store, forwarder, changes } = await storeBehindForwarder();
    const cut = store.transaction(async (tx) => {
      await tx.put("things", { id: "half" }, { scope: "s" });
      // The session is lent out and idle when its connection drops: pg emits `error` on it.
      await forwarder.stop();
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        await tx.get("things", "half");
      } catch {
        throw new Error("the callback's own reading of what went wrong");
      }
    });
    await expectUnavailable(cut, forwarder.port);
    expect(changes).toHaveLength(1);

    await forwarder.start();
    expect(await store.read((r) => r.get("things", "half"))).toBeUndefined();
    expect(changes).toHaveLength(2);
  });

  it("gives up on a database that takes the connection but never answers, after the connection timeout", async () => {
    const { store, forwarder, changes } = await storeBehindForwarder();
    await forwarder.stop();
    // The pool's idle session, cut with the rest, fails its call at once and is dropped.
    await expectUnavailable(
      store.read((r) => r.get("things", "x")),
      forwarder.port,
    );
    // Where the forwarder was, a listener that accepts the connection and never speaks: without a connection
    // timeout the call would wait for the operating system to give up, minutes later.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(forwarder.port, "127.0.0.1", resolve));
    try {
      await expectUnavailable(
        store.read((r) => r.get("things", "x")),
        forwarder.port,
      );
      expect(sockets.length).toBeGreaterThan(0);
      expect(changes).toEqual([{ available: false, reason: expect.any(String) }]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 15_000);
});
