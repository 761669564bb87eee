/**
 * Static questions about a parsed expression: which names it can never resolve, and which quantifiers
 * range over the approvers or their credentials.
 *
 * @module
 */

import type { Expr, Step } from "./ast.js";
import { keywordScopeError } from "./keywords.js";
import type { PolicyExpressionField } from "./types.js";

/** Visits every node with the lambda variables bound at it. Recursion follows the (depth-limited) tree. */
function walk(expr: Expr, bound: readonly string[], visit: (node: Expr, bound: readonly string[]) => void): void {
  visit(expr, bound);
  for (const [child, variable] of childrenOf(expr)) {
    walk(child, variable === undefined ? bound : [...bound, variable], visit);
  }
}

/** The direct sub-expressions of `expr`, each with the lambda variable it binds, if any. */
function childrenOf(expr: Expr): Array<[Expr, string?]> {
  switch (expr.kind) {
    case "list":
      return expr.items.map((item) => [item]);
    case "not":
      return [[expr.operand]];
    case "compare":
      return [[expr.left], [expr.right]];
    case "logical":
      return expr.operands.map((operand) => [operand]);
    case "function":
      return expr.args.map((arg) => [arg]);
    case "chain":
      return [
        [expr.head],
        ...expr.steps.flatMap(
          (step): Array<[Expr, string?]> =>
            step.kind === "lambda" ? [[step.body, step.variable]] : stepOperands(step).map((operand) => [operand]),
        ),
      ];
    default:
      return [];
  }
}

function stepOperands(step: Step): Expr[] {
  switch (step.kind) {
    case "index":
      return [step.index];
    case "slice":
      return [step.from, step.to];
    case "contains":
      return [step.value];
    default:
      return [];
  }
}

/**
 * Throws when `expr` names something that is neither a lambda variable in scope nor a keyword of `field`:
 * such an expression could only ever fail, so it is refused when the policy is written.
 */
export function checkIdentifiers(expr: Expr, field: PolicyExpressionField): void {
  walk(expr, [], (node, bound) => {
    if (node.kind !== "ident" || bound.includes(node.name)) return;
    const scopeError = keywordScopeError(node.name, field, node.start);
    if (scopeError !== undefined) throw scopeError;
  });
}

/** A quantifier written directly on a consensus keyword: `approvers.any(user, …)`, `credentials.filter(c, …)`. */
export interface ApproverQuantifier {
  keyword: "approvers" | "credentials";
  variable: string;
  body: Expr;
}

/** The quantifiers of `expr` over the `approvers` or `credentials` keyword (not over a shadowing variable). */
export function approverQuantifiers(expr: Expr): ApproverQuantifier[] {
  const found: ApproverQuantifier[] = [];
  walk(expr, [], (node, bound) => {
    if (node.kind !== "chain" || node.head.kind !== "ident") return;
    const keyword = node.head.name;
    const first = node.steps[0]!;
    if ((keyword === "approvers" || keyword === "credentials") && !bound.includes(keyword) && first.kind === "lambda") {
      found.push({ keyword, variable: first.variable, body: first.body });
    }
  });
  return found;
}

/** The keyword roots `expr` reads (its free names), in order of first use. */
export function keywordsRead(expr: Expr): string[] {
  const names = new Set<string>();
  walk(expr, [], (node, bound) => {
    if (node.kind === "ident" && !bound.includes(node.name)) names.add(node.name);
  });
  return [...names];
}

/**
 * Whether `expr` reads the keyword path `path` (`["activity", "params", "user_id"]`): a chain on the
 * keyword, not on a lambda variable of that name, whose first steps are those fields.
 */
export function readsKeywordPath(expr: Expr, path: readonly [string, ...string[]]): boolean {
  const [keyword, ...fields] = path;
  let found = false;
  walk(expr, [], (node, bound) => {
    if (found || node.kind !== "chain" || node.head.kind !== "ident") return;
    if (node.head.name !== keyword || bound.includes(keyword)) return;
    found = fields.every((name, i) => {
      const step = node.steps[i];
      return step?.kind === "field" && step.name === name;
    });
  });
  return found;
}
