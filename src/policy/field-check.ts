/**
 * Follows every keyword path of a parsed expression through the keyword catalogue (`catalogue.ts`): a field
 * the language does not define is refused, naming the closest one; a field the hosted language defines but
 * custodian never fills gives a warning. Lambda variables take the shape of the list they range over, so
 * `approvers.any(user, user.idd == '...')` is caught too.
 *
 * @module
 */

import { closeMatches } from "../common/close-matches.js";
import type { CustodyError } from "../common/errors.js";
import type { Chain, Expr, Step } from "./ast.js";
import { KEYWORD_SHAPES, type Shape } from "./catalogue.js";
import { expressionError } from "./expression-errors.js";

/** Something that works, but not as its author probably meant: a policy is stored, and this is reported. */
export interface PolicyWarning {
  /** The character of the expression it is about. */
  position: number;
  message: string;
}

const OPEN: Shape = { kind: "open" };
const LEAF: Shape = { kind: "leaf" };

/** A variable in scope: what it holds, and how to name it in a message. */
interface Binding {
  shape: Shape;
  path: string;
}

type Scope = ReadonlyMap<string, Binding>;

/**
 * Throws `INVALID_ARGUMENT` (`POLICY_UNKNOWN_FIELD`) at the first field `expr` reads that its keyword does not
 * have; adds to `warnings` the fields that exist but are never filled. Keywords themselves are checked by
 * `checkIdentifiers`; a name that is neither a keyword nor a variable is left to it.
 */
export function checkFields(expr: Expr, warnings: PolicyWarning[]): void {
  visit(expr, new Map(), warnings);
}

function visit(expr: Expr, scope: Scope, warnings: PolicyWarning[]): Binding {
  switch (expr.kind) {
    case "ident":
      return rootOf(expr.name, expr.start, scope, warnings);
    case "chain":
      return chain(expr, scope, warnings);
    case "list":
      for (const item of expr.items) visit(item, scope, warnings);
      return { shape: { kind: "list", of: OPEN }, path: "the list" };
    case "not":
      visit(expr.operand, scope, warnings);
      return { shape: LEAF, path: "" };
    case "compare":
      visit(expr.left, scope, warnings);
      visit(expr.right, scope, warnings);
      return { shape: LEAF, path: "" };
    case "logical":
      for (const operand of expr.operands) visit(operand, scope, warnings);
      return { shape: LEAF, path: "" };
    case "function":
      for (const arg of expr.args) visit(arg, scope, warnings);
      return { shape: LEAF, path: "" };
    default:
      return { shape: LEAF, path: "" };
  }
}

function rootOf(name: string, position: number, scope: Scope, warnings: PolicyWarning[]): Binding {
  const bound = scope.get(name);
  if (bound !== undefined) return bound;
  const keyword = KEYWORD_SHAPES[name];
  if (keyword === undefined) return { shape: OPEN, path: name };
  if (keyword.warning !== undefined) warnings.push({ position, message: keyword.warning });
  return { shape: keyword.shape, path: name };
}

function chain(expr: Chain, scope: Scope, warnings: PolicyWarning[]): Binding {
  let current = visit(expr.head, scope, warnings);
  for (const step of expr.steps) current = follow(current, step, scope, warnings);
  return current;
}

/** What `step` reads from `from`; throws when it reads a field `from` cannot have. */
function follow(from: Binding, step: Step, scope: Scope, warnings: PolicyWarning[]): Binding {
  const { shape, path } = from;
  switch (step.kind) {
    case "field":
      return fieldOf(from, step.name, step.start, warnings);
    case "index": {
      visit(step.index, scope, warnings);
      if (shape.kind === "list") return { shape: shape.of, path: `${path}[]` };
      if (shape.kind === "struct" && step.index.kind === "string") {
        return fieldOf(from, step.index.value, step.index.start, warnings);
      }
      return { shape: shape.kind === "leaf" ? LEAF : OPEN, path: `${path}[]` };
    }
    case "slice":
      visit(step.from, scope, warnings);
      visit(step.to, scope, warnings);
      return from;
    case "contains":
      visit(step.value, scope, warnings);
      return { shape: LEAF, path: "" };
    case "count":
      return { shape: LEAF, path: "" };
    case "lambda": {
      const element: Binding =
        shape.kind === "list"
          ? { shape: shape.of, path: `${step.variable} (an element of ${path})` }
          : { shape: OPEN, path: step.variable };
      const inner = new Map(scope);
      inner.set(step.variable, element);
      visit(step.body, inner, warnings);
      return step.method === "filter" ? from : { shape: LEAF, path: "" };
    }
  }
}

function fieldOf(from: Binding, name: string, position: number, warnings: PolicyWarning[]): Binding {
  const { shape, path } = from;
  switch (shape.kind) {
    case "open":
      return { shape: OPEN, path: `${path}.${name}` };
    case "struct": {
      const field = shape.fields[name];
      if (field === undefined) throw unknownField(name, path, Object.keys(shape.fields), position);
      if (field.warning !== undefined) warnings.push({ position, message: field.warning });
      return { shape: field.shape, path: `${path}.${name}` };
    }
    case "list":
      // A bare `.count` on a list means `.count()` (docs/spec/policy-language.md, decision 2).
      if (name === "count") return { shape: LEAF, path: "" };
      throw expressionError(
        "POLICY_UNKNOWN_FIELD",
        `${path} is a list and has no field '${name}'; read its elements with .any, .all, .filter or [index]`,
        position,
      );
    case "leaf":
      throw expressionError(
        "POLICY_UNKNOWN_FIELD",
        `${path === "" ? "this value" : path} is a single value and has no field '${name}'`,
        position,
      );
  }
}

const MAX_LISTED_FIELDS = 16;

/** Words people write for a field under another name: the transaction's ends and amount. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  recipient: ["to"],
  receiver: ["to"],
  destination: ["to"],
  dest: ["to"],
  sender: ["from"],
  source: ["from"],
  amount: ["value"],
  gas_limit: ["gas"],
  input: ["data"],
  calldata: ["data"],
};

/** `chainId` → `chain_id`. */
function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The field of `known` that `name` most likely meant: a near spelling, a synonym, its snake_case form. */
function closestField(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const candidates = [...closeMatches(name, known, 1), ...(SYNONYMS[lower] ?? []), snakeCase(name)];
  return candidates.find((candidate) => known.includes(candidate));
}

function unknownField(name: string, path: string, known: readonly string[], position: number): CustodyError {
  const near = closestField(name, known);
  const guess = near === undefined ? "" : ` (did you mean '${near}'?)`;
  const list = known.length <= MAX_LISTED_FIELDS ? `; its fields are ${known.join(", ")}` : "";
  const error = expressionError("POLICY_UNKNOWN_FIELD", `${path} has no field '${name}'${guess}${list}`, position);
  if (near !== undefined) error.details.suggestion = near;
  return error;
}
