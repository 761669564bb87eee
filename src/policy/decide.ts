/**
 * The decision for one activity at one vote (docs/spec/policy-language.md §3, the `decide` outline):
 * root quorum → root-quorum-only types → explicit deny → allow → own-credential default → pending
 * consensus → pending root quorum → implicit deny.
 *
 * @module
 */

import { freezeBranded, isDeepFrozen } from "../common/deep-frozen.js";
import { PolicyRun } from "./compiled.js";
import { type CompiledPolicy, compilePolicy } from "./evaluate-policy.js";
import type { FieldCache } from "./evaluator.js";
import { readField } from "./field-tests.js";
import { allImmutable, sameMembers } from "./immutable-inputs.js";
import type {
  DecideInput,
  Decision,
  DecisionOutcome,
  DecisionReason,
  Evaluation,
  Outcome,
  PolicyContext,
  RootQuorum,
} from "./types.js";
import { ownField } from "./values.js";

/** Activity types only the root quorum can approve; no ALLOW policy unlocks them. */
export const ROOT_QUORUM_ONLY_ACTIVITY_TYPES: readonly string[] = [
  "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM",
  "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
  "ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE",
  "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
];

const NOT_APPLYING: readonly Outcome[] = ["OUTCOME_DENY_IMPLICIT", "OUTCOME_TIME_INACTIVE"];

/**
 * Decides an activity. Every policy is evaluated, even when the root quorum settles the outcome, so the
 * record always holds one evaluation per policy.
 */
export function decide({ policies, rootQuorum, context }: DecideInput): Decision {
  return decideCompiled(policies.map(compilePolicy), rootQuorum, context);
}

/**
 * {@link decide} with policies compiled beforehand. With `shared`, the evaluation records without an error
 * are each policy's frozen ones (see `CompiledPolicy.evaluate`).
 *
 * @internal
 */
export function decideCompiled(
  policies: readonly CompiledPolicy[],
  rootQuorum: RootQuorum,
  context: PolicyContext,
  shared = false,
): Decision {
  let evaluations: Evaluation[] = [];
  // One reading of each tested field for all the policies: nothing changes the context while they are judged.
  // Only for the engine's own contexts (`shared`), plain data throughout: a caller's context could hold a
  // getter that answers each policy differently.
  const fieldCache: FieldCache | undefined = shared ? [] : undefined;
  const inputs = shared ? decisionInputs(policies, context, fieldCache as FieldCache) : undefined;
  const remembered = inputs === undefined ? undefined : rememberedEvaluations(policies, inputs);
  if (remembered !== undefined) {
    evaluations = remembered;
  } else {
    const run = new PolicyRun(context, fieldCache);
    for (const policy of policies) evaluations.push(policy.evaluateIn(run, shared));
    if (shared) evaluations = sharedEvaluations(policies, evaluations, inputs);
  }
  const settle = (outcome: DecisionOutcome, reason: DecisionReason): Decision => ({ outcome, reason, evaluations });

  const approverIds = new Set(context.approvers.map((approver) => approver.id));
  const rootVotes = [...new Set(rootQuorum.userIds)].filter((id) => approverIds.has(id)).length;
  // A threshold below 1 would let an activity through with no root vote at all; it counts as 1.
  if (rootVotes >= Math.max(1, rootQuorum.threshold)) return settle("ALLOW", "ROOT_QUORUM");
  if (ROOT_QUORUM_ONLY_ACTIVITY_TYPES.includes(context.activity.type)) {
    return rootVotes > 0 ? settle("CONSENSUS_NEEDED", "ROOT_QUORUM_PENDING") : settle("DENY", "ROOT_QUORUM_REQUIRED");
  }

  const outcomes = outcomesOf(evaluations);
  if (outcomes.has("OUTCOME_DENY_EXPLICIT")) return settle("DENY", "EXPLICIT_DENY");
  if (outcomes.has("OUTCOME_ALLOW")) return settle("ALLOW", "POLICY_ALLOW");
  if (changesOwnCredentials(context) && [...outcomes].every((outcome) => NOT_APPLYING.includes(outcome))) {
    return settle("ALLOW", "SELF_CREDENTIAL");
  }
  if (outcomes.has("OUTCOME_REQUIRES_CONSENSUS")) return settle("CONSENSUS_NEEDED", "CONSENSUS_PENDING");
  if (rootVotes > 0) return settle("CONSENSUS_NEEDED", "ROOT_QUORUM_PENDING");
  return settle("DENY", "IMPLICIT_DENY");
}

// The outcomes of a frozen (shared) evaluation list, gathered once for every decision that gets that list.
const outcomesOfShared = new WeakMap<readonly Evaluation[], ReadonlySet<Outcome>>();

/** The distinct outcomes of `evaluations`. */
function outcomesOf(evaluations: readonly Evaluation[]): ReadonlySet<Outcome> {
  const known = outcomesOfShared.get(evaluations);
  if (known !== undefined) return known;
  const outcomes = new Set(evaluations.map((evaluation) => evaluation.outcome));
  if (Object.isFrozen(evaluations)) outcomesOfShared.set(evaluations, outcomes);
  return outcomes;
}

/**
 * Everything the outcomes of `policies` depend on, when that is known: the values of the fields their
 * conditions test, and the (immutable) approvers and credentials their consensus reads. `undefined` when
 * some policy depends on more (a `time` expression, a condition other than tests of fields against literals), when a tested
 * field cannot be read as the fast path reads it, or when a member could still change.
 */
interface DecisionInputs {
  readonly values: readonly unknown[];
  readonly approvers: readonly unknown[];
  readonly credentials: readonly unknown[];
}

function decisionInputs(
  policies: readonly CompiledPolicy[],
  context: PolicyContext,
  fieldCache: FieldCache,
): DecisionInputs | undefined {
  const { approvers, credentials } = context;
  if (!Array.isArray(approvers) || !Array.isArray(credentials)) return undefined;
  if (!allImmutable(approvers) || !allImmutable(credentials)) return undefined;
  const values: unknown[] = [];
  for (const policy of policies) {
    const reads = policy.fieldReads;
    if (reads === undefined) return undefined;
    for (const read of reads) {
      // A field several policies test counts once (its first reading; the order is the policies').
      if (read.pathId !== undefined && fieldCache[read.pathId] !== undefined) continue;
      const value = readField(context, read, fieldCache);
      if (value === undefined) return undefined;
      values.push(value);
    }
  }
  return { values, approvers: [...approvers], credentials: [...credentials] };
}

/** The last frozen list of shared evaluation records decided for a list of policies, by its first policy. */
interface LastEvaluations {
  readonly policies: readonly CompiledPolicy[];
  readonly evaluations: readonly Evaluation[];
  /** What they were decided from, when that is known (see {@link decisionInputs}). */
  readonly inputs: DecisionInputs | undefined;
}

const lastEvaluations = new WeakMap<CompiledPolicy, LastEvaluations>();

/**
 * The last evaluations of these very policies, when they were decided from the same inputs: every outcome is
 * a function of those (see {@link decisionInputs}), so judging them again would give the same records. An
 * organization's activities in a row mostly do, and with many policies judging them is most of a decision's cost.
 */
function rememberedEvaluations(policies: readonly CompiledPolicy[], inputs: DecisionInputs): Evaluation[] | undefined {
  const first = policies[0];
  const last = first === undefined ? undefined : lastEvaluations.get(first);
  if (last?.inputs === undefined) return undefined;
  if (last.policies !== policies && !sameMembers(last.policies, policies)) return undefined;
  const known = last.inputs;
  const same =
    sameMembers(known.values, inputs.values) &&
    sameMembers(known.approvers, inputs.approvers) &&
    sameMembers(known.credentials, inputs.credentials);
  return same ? (last.evaluations as Evaluation[]) : undefined;
}

/**
 * `evaluations` (each a policy's shared record or a new one) as the last frozen list when they are the same,
 * so a store keeping a copy of it (MemoryStore) copies it once; kept, with what they were decided from, when
 * every record is shared (a new record carries an error and is the activity's own).
 */
function sharedEvaluations(
  policies: readonly CompiledPolicy[],
  evaluations: Evaluation[],
  inputs: DecisionInputs | undefined,
): Evaluation[] {
  const first = policies[0];
  if (first === undefined) return evaluations;
  const last = lastEvaluations.get(first);
  const list =
    last !== undefined && sameMembers(last.evaluations, evaluations) ? (last.evaluations as Evaluation[]) : evaluations;
  if (list.every(isDeepFrozen)) {
    // A frozen list (the engine's compiled list of a stored policy list) is kept as it is.
    const kept = Object.isFrozen(policies) ? policies : [...policies];
    lastEvaluations.set(first, { policies: kept, evaluations: freezeBranded(list), inputs });
  }
  return list;
}

/** A CREDENTIAL activity whose `params.user_id` is the submitter (`approvers[0]`). */
function changesOwnCredentials({ activity, approvers }: PolicyContext): boolean {
  const submitter = approvers[0];
  const target = activity.params === undefined ? undefined : ownField(activity.params, "user_id");
  return activity.resource === "CREDENTIAL" && submitter !== undefined && target === submitter.id;
}
