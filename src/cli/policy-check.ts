/**
 * `custodian policy check FILE`: parses the policies of a JSON file as `create_policy` would accept them,
 * and says in words what each one does, or where it is wrong.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { CustodyError, isCustodyError } from "../common/errors.js";
import { keywordsRead } from "../policy/analysis.js";
import { validatePolicyExpressions } from "../policy/index.js";
import { parseExpression } from "../policy/parser.js";
import { parseFlags } from "./parse-flags.js";
import { UsageError } from "./usage-error.js";

export const POLICY_USAGE = `usage: custodian policy check FILE

FILE holds one policy as create_policy takes it ({ "policyName", "effect", "condition", "consensus" }),
an array of them, or { "policies": [...] } as get_policies returns them. Each policy is parsed and
checked as the server checks it when the policy is written, then explained: when it applies, whose
approval it needs, and which keywords it reads. An error names the expression and the character at fault,
and for a field its keyword does not have (eth.tx.recipient), the closest one. A warning names what is
stored but does not work as written: a mixed-case address compared with an eth value (they are lower
case, so it never matches), a keyword custodian never fills. Exits 1 when a policy is refused.

  -h, --help  this text
`;

const EFFECTS = ["EFFECT_ALLOW", "EFFECT_DENY"] as const;

interface PolicyInput {
  policyName?: unknown;
  effect?: unknown;
  condition?: unknown;
  consensus?: unknown;
}

function policiesOf(value: unknown): PolicyInput[] {
  if (Array.isArray(value)) return value as PolicyInput[];
  if (value !== null && typeof value === "object" && Array.isArray((value as { policies?: unknown }).policies)) {
    return (value as { policies: PolicyInput[] }).policies;
  }
  return [value as PolicyInput];
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new CustodyError("INVALID_ARGUMENT", `${field}: expected a string`, { field });
  return value;
}

/** The lines explaining one valid policy. */
function explain(effect: string, condition: string | undefined, consensus: string | undefined): string[] {
  const lines: string[] = [];
  const reads = (source: string) => `reads ${keywordsRead(parseExpression(source)).join(", ") || "no keywords"}`;
  if (condition) lines.push(`  applies when  ${condition}`, `                (${reads(condition)})`);
  else lines.push("  applies to    every activity (no condition)");
  if (consensus) lines.push(`  approval      ${consensus}`, `                (${reads(consensus)})`);
  if (effect === "EFFECT_DENY") {
    lines.push("  effect        denies what it applies to; a deny wins over every allow (the root quorum aside)");
  } else if (consensus) {
    lines.push("  effect        allows what it applies to once the approvals above are in; until then it waits");
  } else {
    lines.push("  effect        allows what it applies to, unless a deny policy applies too");
  }
  return lines;
}

/** Where an expression went wrong: the expression with a caret under the character at fault. */
function pointAt(source: string, position: number | undefined): string[] {
  if (position === undefined) return [];
  return [`    ${source}`, `    ${" ".repeat(Math.min(position, source.length))}^ (character ${position})`];
}

/** Checks one policy; returns its report and whether it passed. */
function checkPolicy(policy: PolicyInput, index: number): { lines: string[]; ok: boolean } {
  const name = typeof policy?.policyName === "string" ? `"${policy.policyName}"` : `#${index + 1}`;
  try {
    if (policy === null || typeof policy !== "object") {
      throw new CustodyError("INVALID_ARGUMENT", "a policy must be a JSON object", {});
    }
    const effect = policy.effect;
    if (typeof effect !== "string" || !(EFFECTS as readonly string[]).includes(effect)) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `effect: expected ${EFFECTS.join(" or ")}, got ${JSON.stringify(effect)}`,
        {
          field: "effect",
        },
      );
    }
    const condition = optionalString(policy.condition, "condition");
    const consensus = optionalString(policy.consensus, "consensus");
    const warnings = validatePolicyExpressions(
      { condition, consensus },
      { fields: { condition: "condition", consensus: "consensus" } },
    );
    const warned = warnings.flatMap((warning) => {
      const source = warning.field === "condition" ? condition : consensus;
      return [`  warning       ${warning.field}: ${warning.message}`, ...pointAt(source ?? "", warning.position)];
    });
    const verdict = warnings.length === 0 ? "valid" : "valid, with warnings";
    return {
      lines: [`policy ${name} (${effect}): ${verdict}`, ...explain(effect, condition, consensus), ...warned],
      ok: true,
    };
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    const field = error.details.field;
    const source = field === "condition" || field === "consensus" ? policy[field] : undefined;
    const position = typeof error.details.position === "number" ? error.details.position : undefined;
    return {
      lines: [
        `policy ${name}: refused: ${error.message}`,
        ...(typeof source === "string" ? pointAt(source, position) : []),
      ],
      ok: false,
    };
  }
}

export async function policyCommand(argv: string[]): Promise<void> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === "-h" || subcommand === "--help") {
    process.stdout.write(POLICY_USAGE);
    return;
  }
  if (subcommand !== "check") {
    throw new UsageError(`unknown policy command "${subcommand}"; the one there is: custodian policy check FILE`);
  }
  const { values, positionals } = parseFlags(
    {
      args: rest,
      options: { help: { type: "boolean", short: "h", default: false } },
      allowPositionals: true,
    },
    "policy check",
  );
  if (values.help) {
    process.stdout.write(POLICY_USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError("custodian policy check needs exactly one FILE");
  const file = positionals[0] as string;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const reports = policiesOf(parsed).map(checkPolicy);
  process.stdout.write(`${reports.flatMap((report) => report.lines).join("\n")}\n`);
  if (reports.some((report) => !report.ok)) process.exitCode = 1;
}
