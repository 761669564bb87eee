/**
 * Hex literals that cannot match the `eth` keyword they are compared with: every address and hex value under
 * `eth` is shown in lower case (docs/spec/policy-language.md, decision 6) and strings compare exactly, so
 * `eth.tx.to == '0xAbC…'` (an EIP-55 checksummed address) is never true. The hosted service stores such
 * policies (its own examples compare checksummed addresses), so this is a warning, not a refusal.
 * `wallet_account.address` keeps the checksummed form, so literals compared with it are left alone.
 *
 * @module
 */

import type { Expr } from "./ast.js";
import type { PolicyWarning } from "./field-check.js";

const MIXED_CASE_HEX = /^0x[0-9a-fA-F]*[A-F][0-9a-fA-F]*$/;

/** Whether `expr` reads the `eth` keyword (a chain on it, not on a lambda variable of that name). */
function readsEth(expr: Expr, bound: ReadonlySet<string>): boolean {
  const head = expr.kind === "chain" ? expr.head : expr;
  return head.kind === "ident" && head.name === "eth" && !bound.has("eth");
}

/** The string literals of `expr` itself, or of a list literal. */
function literalsOf(expr: Expr): Array<Extract<Expr, { kind: "string" }>> {
  if (expr.kind === "string") return [expr];
  if (expr.kind === "list") return expr.items.flatMap((item) => (item.kind === "string" ? [item] : []));
  return [];
}

function warningFor(literal: Extract<Expr, { kind: "string" }>): PolicyWarning | undefined {
  if (!MIXED_CASE_HEX.test(literal.value)) return undefined;
  const what = literal.value.length === 42 ? "address" : "hex value";
  return {
    // Past the opening quote: the first character of the value.
    position: literal.start + 1,
    message:
      `the ${what} '${literal.value}' is not lower case, and eth values are, so it never matches; ` +
      `write '${literal.value.toLowerCase()}'`,
  };
}

/**
 * Adds to `warnings` each mixed-case `0x` literal compared with an `eth` value: either side of `==`, `!=` or
 * `in` (a literal or a list of them), or the argument of `.contains` on an `eth` chain.
 */
export function checkAddressCase(expr: Expr, warnings: PolicyWarning[]): void {
  visit(expr, new Set(), warnings);
}

function flag(literals: ReturnType<typeof literalsOf>, warnings: PolicyWarning[]): void {
  for (const literal of literals) {
    const warning = warningFor(literal);
    if (warning !== undefined) warnings.push(warning);
  }
}

function visit(expr: Expr, bound: ReadonlySet<string>, warnings: PolicyWarning[]): void {
  switch (expr.kind) {
    case "compare":
      if (readsEth(expr.left, bound)) flag(literalsOf(expr.right), warnings);
      if (readsEth(expr.right, bound)) flag(literalsOf(expr.left), warnings);
      visit(expr.left, bound, warnings);
      visit(expr.right, bound, warnings);
      return;
    case "list":
      for (const item of expr.items) visit(item, bound, warnings);
      return;
    case "not":
      visit(expr.operand, bound, warnings);
      return;
    case "logical":
      for (const operand of expr.operands) visit(operand, bound, warnings);
      return;
    case "function":
      for (const arg of expr.args) visit(arg, bound, warnings);
      return;
    case "chain": {
      visit(expr.head, bound, warnings);
      const onEth = readsEth(expr, bound);
      for (const step of expr.steps) {
        switch (step.kind) {
          case "index":
            visit(step.index, bound, warnings);
            break;
          case "slice":
            visit(step.from, bound, warnings);
            visit(step.to, bound, warnings);
            break;
          case "contains":
            if (onEth) flag(literalsOf(step.value), warnings);
            visit(step.value, bound, warnings);
            break;
          case "lambda":
            visit(step.body, new Set([...bound, step.variable]), warnings);
            break;
          default:
            break;
        }
      }
      return;
    }
    default:
      return;
  }
}
