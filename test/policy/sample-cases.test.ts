import { describe, expect, it } from "vitest";
import { decide } from "../../src/policy/index.js";
import { loadSampleCases } from "./sample-cases.js";

const cases = loadSampleCases();

describe("policy-cases.sample.json through decide", () => {
  it("loads every case, with large integers revived as BigInt", () => {
    expect(cases.length).toBeGreaterThanOrEqual(37);
    const ints = cases.find((c) => c.name.startsWith("ints beyond int64"))!;
    const args = (ints.context.eth as { tx: { contract_call_args: { wad: unknown } } }).tx.contract_call_args;
    expect(typeof args.wad).toBe("bigint");
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, sample) => {
    const decision = decide({ policies: sample.policies, rootQuorum: sample.rootQuorum, context: sample.context });
    expect(decision.outcome).toBe(sample.expected);
    expect(decision.evaluations).toHaveLength(sample.policies.length);
    if (sample.policyOutcomes) {
      expect(decision.evaluations.map((e) => e.outcome)).toEqual(sample.policyOutcomes);
    }
  });
});
