/**
 * An index of an organization's policies on what their conditions test. Most conditions name a field that
 * must hold one of a few values for them to be true (`wallet.id == '…'`, `activity.type in […]`), and most
 * policies of one organization differ in it; so for one activity, a lookup of that field's value finds the few
 * policies that can apply, and every other one is known to have a false condition without judging it.
 *
 * A condition is known false that way only when its fast path would give a bool: every field it reads is
 * readable with the type its tests need (checked once per decision for each set of such needs, which the
 * policies share), no string it reads is long, and its steps fit the budget (see `condition-needs.ts`).
 *
 * @module
 */

import { type ConditionNeeds, conditionNeeds, type FieldType, LONG_STRING } from "./condition-needs.js";
import type { CompiledPolicy } from "./evaluate-policy.js";
import type { FieldCache } from "./evaluator.js";
import { type FieldRead, readField, type Scalar } from "./field-tests.js";
import type { PolicyContext } from "./types.js";
import { ownField } from "./values.js";

/** Fields (by their place in {@link PolicyIndex.reads}) with the types some policies need of them. */
interface Needs {
  readonly slots: readonly number[];
  readonly types: readonly FieldType[];
  /** The policies that need exactly these (and are keyed). */
  readonly policies: number[];
}

/** A field some policies are keyed on: the policies whose condition can be true for each value. */
interface Key {
  readonly slot: number;
  readonly byValue: Map<Scalar, number[]>;
}

/**
 * What one activity's field values select: whether each set of needs is met, and for each key, the
 * policies its value leaves (the same array for the same value).
 */
export interface Selection {
  readonly met: readonly boolean[];
  readonly found: readonly (readonly number[] | undefined)[];
  /**
   * For each set of needs not met only because some fields' keywords are absent from the activity (every other
   * field readable with its type): which of its fields those are. Such a condition fails at its first read of
   * an absent keyword, whatever the other fields hold, so it fails the same way for every activity that lacks
   * the same keywords.
   */
  readonly absent: readonly (string | undefined)[];
}

const NONE: readonly number[] = [];

export class PolicyIndex {
  /** Every field the policies' conditions read, once each. */
  readonly reads: readonly FieldRead[];
  /** Whether every policy's outcome depends on {@link reads}, the approvers and the credentials alone. */
  readonly allPure: boolean;
  private readonly needs: Needs[];
  private readonly keys: Key[];
  /** The policies judged for every activity: not keyed (a `time`, no condition, a shape of other tests). */
  private readonly always: readonly number[];
  /** Each policy's set of needs (its place in {@link needs}), or -1 for one judged always. */
  private readonly needsOf: Int32Array;

  private constructor(
    private readonly size: number,
    reads: FieldRead[],
    allPure: boolean,
    needs: Needs[],
    keys: Key[],
    always: number[],
  ) {
    this.reads = reads;
    this.allPure = allPure;
    this.needs = needs;
    this.keys = keys;
    this.always = always;
    this.needsOf = new Int32Array(size).fill(-1);
    needs.forEach(({ policies }, n) => {
      for (const i of policies) this.needsOf[i] = n;
    });
  }

  /** The index of `policies`, or `undefined` when some field they read has no path number to share. */
  static of(policies: readonly CompiledPolicy[]): PolicyIndex | undefined {
    const reads: FieldRead[] = [];
    const slotOf = new Map<number, number>();
    let allPure = true;
    for (const policy of policies) {
      const own = policy.fieldReads;
      if (own === undefined) {
        allPure = false;
        continue;
      }
      for (const read of own) {
        if (read.pathId === undefined) return undefined;
        if (!slotOf.has(read.pathId)) {
          slotOf.set(read.pathId, reads.length);
          reads.push(read);
        }
      }
    }
    const analysed = policies.map((policy) => keyable(policy));
    const keyOf = chooseKeys(analysed);
    const needs: Needs[] = [];
    const needsByText = new Map<string, Needs>();
    const keys: Key[] = [];
    const keyBySlot = new Map<number, Key>();
    const always: number[] = [];
    analysed.forEach((found, i) => {
      const pathId = keyOf[i];
      if (found === undefined || pathId === undefined) {
        always.push(i);
        return;
      }
      const entries = [...found.types]
        .map(([id, type]) => [slotOf.get(id) as number, type] as const)
        .sort(([a], [b]) => a - b);
      const text = entries.map(([slot, type]) => `${slot}:${type}`).join(",");
      let shared = needsByText.get(text);
      if (shared === undefined) {
        shared = { slots: entries.map(([slot]) => slot), types: entries.map(([, type]) => type), policies: [] };
        needsByText.set(text, shared);
        needs.push(shared);
      }
      shared.policies.push(i);
      const slot = slotOf.get(pathId) as number;
      let key = keyBySlot.get(slot);
      if (key === undefined) {
        key = { slot, byValue: new Map() };
        keyBySlot.set(slot, key);
        keys.push(key);
      }
      for (const value of found.necessary.get(pathId) as ReadonlySet<Scalar>) {
        const list = key.byValue.get(value);
        if (list === undefined) key.byValue.set(value, [i]);
        else list.push(i);
      }
    });
    return new PolicyIndex(policies.length, reads, allPure, needs, keys, always);
  }

  /**
   * The value of each of {@link reads} in `context` (`undefined` for one the fast path cannot read), or
   * `undefined` when one is a long string: its steps then depend on its length, and nothing is skipped.
   */
  values(context: PolicyContext, fieldCache: FieldCache): unknown[] | undefined {
    const values: unknown[] = [];
    for (const read of this.reads) {
      const value = readField(context, read, fieldCache);
      if (typeof value === "string" && value.length >= LONG_STRING) return undefined;
      values.push(value);
    }
    return values;
  }

  /** What `values` (from {@link values}, read in `context`) select. */
  select(values: readonly unknown[], context: PolicyContext): Selection {
    const met: boolean[] = [];
    const absent: (string | undefined)[] = [];
    for (const { slots, types } of this.needs) {
      let all = true;
      let missing: string | undefined = "";
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i] as number;
        const value = values[slot];
        const type = types[i];
        if (value !== undefined && (type === "any" || typeof value === type)) continue;
        all = false;
        if (missing === undefined) continue;
        const keyword = ownField(context, (this.reads[slot] as FieldRead).keyword);
        missing = keyword === undefined || keyword === null ? `${missing}${slot},` : undefined;
      }
      met.push(all);
      absent.push(all ? undefined : missing);
    }
    const found = this.keys.map(({ slot, byValue }) => byValue.get(values[slot] as Scalar));
    return { met, found, absent };
  }

  /**
   * When policy `i` is judged only because its condition reads keywords the activity lacks (see
   * {@link Selection.absent}), which fields those are; otherwise `undefined`.
   */
  absentFor(i: number, { met, absent }: Selection): string | undefined {
    const n = this.needsOf[i] as number;
    return n < 0 || met[n] ? undefined : absent[n];
  }

  /** Whether two selections leave the same policies to judge. */
  static same(a: Selection, b: Selection): boolean {
    for (let i = 0; i < a.met.length; i++) if (a.met[i] !== b.met[i]) return false;
    for (let i = 0; i < a.found.length; i++) if (a.found[i] !== b.found[i]) return false;
    return true;
  }

  /**
   * The policies a selection leaves to judge, in order: those judged always, the keyed ones whose needs
   * are not met, and those found by their key's value. Every other policy's condition is false.
   */
  toJudge({ met, found }: Selection): number[] {
    const judge = new Uint8Array(this.size);
    for (const i of this.always) judge[i] = 1;
    this.needs.forEach(({ policies }, n) => {
      if (!met[n]) for (const i of policies) judge[i] = 1;
    });
    for (const list of found) for (const i of list ?? NONE) judge[i] = 1;
    const judged: number[] = [];
    for (let i = 0; i < judge.length; i++) if (judge[i] === 1) judged.push(i);
    return judged;
  }
}

/** The needs of a policy whose outcome is a function of its condition's fields and its consensus. */
function keyable(policy: CompiledPolicy): ConditionNeeds | undefined {
  const condition = policy.condition;
  if (policy.fieldReads === undefined || condition?.expr === undefined || condition.fieldReads === undefined) {
    return undefined;
  }
  const needs = conditionNeeds(condition.expr);
  return needs === undefined || needs.necessary.size === 0 ? undefined : needs;
}

/**
 * Each policy's key: of the fields its condition needs to hold certain values, the one whose values tell
 * the most policies apart (the most distinct values over all policies), then the one it allows fewest of.
 */
function chooseKeys(analysed: readonly (ConditionNeeds | undefined)[]): (number | undefined)[] {
  const distinct = new Map<number, Set<Scalar>>();
  for (const needs of analysed) {
    for (const [pathId, values] of needs?.necessary ?? []) {
      const known = distinct.get(pathId) ?? new Set<Scalar>();
      distinct.set(pathId, known);
      for (const value of values) known.add(value);
    }
  }
  return analysed.map((needs) => {
    let best: number | undefined;
    let bestScore = -1;
    let bestSize = Number.POSITIVE_INFINITY;
    for (const [pathId, values] of needs?.necessary ?? []) {
      const score = distinct.get(pathId)?.size ?? 0;
      if (score > bestScore || (score === bestScore && values.size < bestSize)) {
        best = pathId;
        bestScore = score;
        bestSize = values.size;
      }
    }
    return best;
  });
}
