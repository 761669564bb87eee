/**
 * An organization's policies as a decision judges them: compiled once and kept per organization with the
 * version of its policies they were compiled at (`PolicyVersionRecord`), so a decision reads that one record
 * instead of listing every policy, however many the organization has. The version is read in the deciding
 * transaction, so a policy written by another transaction, in this process or in another sharing the store, is
 * seen by the next decision after its commit; and since a version is never put twice, policies compiled from a
 * transaction's own writes are never used after it rolls back.
 *
 * @module
 */
import type { DataReader } from "../../model/data.js";
import type { PolicyRecord } from "../../model/records.js";
import { CompiledPolicy } from "../../policy/evaluate-policy.js";
import { sameMembers } from "../../policy/immutable-inputs.js";
import type { Policy } from "../../policy/types.js";

function asPolicy(record: PolicyRecord): Policy {
  return {
    policyId: record.id,
    policyName: record.policyName,
    effect: record.effect,
    condition: record.condition,
    consensus: record.consensus,
    time: record.time,
  };
}

// Stored records are immutable (a change puts a new record), so a record compiled once stays compiled for
// as long as the store hands out that object: when one policy of many changes, only it is compiled again. A
// store that reads a new object each time compiles again, from the expressions' cache. The fields are
// compared anyway, so a record changed in place is never judged by its old expressions.
const compiledRecords = new WeakMap<PolicyRecord, CompiledPolicy>();

function compiledOf(record: PolicyRecord): CompiledPolicy {
  const cached = compiledRecords.get(record);
  if (cached !== undefined && sameFields(cached.policy, record)) return cached;
  const compiled = new CompiledPolicy(asPolicy(record));
  compiledRecords.set(record, compiled);
  return compiled;
}

function sameFields(policy: Policy, record: PolicyRecord): boolean {
  return (
    policy.policyId === record.id &&
    policy.policyName === record.policyName &&
    policy.effect === record.effect &&
    policy.condition === record.condition &&
    policy.consensus === record.consensus &&
    policy.time === record.time
  );
}

/** One organization's compiled policies, and what they are known to be the compiled form of. */
interface CompiledSet {
  /** The version of the organization's policies they were listed at; undefined when the policies had none. */
  readonly version: string | undefined;
  /** The records compiled, when the store hands out frozen ones (recognized by identity, with no version). */
  readonly records: readonly PolicyRecord[] | undefined;
  /** One frozen list, the same object for as long as the policies are: decisions reuse evaluations by it. */
  readonly compiled: readonly CompiledPolicy[];
}

// Keyed by organization id alone, across the engines and stores of the process: a version names one set of
// policies wherever it is read (it is random), so two stores holding one organization id cannot share an entry
// by mistake; they only take turns at it.
const compiledSets = new Map<string, CompiledSet>();
const MAX_COMPILED_SETS = 1024;

/**
 * The policies of `organizationId` as `data` sees them, compiled: one read of their version when they were
 * compiled at it before, else a listing. For an organization whose policies have no version yet (none was
 * written since versions were kept), a listing each time, compiled again only when the store hands out other
 * records.
 */
export async function compiledPolicies(data: DataReader, organizationId: string): Promise<readonly CompiledPolicy[]> {
  const version = (await data.get("policyVersions", organizationId))?.version;
  const known = compiledSets.get(organizationId);
  if (version !== undefined && known?.version === version) return known.compiled;
  const records = await data.listAll("policies", organizationId);
  let compiled: readonly CompiledPolicy[];
  if (known?.records !== undefined && sameMembers(known.records, records)) compiled = known.compiled;
  else compiled = Object.freeze(records.map(compiledOf));
  // Without a version, only frozen records may be recognized next time (MemoryStore's and FileStore's are).
  const frozen = records.every((record) => Object.isFrozen(record));
  if (version !== undefined || frozen) {
    if (compiledSets.size >= MAX_COMPILED_SETS && !compiledSets.has(organizationId)) compiledSets.clear();
    compiledSets.set(organizationId, { version, records: frozen ? [...records] : undefined, compiled });
  }
  return compiled;
}

/**
 * Asks `data` for what {@link compiledPolicies} will read, for a store that answers reads asked together in one
 * round trip (see `read-ahead.ts`): the version, and the policies unless some were compiled for the organization
 * (their version then most likely unchanged).
 */
export function readPoliciesAhead(data: DataReader, organizationId: string): Promise<unknown> {
  const version = data.get("policyVersions", organizationId);
  if (compiledSets.get(organizationId)?.version !== undefined) return version;
  return Promise.all([version, data.listAll("policies", organizationId)]);
}
