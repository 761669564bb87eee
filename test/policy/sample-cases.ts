/**
 * Loads the worked policy cases of `test/vectors/policy/policy-cases.sample.json` (a copy of the policy
 * specification's cases; see `SOURCE.md` there). Integers above 2^53 are written `{"$int": "<decimal>"}`;
 * they are revived as BigInt.
 */

import { readFileSync } from "node:fs";
import type { DecisionOutcome, Outcome, Policy, PolicyContext, RootQuorum } from "../../src/policy/index.js";

export interface SampleCase {
  name: string;
  policies: Policy[];
  rootQuorum: RootQuorum;
  context: PolicyContext;
  expected: DecisionOutcome;
  policyOutcomes?: Outcome[];
}

const SAMPLE_PATH = new URL("../vectors/policy/policy-cases.sample.json", import.meta.url);

function reviveBigInts(_key: string, value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const digits = (value as { $int?: unknown }).$int;
    if (keys.length === 1 && typeof digits === "string" && /^-?\d+$/.test(digits)) return BigInt(digits);
  }
  return value;
}

export function loadSampleCases(): SampleCase[] {
  const raw = JSON.parse(readFileSync(SAMPLE_PATH, "utf8"), reviveBigInts) as Array<{
    name: string;
    policies: Policy[];
    context: PolicyContext & { rootQuorum: RootQuorum };
    expected: DecisionOutcome;
    policyOutcomes?: Outcome[];
  }>;
  return raw.map(({ context: { rootQuorum, ...context }, ...rest }) => ({ ...rest, rootQuorum, context }));
}
