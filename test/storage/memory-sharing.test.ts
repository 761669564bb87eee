/**
 * What MemoryStore shares instead of copying (#19): its own frozen copies, and the policy module's shared
 * evaluation records, are branded as frozen all the way down; a record built from them shares them whole. The
 * brand must stay invisible to anything that reads a record as data, and a caller's frozen object that could
 * still change is never taken for one.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/index.js";
import { addPolicy, organizationWithMembers, walletParameters } from "../support/consensus.js";

describe("MemoryStore sharing", () => {
  it("shares the parts of a stored record that a new record is built from", async () => {
    const store = new MemoryStore();
    await store.transaction(async (tx) =>
      tx.put("things", { id: "a", status: "old", votes: [{ v: 1 }], intent: { x: { y: "z" } } }, { scope: "s" }),
    );
    const first = (await store.read(async (r) => r.get("things", "a"))) as Record<string, unknown>;
    await store.transaction(async (tx) => tx.put("things", { ...first, id: "b", status: "new" }, { scope: "s" }));
    const second = (await store.read(async (r) => r.get("things", "b"))) as Record<string, unknown>;
    expect(second.votes).toBe(first.votes);
    expect(second.intent).toBe(first.intent);
    expect(second).toEqual({ id: "b", status: "new", votes: [{ v: 1 }], intent: { x: { y: "z" } } });
  });

  it("hands out records that read as plain data: no extra keys, symbols, or members in copies", async () => {
    const store = new MemoryStore();
    const written = { id: "a", list: [1, { two: 2 }], nested: { deep: { deeper: "x" } } };
    await store.transaction(async (tx) => tx.put("things", written, { scope: "s" }));
    const got = (await store.read(async (r) => r.get("things", "a"))) as typeof written;
    for (const part of [got, got.list, got.list[1] as object, got.nested, got.nested.deep]) {
      expect(Object.getOwnPropertySymbols(part)).toEqual([]);
      expect(Reflect.ownKeys(part)).toEqual(Array.isArray(part) ? [...Object.keys(part), "length"] : Object.keys(part));
      expect(Object.getPrototypeOf(part)).toBe(Array.isArray(part) ? Array.prototype : Object.prototype);
    }
    expect(structuredClone(got)).toEqual(written);
    expect(JSON.parse(JSON.stringify(got))).toEqual(written);
    // A copy the caller takes is the caller's: plain, unfrozen, unbranded, so the store copies it when put again.
    const copy = structuredClone(got);
    expect(Object.isFrozen(copy)).toBe(false);
    await store.transaction(async (tx) => tx.put("things", { ...copy, id: "b" }, { scope: "s" }));
    copy.nested.deep.deeper = "changed";
    const again = (await store.read(async (r) => r.get("things", "b"))) as typeof written;
    expect(again.nested.deep.deeper).toBe("x");
  });

  it("copies a caller's frozen object whose members can change, and keeps what it held", async () => {
    const store = new MemoryStore();
    const inner = { v: 1 };
    const frozenOutside = Object.freeze({ inner: Object.freeze({ inner }) });
    await store.transaction(async (tx) => tx.put("things", { id: "a", part: frozenOutside }, { scope: "s" }));
    inner.v = 2;
    const got = (await store.read(async (r) => r.get("things", "a"))) as unknown as { part: unknown };
    expect(got.part).not.toBe(frozenOutside);
    expect(got.part).toEqual({ inner: { inner: { v: 1 } } });
  });

  it("stores a policy's evaluation once for every activity it decided the same way", async () => {
    const store = new MemoryStore();
    const { root, organizationId, members } = await organizationWithMembers(["alice"], { store });
    await addPolicy(root, organizationId, {
      policyName: "alice creates wallets",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${members.alice.userId}')`,
      condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    });
    const activityIds: string[] = [];
    for (const name of ["one", "two"]) {
      const { activity } = await members.alice.as.createWallet({ organizationId, parameters: walletParameters(name) });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      activityIds.push(activity.id);
    }
    // Each activity's evaluation records are scoped by the activity.
    const [first, second] = await store.read(async (r) =>
      Promise.all(
        activityIds.map(
          async (id) => ((await r.list("policyEvaluations", id)) as unknown as { evaluations: object[] }[])[0],
        ),
      ),
    );
    expect(first?.evaluations).toHaveLength(1);
    expect(first?.evaluations[0]).toMatchObject({ policyName: "alice creates wallets", outcome: "OUTCOME_ALLOW" });
    // The same object in both: one policy's outcome is stored once, however many activities it decides.
    expect(second?.evaluations[0]).toBe(first?.evaluations[0]);
    expect(Object.isFrozen(first?.evaluations[0])).toBe(true);
  });
});
