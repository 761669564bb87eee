/**
 * The durable view's undo layer on its own, commit by commit: after every apply and settle, the view must read as
 * a plain committed state fed only the settled change sets, and must hand out the very same entries (leases are
 * attached to them). FileStore settles a whole flush at a time; here any number of commits are in flight and
 * settle one by one.
 */
import { describe, expect, it } from "vitest";
import { DurableView } from "../../src/storage/file/durable-view.js";
import { type Change, CommittedState, Overlay, stateReader } from "../../src/storage/memory.js";
import type { StoreReader, StoreTransaction } from "../../src/storage/store.js";
import { seededNumbers } from "../support/seeded.js";

const pad = (n: number) => `id-${String(n).padStart(6, "0")}`;
const IDS = [1, 2, 3, 4, 5, 6, 7].map(pad);
const KEYS = ["ka", "kb", "kc", "kd", "ke"];
const SCOPES = ["s", "t", "u"];
const LISTINGS = [
  {},
  { order: "desc" },
  { after: pad(2), limit: 3 },
  { before: pad(6), order: "desc", limit: 2 },
  { after: pad(1), before: pad(7) },
] as const;

/** Runs `work` on an overlay of `state` and returns its change set. */
async function changesOf(state: CommittedState, work: (tx: StoreTransaction) => Promise<void>): Promise<Change[]> {
  const overlay = new Overlay(state, "test");
  await work(overlay);
  overlay.finish();
  return overlay.changes();
}

async function observe(reader: StoreReader): Promise<unknown> {
  const records: Record<string, unknown> = {};
  for (const id of IDS) records[id] = await reader.get("things", id);
  const keys: Record<string, unknown> = {};
  for (const key of KEYS) {
    keys[key] = await reader.lookup("byKey", key);
    keys[`other ${key}`] = await reader.lookup("byOther", key);
  }
  const lists: Record<string, string[]> = {};
  for (const scope of SCOPES) {
    for (const options of LISTINGS) {
      lists[`${scope} ${JSON.stringify(options)}`] = (await reader.list("things", scope, options)).map((r) => r.id);
    }
  }
  return { records, keys, lists };
}

async function expectSame(view: DurableView, reference: CommittedState, at: string): Promise<void> {
  expect(await observe(view.reader), at).toEqual(await observe(stateReader(reference)));
  for (const id of IDS) expect(view.entry("things", id), `${at} entry ${id}`).toBe(reference.entry("things", id));
  for (const scope of SCOPES) {
    expect([...view.scopeIds("things", scope)], `${at} scope ${scope}`).toEqual(reference.scopeIds("things", scope));
  }
}

describe("DurableView: the head with its in-flight commits undone", () => {
  it("reads as the settled commits alone while commits of the same records stack up in flight", async () => {
    const head = new CommittedState();
    const view = new DurableView(head);
    const reference = new CommittedState();
    const put = (id: string, v: number, scope: string, key?: string) => (tx: StoreTransaction) =>
      tx.put("things", { id, v }, key === undefined ? { scope } : { scope, keys: { byKey: key } });

    const first = await changesOf(head, put(pad(1), 1, "s", "ka"));
    view.apply(1, first);
    await expectSame(view, reference, "created in flight");
    const second = await changesOf(head, put(pad(1), 2, "s", "kb"));
    view.apply(2, second);
    const third = await changesOf(head, (tx) => tx.delete("things", pad(1)));
    view.apply(3, third);
    const fourth = await changesOf(head, put(pad(1), 4, "t", "ka"));
    view.apply(4, fourth);
    await expectSame(view, reference, "four in flight");
    for (const [sequence, changes] of [first, second, third, fourth].entries()) {
      view.settle(sequence + 1);
      reference.apply(changes);
      await expectSame(view, reference, `settled ${sequence + 1}`);
    }
    expect(await view.reader.get("things", pad(1))).toEqual({ id: pad(1), v: 4 });
    expect(view.lookup("byKey", "ka")).toBe(pad(1));
  });

  it("refuses to settle any commit but the oldest in flight, and to apply out of order", async () => {
    const head = new CommittedState();
    const view = new DurableView(head);
    const changes = await changesOf(head, (tx) => tx.put("things", { id: pad(1) }, { scope: "s" }));
    view.apply(5, changes);
    expect(() => view.apply(5, [])).toThrow(/applied after commit 5/);
    expect(() => view.settle(6)).toThrow(/oldest in flight is 5/);
    view.settle(5);
    expect(() => view.settle(5)).toThrow(/oldest in flight is undefined/);
  });

  it.each([11, 12, 13, 14, 15, 16])("random commits settled one by one, seed %i", async (seed) => {
    const next = seededNumbers(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const head = new CommittedState(2); // a small warm window: records read through the view go cold and back
    const view = new DurableView(head);
    const reference = new CommittedState();
    const inFlight: { sequence: number; changes: Change[] }[] = [];
    let sequence = 0;
    for (let step = 0; step < 400; step++) {
      if (inFlight.length === 0 || next() < 0.55) {
        const ids = [...IDS].sort(() => next() - 0.5).slice(0, 1 + Math.floor(next() * 4));
        const v = step;
        const changes = await changesOf(head, async (tx) => {
          for (const id of ids) {
            if (next() < 0.3) {
              await tx.delete("things", id);
              continue;
            }
            const current = (await tx.get("things", id)) as { scope: string } | undefined;
            const scope = current?.scope ?? pick(SCOPES);
            const wanted = next() < 0.2 ? undefined : pick(KEYS);
            const holder = wanted === undefined ? undefined : await tx.lookup("byKey", wanted);
            const key = holder === undefined || holder === id ? wanted : undefined;
            // Some records have a second index, with key strings the first one uses too.
            const other = next() < 0.3 ? pick(KEYS) : undefined;
            const otherHolder = other === undefined ? undefined : await tx.lookup("byOther", other);
            const keys: Record<string, string> = {};
            if (key !== undefined) keys.byKey = key;
            if (other !== undefined && (otherHolder === undefined || otherHolder === id)) keys.byOther = other;
            await tx.put("things", { id, v, scope }, { scope, keys });
          }
        });
        if (changes.length === 0) continue;
        view.apply(++sequence, changes);
        inFlight.push({ sequence, changes });
      } else {
        const oldest = inFlight.shift() as { sequence: number; changes: Change[] };
        view.settle(oldest.sequence);
        reference.apply(oldest.changes);
      }
      await expectSame(view, reference, `step ${step}, ${inFlight.length} in flight`);
    }
    for (const { sequence: settled, changes } of inFlight.splice(0)) {
      view.settle(settled);
      reference.apply(changes);
    }
    await expectSame(view, reference, "all settled");
    expect(await observe(stateReader(head))).toEqual(await observe(stateReader(reference)));
  });
});
