/**
 * The older selector policy forms (`ACTIVITY_TYPE_CREATE_POLICY` with `selectors: [{subject, operator,
 * target}]`, `_V2` with `{subject, operator, targets}`; swagger `v1Selector`, `v1SelectorV2`,
 * `v1Operator`) translated into one condition string, so the engine evaluates every policy the same way.
 *
 * Each selector becomes one clause and the clauses are joined with `&&`. The subject must be a path from
 * a condition keyword (`activity.type`, `wallet.id`, `private_key.tags`). A target made of decimal digits only becomes
 * an int literal (targets are strings on the wire, but ordering operators only make sense on ints);
 * any other target becomes a string literal.
 *
 * @module
 */

import { type CustodyError, invalidArgument, isCustodyError } from "../common/errors.js";
import { checkIdentifiers } from "./analysis.js";
import type { PolicyErrorReason } from "./expression-errors.js";
import { checkFields } from "./field-check.js";
import { parseExpression } from "./parser.js";

/** The selector operators (swagger `v1Operator`), declared once for the schemas and the translation. */
export const SELECTOR_OPERATORS = [
  "OPERATOR_EQUAL",
  "OPERATOR_MORE_THAN",
  "OPERATOR_MORE_THAN_OR_EQUAL",
  "OPERATOR_LESS_THAN",
  "OPERATOR_LESS_THAN_OR_EQUAL",
  "OPERATOR_CONTAINS",
  "OPERATOR_NOT_EQUAL",
  "OPERATOR_IN",
  "OPERATOR_NOT_IN",
  "OPERATOR_CONTAINS_ONE",
  "OPERATOR_CONTAINS_ALL",
] as const;

/** A selector operator (swagger `v1Operator`). */
export type SelectorOperator = (typeof SELECTOR_OPERATORS)[number];

/** A selector of `ACTIVITY_TYPE_CREATE_POLICY` (swagger `v1Selector`). */
export interface Selector {
  /** A path from a condition keyword, e.g. `activity.type`. */
  subject: string;
  /** How the subject is compared with the target. */
  operator: SelectorOperator;
  /** The value compared with. */
  target: string;
}

/** A selector of `ACTIVITY_TYPE_CREATE_POLICY_V2` (swagger `v1SelectorV2`). */
export interface SelectorV2 {
  /** A path from a condition keyword, e.g. `activity.type`. */
  subject: string;
  /** How the subject is compared with the targets. */
  operator: SelectorOperator;
  /** The values compared with: exactly one for the comparison operators and `OPERATOR_CONTAINS`. */
  targets: readonly string[];
}

const COMPARISONS: Partial<Record<SelectorOperator, string>> = {
  OPERATOR_EQUAL: "==",
  OPERATOR_NOT_EQUAL: "!=",
  OPERATOR_MORE_THAN: ">",
  OPERATOR_MORE_THAN_OR_EQUAL: ">=",
  OPERATOR_LESS_THAN: "<",
  OPERATOR_LESS_THAN_OR_EQUAL: "<=",
};

/**
 * The condition equivalent to `selectors`. Throws `INVALID_ARGUMENT` naming the selector field at fault
 * (`parameters.selectors[1].target`, under `field`).
 */
export function conditionFromSelectors(
  selectors: readonly (Selector | SelectorV2)[],
  field = "parameters.selectors",
): string {
  if (selectors.length === 0) throw invalidSelector("a selector policy needs at least one selector", field);
  const condition = selectors.map((selector, i) => clause(selector, `${field}[${i}]`)).join(" && ");
  try {
    parseExpression(condition);
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    throw invalidSelector(`the selectors give an invalid condition: ${error.message}`, field);
  }
  return condition;
}

function clause(selector: Selector | SelectorV2, path: string): string {
  const subject = keywordPath(selector.subject, `${path}.subject`);
  const targets =
    "targets" in selector
      ? selector.targets.map((target, j) => literal(target, `${path}.targets[${j}]`))
      : [literal(selector.target, `${path}.target`)];
  const targetPath = "targets" in selector ? `${path}.targets` : `${path}.target`;
  const { operator } = selector;
  if (targets.length === 0) throw invalidSelector("a selector needs at least one target", targetPath);
  const single = () => {
    if (targets.length !== 1) throw invalidSelector(`${operator} takes exactly one target`, targetPath);
    return targets[0]!;
  };
  const comparison = COMPARISONS[operator];
  if (comparison !== undefined) return `${subject} ${comparison} ${single()}`;
  switch (operator) {
    case "OPERATOR_CONTAINS":
      return `${subject}.contains(${single()})`;
    case "OPERATOR_IN":
      return `${subject} in [${targets.join(", ")}]`;
    case "OPERATOR_NOT_IN":
      return `!(${subject} in [${targets.join(", ")}])`;
    case "OPERATOR_CONTAINS_ONE":
    case "OPERATOR_CONTAINS_ALL": {
      const joiner = operator === "OPERATOR_CONTAINS_ONE" ? " || " : " && ";
      const parts = targets.map((target) => `${subject}.contains(${target})`);
      return parts.length === 1 ? parts[0]! : `(${parts.join(joiner)})`;
    }
    default:
      throw invalidSelector(`unknown selector operator ${JSON.stringify(operator)}`, `${path}.operator`);
  }
}

/** The subject, checked to be a plain keyword path: a name followed by `.field` and `[index]` steps. */
function keywordPath(subject: unknown, path: string): string {
  const refuse = () => invalidSelector("a selector subject must be a keyword path such as 'activity.type'", path);
  if (typeof subject !== "string") throw refuse();
  let expr: ReturnType<typeof parseExpression>;
  try {
    expr = parseExpression(subject);
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    throw invalidSelector(`a selector subject must be a keyword path: ${error.message}`, path);
  }
  const isPath =
    expr.kind === "ident" ||
    (expr.kind === "chain" &&
      expr.head.kind === "ident" &&
      expr.steps.every(
        (step) =>
          step.kind === "field" ||
          (step.kind === "index" && (step.index.kind === "int" || step.index.kind === "string")),
      ));
  if (!isPath) throw refuse();
  try {
    checkIdentifiers(expr, "condition");
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    throw invalidSelector(`a selector subject must start with a condition keyword: ${error.message}`, path);
  }
  try {
    checkFields(expr, []);
  } catch (error) {
    if (!isCustodyError(error)) throw error;
    throw invalidSelector(`a selector subject must name a field of its keyword: ${error.message}`, path);
  }
  return subject.trim();
}

function literal(target: unknown, path: string): string {
  if (typeof target !== "string") throw invalidSelector("a selector target must be a string", path);
  if (/^\d+$/.test(target)) {
    try {
      parseExpression(target);
    } catch (error) {
      if (!isCustodyError(error)) throw error;
      throw invalidSelector(`selector target ${error.message}`, path);
    }
    return target;
  }
  // The language has no string escapes, so a quote cannot be written inside a string literal.
  if (target.includes("'")) throw invalidSelector("a selector target cannot contain a single quote (')", path);
  return `'${target}'`;
}

function invalidSelector(message: string, field: string): CustodyError {
  return invalidArgument(message, field, { reason: "POLICY_INVALID_SELECTOR" satisfies PolicyErrorReason });
}
