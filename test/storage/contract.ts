/**
 * The storage contract: every adapter runs this suite (`runStoreContract(name, open)`).
 */
import { describe, expect, it } from "vitest";
import { type ListOptions, type Store, type StoreTransaction, UniqueKeyViolation } from "../../src/storage/store.js";
import { expectCustodyError } from "../support/custody-error.js";

/** Opens a fresh, empty store. */
export type OpenStore = () => Promise<Store>;

const pad = (n: number) => `id-${String(n).padStart(6, "0")}`;

/** What an adapter may do differently and still keep the contract. */
export interface ContractOptions {
  /**
   * The store has one database session (PGlite): a `read` started while a transaction is open waits for it
   * to finish instead of running beside it. It must still never see the transaction's uncommitted writes.
   */
  singleSession?: boolean;
  /**
   * Transactions run side by side (PostgreSQL on a server): one that starts while another is open may be
   * ordered before it, so it need not see the other's later commit. It must still never see uncommitted writes.
   */
  concurrentTransactions?: boolean;
}

export function runStoreContract(name: string, open: OpenStore, options: ContractOptions = {}): void {
  describe(`${name}: storage contract`, () => {
    it("commits every write of a transaction at once", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.put("things", { id: "a", value: 1 }, { scope: "s", keys: { thingByName: "alpha" } });
        await tx.put("things", { id: "b", value: 2 }, { scope: "s" });
        expect(await tx.get("things", "a")).toEqual({ id: "a", value: 1 });
      });
      await store.read(async (r) => {
        expect(await r.get("things", "a")).toEqual({ id: "a", value: 1 });
        expect(await r.lookup("thingByName", "alpha")).toBe("a");
        expect((await r.list("things", "s")).map((x) => x.id)).toEqual(["a", "b"]);
      });
      await store.close();
    });

    it("rolls back everything when the transaction throws", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("things", { id: "a", value: 1 }, { scope: "s", keys: { k: "a" } }));
      await expect(
        store.transaction(async (tx) => {
          await tx.put("things", { id: "a", value: 99 }, { scope: "s", keys: { k: "changed" } });
          await tx.put("things", { id: "b", value: 2 }, { scope: "s", keys: { k: "b" } });
          await tx.delete("things", "a");
          throw new Error("handler failed");
        }),
      ).rejects.toThrow("handler failed");
      await store.read(async (r) => {
        expect(await r.get("things", "a")).toEqual({ id: "a", value: 1 });
        expect(await r.get("things", "b")).toBeUndefined();
        expect(await r.lookup("k", "a")).toBe("a");
        expect(await r.lookup("k", "changed")).toBeUndefined();
        expect(await r.lookup("k", "b")).toBeUndefined();
        expect((await r.list("things", "s")).map((x) => x.id)).toEqual(["a"]);
      });
      await store.close();
    });

    it("keeps uncommitted writes invisible to readers and to other transactions", async () => {
      const store = await open();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      const first = store.transaction(async (tx) => {
        await tx.put("things", { id: "a", value: 1 }, { scope: "s" });
        wrote();
        await gate;
      });
      await written;
      let released = false;
      const reading = store.read(async (r) => ({ value: (await r.get("things", "a"))?.value, whileOpen: !released }));
      if (!options.singleSession) expect(await reading).toEqual({ value: undefined, whileOpen: true });
      let secondRead!: () => void;
      const secondHasRead = new Promise<void>((resolve) => {
        secondRead = resolve;
      });
      const second = store.transaction(async (tx) => {
        const value = (await tx.get("things", "a"))?.value ?? null;
        secondRead();
        return value;
      });
      if (options.concurrentTransactions) await secondHasRead;
      released = true;
      release();
      await first;
      // A single-session store's reader ran after the commit, and saw it.
      if (options.singleSession) expect(await reading).toEqual({ value: 1, whileOpen: false });
      // Serializable: a queued second transaction runs after the first and sees its commit; one running beside
      // the first read before the commit and is ordered before it.
      expect(await second).toBe(options.concurrentTransactions ? null : 1);
      await store.close();
    });

    it("serializes read-modify-write transactions so no update is lost", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("counters", { id: "c", n: 0 }, { scope: "s" }));
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.transaction(async (tx) => {
            const current = (await tx.get("counters", "c")) as { id: string; n: number };
            await Promise.resolve();
            await tx.put("counters", { id: "c", n: current.n + 1 }, { scope: "s" });
          }),
        ),
      );
      await store.read(async (r) => expect((await r.get("counters", "c"))?.n).toBe(20));
      await store.close();
    });

    it("stays serializable whatever partition a transaction names, or none", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("counters", { id: "c", n: 0 }, { scope: "s" }));
      // Every writer changes the one counter, each naming a partition of its own (a wrong hint) or none.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.transaction(
            async (tx) => {
              const current = (await tx.get("counters", "c")) as { id: string; n: number };
              await Promise.resolve();
              await tx.put("counters", { id: "c", n: current.n + 1 }, { scope: "s" });
            },
            i % 5 === 0 ? {} : { partition: `p${i % 5}` },
          ),
        ),
      );
      await store.read(async (r) => expect((await r.get("counters", "c"))?.n).toBe(20));
      await store.close();
    });

    it("refuses a unique key held by another record and frees keys on replace and delete", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "x" } }));
      await expect(
        store.transaction(async (tx) => tx.put("things", { id: "b" }, { scope: "s", keys: { byName: "x" } })),
      ).rejects.toBeInstanceOf(UniqueKeyViolation);
      await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "y" } }));
      await store.transaction(async (tx) => tx.put("things", { id: "b" }, { scope: "s", keys: { byName: "x" } }));
      await store.transaction(async (tx) => tx.delete("things", "a"));
      await store.read(async (r) => {
        expect(await r.lookup("byName", "x")).toBe("b");
        expect(await r.lookup("byName", "y")).toBeUndefined();
        expect((await r.list("things", "s")).map((x) => x.id)).toEqual(["b"]);
      });
      await store.close();
    });

    it("refuses to move a record between scopes, even by deleting and re-putting it in one transaction", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("things", { id: "a", v: 1 }, { scope: "s1" }));
      await expect(
        store.transaction(async (tx) => tx.put("things", { id: "a", v: 2 }, { scope: "s2" })),
      ).rejects.toThrow(/scope/);
      await expect(
        store.transaction(async (tx) => {
          await tx.delete("things", "a");
          await tx.put("things", { id: "a", v: 2 }, { scope: "s2" });
        }),
      ).rejects.toThrow(/scope/);
      await store.read(async (r) => {
        expect((await r.list("things", "s1")).map((x) => x.v)).toEqual([1]);
        expect(await r.list("things", "s2")).toEqual([]);
      });
      // Deleting and re-creating in the same scope is fine.
      await store.transaction(async (tx) => {
        await tx.delete("things", "a");
        await tx.put("things", { id: "a", v: 3 }, { scope: "s1" });
      });
      await store.read(async (r) => expect((await r.list("things", "s1")).map((x) => x.v)).toEqual([3]));
      await store.close();
    });

    it("refuses an id, scope or key holding NUL, finds nothing under one, and pages past one as past its prefix", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        for (const id of ["a", "a\u0001", "ab", "b"]) await tx.put("things", { id }, { scope: "s", keys: { k: id } });
      });
      const refusals: [string, (tx: StoreTransaction) => Promise<void>][] = [
        ["id", (tx) => tx.put("things", { id: "a\u0000b" }, { scope: "s" })],
        ["placement.scope", (tx) => tx.put("things", { id: "c" }, { scope: "s\u0000" })],
        ["placement.keys.k", (tx) => tx.put("things", { id: "c" }, { scope: "s", keys: { k: "\u0000" } })],
      ];
      for (const [field, write] of refusals) {
        const error = await expectCustodyError(store.transaction(write), "INVALID_ARGUMENT", field);
        expect(error.details.reason).toBe("NUL_CHARACTER");
      }
      // A refused put leaves the transaction usable, and nothing of it is stored.
      await store.transaction(async (tx) => {
        await expect(tx.put("things", { id: "\u0000" }, { scope: "s" })).rejects.toThrow(/NUL/);
        await tx.put("things", { id: "c" }, { scope: "s" });
        await tx.delete("things", "a\u0000");
      });
      await store.read(async (r) => {
        expect(await r.get("things", "a\u0000b")).toBeUndefined();
        expect(await r.lookup("k", "a\u0000")).toBeUndefined();
        expect(await r.list("things", "s\u0000")).toEqual([]);
        const ids = async (options: Parameters<typeof r.list>[2]) =>
          (await r.list("things", "s", options)).map((x) => x.id);
        expect(await ids({})).toEqual(["a", "a\u0001", "ab", "b", "c"]);
        expect(await ids({ after: "a\u0000z" })).toEqual(["a\u0001", "ab", "b", "c"]);
        expect(await ids({ before: "a\u0000z" })).toEqual(["a"]);
        expect(await ids({ before: "ab\u0000", order: "desc" })).toEqual(["ab", "a\u0001", "a"]);
      });
      await store.close();
    });

    it("returns frozen records: a reader cannot change what is stored", async () => {
      const store = await open();
      const written = { id: "a", nested: { v: 1 } };
      await store.transaction(async (tx) => tx.put("things", written, { scope: "s" }));
      // The writer's own object stays its own: changing it later changes nothing stored.
      written.nested.v = 3;
      await store.read(async (r) => {
        const got = (await r.get("things", "a")) as { id: string; nested: { v: number } };
        expect(Object.isFrozen(got) && Object.isFrozen(got.nested)).toBe(true);
        expect(() => {
          got.nested.v = 2;
        }).toThrow(TypeError);
      });
      await store.read(async (r) => expect(await r.get("things", "a")).toEqual({ id: "a", nested: { v: 1 } }));
      await store.close();
    });

    it("keeps what a frozen part held when it was written, and shares nothing mutable", async () => {
      const store = await open();
      // One frozen part put in many records (as a policy's evaluation is), and frozen parts that can still
      // change: one through a getter, one whose member is not frozen.
      const shared = Object.freeze({ policyId: "p", outcome: "OUTCOME_ALLOW" });
      let reads = 0;
      const getter = Object.freeze(
        Object.defineProperty({}, "n", {
          enumerable: true,
          get: () => ++reads,
        }),
      );
      const inner = { v: 1 };
      const shallow = Object.freeze({ inner });
      await store.transaction(async (tx) => {
        for (const id of ["a", "b"]) await tx.put("things", { id, parts: [shared, shared] }, { scope: "s" });
        await tx.put("things", { id: "c", getter, shallow }, { scope: "s" });
      });
      inner.v = 2;
      await store.transaction(async (tx) => tx.put("things", { id: "d", getter, shallow }, { scope: "s" }));
      await store.read(async (r) => {
        expect(await r.get("things", "a")).toEqual({ id: "a", parts: [shared, shared] });
        expect(await r.get("things", "b")).toEqual({ id: "b", parts: [shared, shared] });
        expect(await r.get("things", "c")).toEqual({ id: "c", getter: { n: 1 }, shallow: { inner: { v: 1 } } });
        expect(await r.get("things", "d")).toEqual({ id: "d", getter: { n: 2 }, shallow: { inner: { v: 2 } } });
      });
      await store.close();
    });

    it("pages a scope forwards and backwards with cursors, in id order", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        // Inserted out of order: listings follow ids, not insertion.
        for (const n of [5, 1, 4, 2, 3, 9, 7, 8, 6, 0]) await tx.put("things", { id: pad(n) }, { scope: "s" });
        await tx.put("things", { id: pad(100) }, { scope: "other" });
      });
      await store.read(async (r) => {
        const ids = async (options: Parameters<typeof r.list>[2]) =>
          (await r.list("things", "s", options)).map((x) => x.id);
        expect(await ids({ limit: 3 })).toEqual([pad(0), pad(1), pad(2)]);
        expect(await ids({ after: pad(2), limit: 3 })).toEqual([pad(3), pad(4), pad(5)]);
        expect(await ids({ after: pad(8) })).toEqual([pad(9)]);
        expect(await ids({ order: "desc", limit: 2 })).toEqual([pad(9), pad(8)]);
        expect(await ids({ before: pad(3), order: "desc" })).toEqual([pad(2), pad(1), pad(0)]);
        expect(await ids({ after: pad(2), before: pad(5) })).toEqual([pad(3), pad(4)]);
        // A cursor that names a record no longer there still positions the page.
        expect(await ids({ after: "id-000002x", limit: 1 })).toEqual([pad(3)]);
        expect(await ids({ limit: 0 })).toEqual([]);
        expect((await r.list("things", "other")).map((x) => x.id)).toEqual([pad(100)]);
        expect(await r.list("things", "missing")).toEqual([]);
      });
      await store.close();
    });

    it("lists a scope as it grows from one record to several and shrinks back to none", async () => {
      const store = await open();
      const listed = async (options?: ListOptions) =>
        store.read(async (r) => (await r.list("things", "few", options)).map((x) => x.id));
      const put = (id: string) => store.transaction(async (tx) => tx.put("things", { id }, { scope: "few" }));
      const drop = (id: string) => store.transaction(async (tx) => tx.delete("things", id));
      await put("m");
      expect(await listed()).toEqual(["m"]);
      expect(await listed({ after: "m" })).toEqual([]);
      expect(await listed({ before: "n", order: "desc" })).toEqual(["m"]);
      await drop("m");
      expect(await listed()).toEqual([]);
      await put("m");
      await put("z");
      await put("a");
      expect(await listed()).toEqual(["a", "m", "z"]);
      await drop("m");
      await drop("z");
      expect(await listed()).toEqual(["a"]);
      await drop("a");
      expect(await listed()).toEqual([]);
      await put("b");
      await store.transaction(async (tx) => {
        await tx.put("things", { id: "b", v: 2 }, { scope: "few" });
        expect((await tx.list("things", "few")).map((x) => x.id)).toEqual(["b"]);
      });
      expect(await listed()).toEqual(["b"]);
      await store.close();
    });

    it("keeps every index key of a record placed under several, and none for an empty key set", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "alpha", byCode: "A" } });
        await tx.put("things", { id: "b" }, { scope: "s", keys: {} });
      });
      await store.read(async (r) => {
        expect(await r.lookup("byName", "alpha")).toBe("a");
        expect(await r.lookup("byCode", "A")).toBe("a");
      });
      await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "beta" } }));
      await store.read(async (r) => {
        expect(await r.lookup("byName", "alpha")).toBeUndefined();
        expect(await r.lookup("byCode", "A")).toBeUndefined();
        expect(await r.lookup("byName", "beta")).toBe("a");
        expect((await r.list("things", "s")).map((x) => x.id)).toEqual(["a", "b"]);
      });
      await store.transaction(async (tx) => tx.delete("things", "a"));
      await store.read(async (r) => expect(await r.lookup("byName", "beta")).toBeUndefined());
      await store.close();
    });

    it("lists a transaction's own inserts and deletes merged with committed records", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        for (const n of [0, 2, 4]) await tx.put("things", { id: pad(n) }, { scope: "s" });
      });
      await store.transaction(async (tx) => {
        await tx.put("things", { id: pad(1) }, { scope: "s" });
        await tx.put("things", { id: pad(5) }, { scope: "s" });
        await tx.delete("things", pad(2));
        await tx.put("things", { id: pad(6) }, { scope: "s" });
        await tx.delete("things", pad(6));
        expect((await tx.list("things", "s")).map((x) => x.id)).toEqual([pad(0), pad(1), pad(4), pad(5)]);
        expect((await tx.list("things", "s", { order: "desc", limit: 2 })).map((x) => x.id)).toEqual([pad(5), pad(4)]);
      });
      await store.read(async (r) =>
        expect((await r.list("things", "s")).map((x) => x.id)).toEqual([pad(0), pad(1), pad(4), pad(5)]),
      );
      await store.close();
    });

    it("reads its own writes record by record and key by key, whatever it read before them", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.put("things", { id: "a", v: 1 }, { scope: "s", keys: { byName: "x" } });
        await tx.put("things", { id: "b", v: 1 }, { scope: "s", keys: { byName: "z" } });
      });
      await store.transaction(async (tx) => {
        // Each read below follows a read of the same row, and a write between them must show.
        expect(await tx.get("things", "a")).toEqual({ id: "a", v: 1 });
        expect(await tx.lookup("byName", "x")).toBe("a");
        expect(await tx.lookup("byName", "y")).toBeUndefined();
        await tx.put("things", { id: "a", v: 2 }, { scope: "s", keys: { byName: "y" } });
        expect(await tx.get("things", "a")).toEqual({ id: "a", v: 2 });
        expect(await tx.lookup("byName", "x")).toBeUndefined();
        expect(await tx.lookup("byName", "y")).toBe("a");
        // A put refused for its key changes nothing, and what was read stays as it was.
        await expect(tx.put("things", { id: "b", v: 2 }, { scope: "s", keys: { byName: "y" } })).rejects.toBeInstanceOf(
          UniqueKeyViolation,
        );
        expect(await tx.get("things", "b")).toEqual({ id: "b", v: 1 });
        expect(await tx.lookup("byName", "z")).toBe("b");
        await tx.delete("things", "a");
        expect(await tx.get("things", "a")).toBeUndefined();
        expect(await tx.lookup("byName", "y")).toBeUndefined();
        expect(await tx.get("things", "c")).toBeUndefined();
        await tx.put("things", { id: "c", v: 1 }, { scope: "s", keys: { byName: "y" } });
        expect(await tx.get("things", "c")).toEqual({ id: "c", v: 1 });
        expect(await tx.lookup("byName", "y")).toBe("c");
        // Two reads of one row at once agree.
        const [first, second] = await Promise.all([tx.get("things", "c"), tx.get("things", "c")]);
        expect(first).toEqual(second);
      });
      await store.read(async (r) => {
        expect(await r.get("things", "a")).toBeUndefined();
        expect(await r.get("things", "c")).toEqual({ id: "c", v: 1 });
        expect(await r.lookup("byName", "y")).toBe("c");
        expect(await r.lookup("byName", "x")).toBeUndefined();
      });
      await store.close();
    });

    it("refuses every call on a transaction kept past its end, even a read of a row it read", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("things", { id: "a" }, { scope: "s", keys: { byName: "x" } }));
      let kept: StoreTransaction | undefined;
      await store.transaction(async (tx) => {
        kept = tx;
        expect(await tx.get("things", "a")).toEqual({ id: "a" });
        expect(await tx.lookup("byName", "x")).toBe("a");
      });
      const ended = kept as StoreTransaction;
      await expectCustodyError(ended.get("things", "a"), "FAILED_PRECONDITION");
      await expectCustodyError(ended.lookup("byName", "x"), "FAILED_PRECONDITION");
      await expectCustodyError(ended.list("things", "s"), "FAILED_PRECONDITION");
      await expectCustodyError(ended.put("things", { id: "b" }, { scope: "s" }), "FAILED_PRECONDITION");
      await expectCustodyError(ended.delete("things", "a"), "FAILED_PRECONDITION");
      await store.read(async (r) => expect(await r.get("things", "b")).toBeUndefined());
      await store.close();
    });

    it("keeps indexes consistent with records through many random operations", async () => {
      const store = await open();
      const model = new Map<string, string>(); // id → key
      let seed = 7;
      const next = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed;
      };
      for (let round = 0; round < 40; round++) {
        const fail = next() % 4 === 0;
        const staged = new Map(model);
        await store
          .transaction(async (tx) => {
            for (let op = 0; op < 5; op++) {
              const id = pad(next() % 12);
              if (next() % 3 === 0) {
                await tx.delete("things", id);
                staged.delete(id);
              } else {
                const key = `k${next() % 30}`;
                const holder = await tx.lookup("byKey", key);
                if (holder !== undefined && holder !== id) continue;
                await tx.put("things", { id, key }, { scope: "s", keys: { byKey: key } });
                staged.set(id, key);
              }
            }
            if (fail) throw new Error("rollback");
          })
          .then(
            () => {
              model.clear();
              for (const [k, v] of staged) model.set(k, v);
            },
            () => undefined,
          );
      }
      await store.read(async (r) => {
        const listed = await r.list("things", "s");
        expect(listed.map((x) => x.id)).toEqual([...model.keys()].sort());
        for (const [id, key] of model) {
          expect(await r.lookup("byKey", key)).toBe(id);
          expect((await r.get("things", id))?.key).toBe(key);
        }
      });
      await store.close();
    });

    it("lets a commit through under a steady stream of overlapping reads", async () => {
      const store = await open();
      let committed = false;
      let readsStarted = 0;
      const maxReads = 2000;
      // Four chains of reads, each read starting its successor before it ends, so some read is always
      // open: without writer preference the commit would wait for the stream to end. Bounded, not timed.
      const chain = (): Promise<void> =>
        new Promise<void>((done) => {
          const next = (): void => {
            if (committed || readsStarted >= maxReads) {
              done();
              return;
            }
            readsStarted++;
            void store.read(async (r) => {
              await r.get("things", "a");
              await new Promise((resolve) => setTimeout(resolve, 1));
              next();
            });
          };
          next();
        });
      const stream = Promise.all([chain(), chain(), chain(), chain()]);
      const commit = store
        .transaction(async (tx) => tx.put("things", { id: "a", value: 1 }, { scope: "s" }))
        .then(() => {
          committed = true;
        });
      await stream;
      const committedDuringStream = committed;
      await commit;
      expect(committedDuringStream).toBe(true);
      expect(readsStarted).toBeLessThan(maxReads);
      await store.read(async (r) => expect(await r.get("things", "a")).toEqual({ id: "a", value: 1 }));
      await store.close();
    });

    it("leases the lowest ids of a scope to one owner at a time, until the lease ends", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        for (const n of [4, 0, 3, 1, 2, 5]) await tx.put("jobs", { id: pad(n), n }, { scope: "q" });
        await tx.put("jobs", { id: pad(9) }, { scope: "elsewhere" });
      });
      const ids = (records: { id: string }[]) => records.map((x) => x.id);
      const lease = (owner: string, now: number, limit: number, before?: string) =>
        store.claim("jobs", "q", { owner, now, until: now + 100, limit, ...(before ? { before } : {}) });
      // Records come back whole, lowest ids first, at most `limit`, and only below `before`.
      expect(await lease("a", 1000, 2)).toEqual([
        { id: pad(0), n: 0 },
        { id: pad(1), n: 1 },
      ]);
      expect(ids(await lease("b", 1000, 10, pad(4)))).toEqual([pad(2), pad(3)]);
      // Held records are skipped by everyone, their holder included.
      expect(ids(await lease("a", 1050, 10))).toEqual([pad(4), pad(5)]);
      expect(await lease("c", 1099, 10)).toEqual([]);
      // A lease ends at `until`: at 1100 the first two are free again; the others were taken at 1050.
      expect(ids(await lease("c", 1100, 10))).toEqual([pad(0), pad(1), pad(2), pad(3)]);
      expect(await store.claim("jobs", "empty", { owner: "a", now: 0, until: 1, limit: 5 })).toEqual([]);
      await store.close();
    });

    it("ends a lease on release by its owner and when a transaction writes the record", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        for (const n of [0, 1, 2]) await tx.put("jobs", { id: pad(n), v: 1 }, { scope: "q" });
      });
      const claim = (owner: string) =>
        store.claim("jobs", "q", { owner, now: 0, until: 1_000_000, limit: 10 }).then((r) => r.map((x) => x.id));
      expect(await claim("a")).toEqual([pad(0), pad(1), pad(2)]);
      // Another owner's release changes nothing; the owner's own frees the record.
      await store.release("jobs", [pad(0)], "b");
      expect(await claim("b")).toEqual([]);
      await store.release("jobs", [pad(0), "missing"], "a");
      await store.release("jobs", [], "a");
      // A put replaces the record and ends its lease; so does a delete, and a record put again starts free.
      await store.transaction(async (tx) => {
        await tx.put("jobs", { id: pad(1), v: 2 }, { scope: "q" });
        await tx.delete("jobs", pad(2));
      });
      await store.transaction(async (tx) => tx.put("jobs", { id: pad(2), v: 3 }, { scope: "q" }));
      expect(await store.claim("jobs", "q", { owner: "b", now: 0, until: 1_000_000, limit: 10 })).toEqual([
        { id: pad(0), v: 1 },
        { id: pad(1), v: 2 },
        { id: pad(2), v: 3 },
      ]);
      // A lease is not data: the records read as they were written.
      await store.read(async (r) => expect(await r.get("jobs", pad(0))).toEqual({ id: pad(0), v: 1 }));
      await store.close();
    });

    it("gives each record to one of many owners claiming at once", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        for (let n = 0; n < 30; n++) await tx.put("jobs", { id: pad(n) }, { scope: "q" });
      });
      const rounds = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.claim("jobs", "q", { owner: `owner-${i}`, now: 0, until: 1_000_000, limit: 5 }),
        ),
      );
      const claimed = rounds.flat().map((x) => x.id);
      // 8 × 5 asked for, 30 there: every record went out, none twice.
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.sort()).toEqual(Array.from({ length: 30 }, (_, n) => pad(n)));
      await store.close();
    });

    it("refuses a claim without an owner or with a limit below one, and claims after close", async () => {
      const store = await open();
      await expectCustodyError(
        store.claim("jobs", "q", { owner: "", now: 0, until: 1, limit: 1 }),
        "INVALID_ARGUMENT",
        "owner",
      );
      await expectCustodyError(
        store.claim("jobs", "q", { owner: "a", now: 0, until: 1, limit: 0 }),
        "INVALID_ARGUMENT",
        "limit",
      );
      await expectCustodyError(
        store.claim("jobs", "q", { owner: "a", now: Number.NaN, until: 1, limit: 1 }),
        "INVALID_ARGUMENT",
        "now",
      );
      await store.close();
      await expectCustodyError(
        store.claim("jobs", "q", { owner: "a", now: 0, until: 1, limit: 1 }),
        "FAILED_PRECONDITION",
      );
    });
  });
}
