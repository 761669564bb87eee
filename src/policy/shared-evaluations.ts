/**
 * The engine's evaluations of one organization's policies, decision after decision, each equal to judging
 * every policy afresh but costing about what judging the few policies that can apply costs:
 *
 * - the policies are indexed on what their conditions test (`policy-index.ts`); a policy whose condition is
 *   known false by that index has the record it had the last time its condition was false with the same
 *   approvers and credentials (a consensus reads nothing else, and a false condition spends the same steps
 *   whatever its values): kept per approvers, computed by judging it the first time;
 * - a policy whose condition reads keywords the activity lacks (`eth` for a raw payload) fails at the first such
 *   read whatever the other fields hold: its record is kept per set of absent keywords, and copied;
 * - when the activity selects the same policies as the last one and those give the same records, the last
 *   frozen list is the answer; when every field every policy reads holds the same value, it is without
 *   judging any.
 *
 * Only for the engine's own contexts, plain data throughout, with immutable approvers and credentials (see
 * `immutable-inputs.ts`); anything else is judged in full.
 *
 * @module
 */

import { freezeBranded, isDeepFrozen } from "../common/deep-frozen.js";
import type { PolicyRun } from "./compiled.js";
import type { CompiledPolicy } from "./evaluate-policy.js";
import { allImmutable, sameMembers } from "./immutable-inputs.js";
import { PolicyIndex, type Selection } from "./policy-index.js";
import type { Evaluation, EvaluationError, PolicyContext } from "./types.js";

/** The last frozen list decided for a list of policies, with what it was decided from. */
interface Last {
  readonly list: readonly Evaluation[];
  readonly approvers: readonly unknown[];
  readonly credentials: readonly unknown[];
  /** The field values it was decided from, when every one was readable. */
  values: readonly unknown[] | undefined;
  /** What those values selected, the policies judged, and their records; none for a list judged in full. */
  readonly selection: Selection | undefined;
  readonly judged: readonly number[];
  readonly records: readonly Evaluation[];
}

/** The records of policies whose condition is false, for one list of approvers and credentials. */
interface FalseConditionRecords {
  readonly approvers: readonly unknown[];
  readonly credentials: readonly unknown[];
  readonly records: (Evaluation | undefined)[];
}

const NO_VOTER = {};
/** Patterns of absent keywords kept per policy: a few in practice (the chains an organization signs on). */
const MAX_FAILURES = 16;

/** One list of policies, as the engine decides with it. */
class PolicyList {
  private uses = 0;
  private index: PolicyIndex | undefined;
  private last: Last | undefined;
  private readonly falseConditions = new WeakMap<object, FalseConditionRecords>();
  /** Per policy, the record of its condition failing on absent keywords, by which fields those are. */
  private readonly failures: Map<string, Evaluation>[] = [];

  constructor(readonly policies: readonly CompiledPolicy[]) {}

  evaluations(context: PolicyContext, run: PolicyRun): Evaluation[] {
    const { approvers, credentials } = context;
    if (!Array.isArray(approvers) || !Array.isArray(credentials)) return this.judgedInFull(run, undefined);
    const voters = { approvers, credentials };
    // A list seen once is judged in full: a store that hands out new records for every read would build
    // an index per decision, to use it once.
    if (!allImmutable(approvers) || !allImmutable(credentials) || this.uses++ === 0) {
      return this.judgedInFull(run, voters);
    }
    this.index ??= PolicyIndex.of(this.policies);
    const index = this.index;
    const values = index?.values(context, run.fieldCache ?? []);
    if (index === undefined || values === undefined) return this.judgedInFull(run, voters);

    const last = this.last;
    const sameVoters =
      last !== undefined && sameMembers(last.approvers, approvers) && sameMembers(last.credentials, credentials);
    if (sameVoters && index.allPure && last.values !== undefined && sameMembers(last.values, values)) {
      return last.list as Evaluation[];
    }
    const selection = index.select(values, context);
    const sameSelection = sameVoters && last.selection !== undefined && PolicyIndex.same(last.selection, selection);
    const judged = sameSelection ? last.judged : index.toJudge(selection);
    const records = judged.map((i) => this.judge(i, index.absentFor(i, selection), run));
    if (sameSelection && sameMembers(last.records, records)) {
      last.values = allReadable(values) ? values : undefined;
      return last.list as Evaluation[];
    }

    const falseConditions = this.falseConditionRecords(approvers, credentials);
    const list: Evaluation[] = new Array(this.policies.length);
    judged.forEach((i, n) => {
      list[i] = records[n] as Evaluation;
    });
    for (let i = 0; i < list.length; i++) {
      if (list[i] !== undefined) continue;
      let record = falseConditions.records[i];
      if (record === undefined) {
        record = (this.policies[i] as CompiledPolicy).evaluateIn(run, true);
        // A record with an error is the activity's own: such a policy is judged each time.
        if (isDeepFrozen(record)) falseConditions.records[i] = record;
      }
      list[i] = record;
    }
    return this.remember(list, voters, { values, selection, judged, records });
  }

  /**
   * Policy `i`'s record. One whose condition reads keywords the activity lacks (`absent` names which) fails
   * the same way for every such activity: its record, computed once, is copied (a record with an error is the
   * activity's own).
   */
  private judge(i: number, absent: string | undefined, run: PolicyRun): Evaluation {
    const policy = this.policies[i] as CompiledPolicy;
    if (absent === undefined) return policy.evaluateIn(run, true);
    const failures = this.failures[i] ?? new Map<string, Evaluation>();
    this.failures[i] = failures;
    const known = failures.get(absent);
    if (known !== undefined) return { ...known, error: { ...(known.error as EvaluationError) } };
    const record = policy.evaluateIn(run, true);
    if (record.error?.field === "condition" && failures.size < MAX_FAILURES) {
      failures.set(absent, { ...record, error: { ...record.error } });
    }
    return record;
  }

  /** Every policy judged; the list kept as the last one (without what selected it). */
  private judgedInFull(
    run: PolicyRun,
    voters: { approvers: readonly unknown[]; credentials: readonly unknown[] } | undefined,
  ): Evaluation[] {
    const list = this.policies.map((policy) => policy.evaluateIn(run, true));
    return voters === undefined ? list : this.remember(list, voters, undefined);
  }

  /**
   * `list` as the last frozen list when it is the same, so a store keeping a copy of it (MemoryStore)
   * copies it once; kept as the last one when every record is shared (a new record carries an error and is
   * the activity's own).
   */
  private remember(
    list: Evaluation[],
    { approvers, credentials }: { approvers: readonly unknown[]; credentials: readonly unknown[] },
    selected: { values: unknown[]; selection: Selection; judged: readonly number[]; records: Evaluation[] } | undefined,
  ): Evaluation[] {
    const last = this.last;
    const same = last !== undefined && sameMembers(last.list, list);
    if (!same && !list.every(isDeepFrozen)) return list;
    if (!allImmutable(approvers) || !allImmutable(credentials)) {
      return same ? (last.list as Evaluation[]) : list;
    }
    const kept = same ? last.list : freezeBranded(list);
    this.last = {
      list: kept,
      approvers: [...approvers],
      credentials: [...credentials],
      values: selected !== undefined && allReadable(selected.values) ? selected.values : undefined,
      selection: selected?.selection,
      judged: selected?.judged ?? [],
      records: selected?.records ?? [],
    };
    return kept as Evaluation[];
  }

  /** The records of policies with a false condition for these approvers and credentials (by the first approver). */
  private falseConditionRecords(approvers: readonly unknown[], credentials: readonly unknown[]): FalseConditionRecords {
    const first = (approvers[0] ?? NO_VOTER) as object;
    const known = this.falseConditions.get(first);
    if (known !== undefined && sameMembers(known.approvers, approvers) && sameMembers(known.credentials, credentials)) {
      return known;
    }
    const made = { approvers: [...approvers], credentials: [...credentials], records: [] };
    this.falseConditions.set(first, made);
    return made;
  }
}

function allReadable(values: readonly unknown[]): boolean {
  for (const value of values) if (value === undefined) return false;
  return true;
}

const lists = new WeakMap<CompiledPolicy, PolicyList>();

/**
 * The evaluations of `policies` in `context`, in `run` (whose field cache is this decision's): each policy's
 * shared record where it has no error, in a frozen list shared by the decisions that give the same one.
 */
export function sharedEvaluations(
  policies: readonly CompiledPolicy[],
  context: PolicyContext,
  run: PolicyRun,
): Evaluation[] {
  const first = policies[0];
  if (first === undefined) return [];
  let list = lists.get(first);
  if (list === undefined || (list.policies !== policies && !sameMembers(list.policies, policies))) {
    // A frozen list (the engine's compiled list of a stored policy list) is kept as it is.
    list = new PolicyList(Object.isFrozen(policies) ? policies : [...policies]);
    lists.set(first, list);
  }
  return list.evaluations(context, run);
}
