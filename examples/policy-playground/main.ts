/**
 * Policy playground: evaluate policies against an activity context from the command line and print why
 * the activity would be allowed, denied or left waiting for votes.
 *
 *   node --import tsx examples/policy-playground/main.ts examples/policy-playground/sample.json
 *   node --import tsx examples/policy-playground/main.ts --condition "activity.resource == 'WALLET'" \
 *     --context examples/policy-playground/sample.json
 *
 * A file holds `{ policies, context, rootQuorum? }`; `--condition` (and `--consensus`, `--effect`) replace
 * its policies with one. The output names each policy's outcome and, for an expression that failed, its
 * error and position.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { CustodyError } from "custodian";
import { type DecideInput, decide, type Effect, validatePolicyExpressions } from "custodian/policy";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    context: { type: "string" },
    condition: { type: "string" },
    consensus: { type: "string" },
    effect: { type: "string", default: "EFFECT_ALLOW" },
  },
});

const file = values.context ?? positionals[0];
if (!file) {
  console.error("usage: main.ts FILE | --condition EXPR [--consensus EXPR] [--effect EFFECT_DENY] --context FILE");
  process.exit(2);
}
const scenario = JSON.parse(readFileSync(file, "utf8")) as Partial<DecideInput>;
if (!scenario.context) {
  console.error(`${file} has no "context" ({ activity, approvers, ... })`);
  process.exit(2);
}
const policies =
  values.condition === undefined
    ? (scenario.policies ?? [])
    : [
        {
          policyId: "command-line",
          effect: values.effect as Effect,
          condition: values.condition,
          ...(values.consensus ? { consensus: values.consensus } : {}),
        },
      ];

try {
  for (const policy of policies) validatePolicyExpressions(policy);
} catch (error) {
  if (!(error instanceof CustodyError)) throw error;
  console.log(`refused: ${error.message}`);
  process.exit(1);
}

const decision = decide({
  policies,
  rootQuorum: scenario.rootQuorum ?? { userIds: [], threshold: 1 },
  context: scenario.context,
});
console.log(`decision: ${decision.outcome} (${decision.reason})`);
for (const evaluation of decision.evaluations) {
  const failed = evaluation.error ? ` - ${evaluation.error.message}` : "";
  console.log(`  ${evaluation.policyId}: ${evaluation.outcome}${failed}`);
}
