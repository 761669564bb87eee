/**
 * What PostgresStore adds to the storage contract: migrations that many instances may race to apply,
 * conflicts retried inside the store, and refusals of bad options.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PostgresStore, type SqlPool } from "../../src/storage/postgres/index.js";
import { UniqueKeyViolation } from "../../src/storage/store.js";
import { expectCustodyError } from "../support/custody-error.js";
import { postgresKind, queryDatabase, serverUrl, testDatabase } from "../support/postgres.js";

describe(`PostgresStore (${postgresKind})`, () => {
  it("applies its migrations once when several instances open one schema at the same moment", async () => {
    const { connection, schema } = await testDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(connection, { schema })));
    await stores[0]?.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s" }));
    await Promise.all(stores.map((store) => store.close()));
    // Reopening finds the schema current and the data kept.
    const again = await PostgresStore.open(connection, { schema });
    expect(await again.read(async (r) => r.get("things", "a"))).toEqual({ id: "a" });
    await again.close();
    expect(await queryDatabase(connection, `SELECT version FROM "${schema}".migrations`)).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
      { version: 5 },
    ]);
  });

  it("brings a schema written at version 4 up to date, keeping its records and keys", async () => {
    const { connection, schema } = await testDatabase();
    const first = await PostgresStore.open(connection, { schema });
    await first.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "x" } }));
    await first.close();
    // What version 4 left: no `put_many`, and `put_record` as that version wrote it (same arguments and answers).
    await queryDatabase(connection, `DROP FUNCTION "${schema}".put_many`);
    await queryDatabase(connection, `DELETE FROM "${schema}".migrations WHERE version = 5`);
    const again = await PostgresStore.open(connection, { schema });
    expect(await queryDatabase(connection, `SELECT max(version) AS version FROM "${schema}".migrations`)).toEqual([
      { version: 5 },
    ]);
    await again.transaction(async (tx) => {
      await tx.put("things", { id: "b" }, { scope: "s", keys: { byName: "y" } });
      await tx.put("things", { id: "a", v: 2 }, { scope: "s", keys: { byName: "z" } });
    });
    await expect(
      again.transaction(async (tx) => tx.put("things", { id: "c" }, { scope: "s", keys: { byName: "y" } })),
    ).rejects.toBeInstanceOf(UniqueKeyViolation);
    await again.read(async (r) => {
      expect(await r.get("things", "a")).toEqual({ id: "a", v: 2 });
      expect(await r.lookup("byName", "x")).toBeUndefined();
      expect(await r.lookup("byName", "y")).toBe("b");
      expect(await r.lookup("byName", "z")).toBe("a");
      expect(await r.get("things", "c")).toBeUndefined();
    });
    await again.close();
  });

  it("shares records out between instances claiming from one schema at once, none twice", async () => {
    const { connection, schema } = await testDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(connection, { schema })));
    const [first] = stores as [PostgresStore];
    await first.transaction(async (tx) => {
      for (let n = 0; n < 40; n++) await tx.put("jobs", { id: `job-${String(n).padStart(3, "0")}` }, { scope: "q" });
    });
    const claimed = (
      await Promise.all(
        stores.flatMap((store, i) =>
          [0, 1, 2].map((j) =>
            store.claim("jobs", "q", { owner: `instance-${i}-${j}`, now: 0, until: 1e12, limit: 4 }),
          ),
        ),
      )
    )
      .flat()
      .map((x) => x.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).toHaveLength(40);
    // The lease survives the instance that took it: a store opened later sees it held, then ended at `until`.
    const later = await PostgresStore.open(connection, { schema });
    expect(await later.claim("jobs", "q", { owner: "later", now: 1e12 - 1, until: 2e12, limit: 50 })).toEqual([]);
    expect(await later.claim("jobs", "q", { owner: "later", now: 1e12, until: 2e12, limit: 50 })).toHaveLength(40);
    await Promise.all([...stores, later].map((store) => store.close()));
  });

  it("lets write transactions take turns, so concurrent increments never conflict", async () => {
    const { connection, schema } = await testDatabase();
    const stores = await Promise.all([0, 1].map(() => PostgresStore.open(connection, { schema })));
    await stores[0]!.transaction(async (tx) => tx.put("counters", { id: "c", n: 0 }, { scope: "s" }));
    let runs = 0;
    const increment = (store: PostgresStore) =>
      store.transaction(async (tx) => {
        runs++;
        const current = (await tx.get("counters", "c")) as { id: string; n: number };
        await tx.put("counters", { id: "c", n: current.n + 1 }, { scope: "s" });
      });
    // Two store objects (as two instances would be) and several writers each.
    await Promise.all(stores.flatMap((store) => Array.from({ length: 8 }, () => increment(store))));
    expect(await stores[1]!.read(async (r) => (await r.get("counters", "c"))?.n)).toBe(16);
    expect(runs).toBe(16);
    await Promise.all(stores.map((store) => store.close()));
  });

  it.runIf(serverUrl)(
    "runs a transaction again, out of the caller's sight, when a concurrent writer conflicts",
    async () => {
      const { connection, schema } = await testDatabase();
      const store = await PostgresStore.open(connection, { schema });
      await store.transaction(async (tx) => tx.put("counters", { id: "c", n: 0 }, { scope: "s" }));
      let runs = 0;
      const result = await store.transaction(async (tx) => {
        runs++;
        const current = (await tx.get("counters", "c")) as { id: string; n: number };
        if (runs === 1) {
          // A writer that does not take the store's turn (another program on the database) changes the row the
          // transaction has read: its own write must then be refused, and the store runs it again.
          await queryDatabase(connection, `UPDATE "${schema}".records SET body = body WHERE collection = 'counters'`);
        }
        await tx.put("counters", { id: "c", n: current.n + 1 }, { scope: "s" });
        return current.n + 1;
      });
      expect(result).toBe(1);
      expect(runs).toBe(2);
      expect(await store.read(async (r) => (await r.get("counters", "c"))?.n)).toBe(1);
      await store.close();
    },
  );

  it.runIf(serverUrl)(
    "sends a transaction's puts with its COMMIT, yet a put whose key is held throws where it is awaited",
    async () => {
      const { connection, schema } = await testDatabase();
      const inner = new pg.Pool({ connectionString: connection as string, max: 2 });
      let queries = 0;
      const counting: SqlPool = {
        async connect() {
          const session = await inner.connect();
          return {
            query: (text, values) => {
              queries++;
              return session.query(text, values);
            },
            release: (destroy) => session.release(destroy),
          };
        },
        end: () => inner.end(),
      };
      const store = await PostgresStore.open(counting, { schema, endPoolOnClose: true });
      await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "x" } }));
      queries = 0;
      await store.transaction(async (tx) => {
        expect(await tx.list("things", "s")).toHaveLength(1);
        await Promise.all([1, 2, 3].map((n) => tx.put("things", { id: `n${n}` }, { scope: "s" })));
        // Answered from memory: the listing is read again (after the puts it must show them), the records not.
        expect(await tx.get("things", "n2")).toEqual({ id: "n2" });
      });
      // The opening with the listing; the puts with the COMMIT.
      expect(queries).toBe(2);
      let runs = 0;
      const caught = await store.transaction(async (tx) => {
        runs++;
        await tx.get("things", "a");
        try {
          await tx.put("things", { id: "b" }, { scope: "s", keys: { byName: "x" } });
        } catch (error) {
          await tx.put("things", { id: "c" }, { scope: "s", keys: { byName: "y" } });
          return error;
        }
        return undefined;
      });
      expect(caught).toBeInstanceOf(UniqueKeyViolation);
      // Once with the put deferred (its refusal failing the COMMIT), once with puts sent where they are awaited.
      expect(runs).toBe(2);
      await store.read(async (r) => {
        expect(await r.get("things", "b")).toBeUndefined();
        expect(await r.lookup("byName", "y")).toBe("c");
        expect((await r.list("things", "s")).map((t) => t.id)).toEqual(["a", "c", "n1", "n2", "n3"]);
      });
      await store.close();
    },
  );

  it("asks the server once for a row or a key a transaction reads again, not at all for one it wrote, and once for reads fired together", async () => {
    const { connection, schema } = await testDatabase();
    const inner: SqlPool =
      typeof connection === "string" ? new pg.Pool({ connectionString: connection, max: 2 }) : connection;
    const statements: string[] = [];
    // Every statement the store sends, through the pool's own sessions.
    const counting: SqlPool = {
      async connect() {
        const session = await inner.connect();
        return {
          query: (text, values) => {
            statements.push(text.replace(/\s+/g, " "));
            return session.query(text, values);
          },
          release: (destroy) => session.release(destroy),
        };
      },
      end: () => inner.end(),
    };
    const store = await PostgresStore.open(counting, { schema, endPoolOnClose: typeof connection === "string" });
    await store.transaction(async (tx) => tx.put("things", { id: "a", v: 1 }, { scope: "s", keys: { byName: "x" } }));
    statements.length = 0;
    await store.transaction(async (tx) => {
      for (let n = 0; n < 3; n++) {
        expect(await tx.get("things", "a")).toEqual({ id: "a", v: 1 });
        expect(await tx.lookup("byName", "x")).toBe("a");
        expect(await tx.lookup("byName", "new")).toBeUndefined();
      }
      await tx.put("things", { id: "b", v: 1 }, { scope: "s", keys: { byName: "new" } });
      expect(await tx.get("things", "b")).toEqual({ id: "b", v: 1 });
      expect(await tx.lookup("byName", "new")).toBe("b");
    });
    const reads = statements.filter((text) => text.includes(".read_many("));
    // One read of the record and two of keys; the reads after the put, remembered.
    expect(reads).toHaveLength(3);
    // The put checks its key and writes the record and the key in one statement: `put_many` when deferred (a
    // session that runs several statements in one query), `put_record` otherwise (PGlite).
    expect(
      statements.flatMap((text) => text.split("; ")).filter((text) => /\.put_(many|record)\(/.test(text)),
    ).toHaveLength(1);
    expect(statements.filter((text) => /^(INSERT|UPDATE|DELETE)/.test(text))).toEqual([]);
    await store.read(async (r) => {
      expect(await r.get("things", "b")).toEqual({ id: "b", v: 1 });
      expect(await r.lookup("byName", "new")).toBe("b");
    });
    // Reads fired at once share a statement, each with its own answer in its own order.
    statements.length = 0;
    const together = await store.read((r) =>
      Promise.all([
        r.get("things", "a"),
        r.lookup("byName", "x"),
        r.list("things", "s", { order: "desc" }),
        r.get("things", "missing"),
        r.list("things", "s", { limit: 1 }),
      ]),
    );
    expect(together).toEqual([
      { id: "a", v: 1 },
      "a",
      [
        { id: "b", v: 1 },
        { id: "a", v: 1 },
      ],
      undefined,
      [{ id: "a", v: 1 }],
    ]);
    expect(statements.filter((text) => text.includes(".read_many("))).toHaveLength(1);
    await store.close();
  });

  it("finds records whose ids hold quotes, backslashes and placeholders by a transaction's first read", async () => {
    const { connection, schema } = await testDatabase();
    const store = await PostgresStore.open(connection, { schema });
    const ids = ["it's", "back\\slash", "$1 and $2", "E'\\x00'", "naïve 😀"];
    // Written together as the transaction's first statements (one query on a server session), body and keys too.
    await store.transaction((tx) =>
      Promise.all(
        ids.map((id) =>
          tx.put("things", { id, note: `${id} \\' $1` }, { scope: "s'\\", keys: { byName: `name ${id}` } }),
        ),
      ),
    );
    for (const id of ids) {
      // Each the first statement of its transaction, alone and among others.
      expect(await store.read((r) => r.get("things", id))).toEqual({ id, note: `${id} \\' $1` });
      expect(await store.read((r) => Promise.all([r.lookup("byName", `name ${id}`), r.get("things", id)]))).toEqual([
        id,
        { id, note: `${id} \\' $1` },
      ]);
      expect(await store.transaction((tx) => tx.lookup("byName", `name ${id}`))).toBe(id);
    }
    expect((await store.read((r) => r.list("things", "s'\\", { after: "$1" }))).map((x) => x.id).sort()).toEqual(
      ids.filter((id) => id > "$1").sort(),
    );
    // Writes fired together run in call order: the second, wanting the key the first just took, is refused alone.
    const outcomes = await store.transaction((tx) =>
      Promise.allSettled([
        tx.put("things", { id: "first" }, { scope: "t", keys: { byName: "contested" } }),
        tx.put("things", { id: "second" }, { scope: "t", keys: { byName: "contested" } }),
        tx.put("things", { id: "third" }, { scope: "t" }),
      ]),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueKeyViolation);
    expect((await store.read((r) => r.list("things", "t"))).map((x) => x.id)).toEqual(["first", "third"]);
    expect(await store.read((r) => r.lookup("byName", "contested"))).toBe("first");
    await store.close();
  });

  it("refuses a schema name it would have to quote, and work after close", async () => {
    const { connection, schema } = await testDatabase();
    await expectCustodyError(
      PostgresStore.open(connection, { schema: 'x"; DROP TABLE y; --' }),
      "INVALID_ARGUMENT",
      "schema",
    );
    const store = await PostgresStore.open(connection, { schema });
    await store.close();
    await expectCustodyError(
      store.read(async () => undefined),
      "FAILED_PRECONDITION",
    );
  });
});
