/**
 * What a condition of field tests (the shapes `field-tests.ts` judges) needs, read off its syntax tree once:
 * the type each field it reads must have for its fast path to give a bool, the steps that bool costs, and
 * the values some fields must hold for it to be true. A policy index (`policy-index.ts`) uses them to know,
 * from a few field values, that a condition is false without judging it.
 *
 * Every figure here follows `field-tests.ts` exactly: the fast path gives a bool, and the one these needs
 * describe, when every field is readable with its type, no string it reads is {@link LONG_STRING} long or
 * more, and the steps fit the budget.
 *
 * @module
 */

import type { Expr } from "./ast.js";
import { MAX_EVALUATION_STEPS } from "./evaluator.js";
import { fieldReadOf, type Scalar } from "./field-tests.js";
import { MAX_UINT, MIN_INT } from "./values.js";

/** The type a field must read as: one of the language's scalars, or any (it need only be readable). */
export type FieldType = "string" | "boolean" | "bigint" | "any";

/** A field string this long or longer costs extra steps (see `field-tests.ts`); shorter ones cost none. */
export const LONG_STRING = 1024;

/** What a condition of field tests needs. Fields are named by their path number (`FieldRead.pathId`). */
export interface ConditionNeeds {
  /** Each field the condition reads, with the type its tests need. */
  readonly types: ReadonlyMap<number, FieldType>;
  /** Fields that must hold one of these values for the condition to be true (an empty set: never true). */
  readonly necessary: ReadonlyMap<number, ReadonlySet<Scalar>>;
  /** The steps the fast path takes when it gives a bool and reads no long string. */
  readonly steps: number;
}

/** Raised inside the walk: the fast path could never give a bool, or the needs depend on the values. */
class Unknowable extends Error {}

interface Walk {
  readonly types: Map<number, FieldType>;
  steps: number;
}

/**
 * The needs of `condition` (a condition the fast path judges), or `undefined` when no set of field types
 * makes its fast path give a bool (a test between literals of two types, two fields compared with each other,
 * more steps than the budget).
 */
export function conditionNeeds(condition: Expr): ConditionNeeds | undefined {
  const walk: Walk = { types: new Map(), steps: 0 };
  try {
    const necessary = boolNeeds(condition, walk);
    if (walk.steps > MAX_EVALUATION_STEPS) return undefined;
    return { types: walk.types, necessary, steps: walk.steps };
  } catch (error) {
    if (error instanceof Unknowable) return undefined;
    throw error;
  }
}

type Necessary = Map<number, ReadonlySet<Scalar>>;

/** `expr` as a bool: its steps and field types into `walk`; what it needs to be true as the result. */
function boolNeeds(expr: Expr, walk: Walk): Necessary {
  switch (expr.kind) {
    case "bool":
      walk.steps += 1;
      return new Map();
    case "chain": {
      const pathId = fieldOf(expr, walk, "boolean");
      return new Map([[pathId, new Set<Scalar>([true])]]);
    }
    case "not":
      walk.steps += 1;
      boolNeeds(expr.operand, walk);
      return new Map();
    case "logical": {
      walk.steps += 1;
      const each = expr.operands.map((operand) => boolNeeds(operand, walk));
      return expr.operator === "&&" ? allOf(each) : anyOf(each);
    }
    case "compare":
      return compareNeeds(expr, walk);
    default:
      throw new Unknowable();
  }
}

/** Every operand true: each field's values are those every operand that names it allows. */
function allOf(each: readonly Necessary[]): Necessary {
  const merged: Necessary = new Map();
  for (const necessary of each) {
    for (const [pathId, values] of necessary) {
      const known = merged.get(pathId);
      merged.set(pathId, known === undefined ? values : new Set([...known].filter((value) => values.has(value))));
    }
  }
  return merged;
}

/** Some operand true: only fields every operand names, with the values any of them allows. */
function anyOf(each: readonly Necessary[]): Necessary {
  const [first, ...others] = each;
  const merged: Necessary = new Map();
  if (first === undefined) return merged;
  for (const [pathId, values] of first) {
    if (others.every((necessary) => necessary.has(pathId))) {
      merged.set(
        pathId,
        new Set([values, ...others.map((necessary) => necessary.get(pathId)!)].flatMap((v) => [...v])),
      );
    }
  }
  return merged;
}

/** A literal (its value) or a field (its path number), taking the steps its fast path takes. */
type Operand = { literal: Scalar } | { pathId: number };

function operandOf(expr: Expr, walk: Walk): Operand {
  if (expr.kind === "string" || expr.kind === "bool" || expr.kind === "int") {
    walk.steps += 1;
    return { literal: expr.value };
  }
  // The field's type is set by the test that reads it.
  return { pathId: fieldOf(expr, walk, "any") };
}

function compareNeeds(expr: Expr & { kind: "compare" }, walk: Walk): Necessary {
  walk.steps += 1;
  const left = operandOf(expr.left, walk);
  if (expr.operator === "in") return inNeeds(left, expr.right, walk);
  const right = operandOf(expr.right, walk);
  if ("pathId" in left && "pathId" in right) throw new Unknowable();
  const ordering = expr.operator !== "==" && expr.operator !== "!=";
  if ("literal" in left && "literal" in right) {
    if (
      ordering
        ? typeof left.literal !== "bigint" || typeof right.literal !== "bigint"
        : typeof left.literal !== typeof right.literal
    ) {
      throw new Unknowable();
    }
    if (typeof left.literal === "string") walk.steps += left.literal.length >> 10;
    return new Map();
  }
  const [field, literal] = ("pathId" in left ? [left, right] : [right, left]) as [
    { pathId: number },
    { literal: Scalar },
  ];
  if (ordering && typeof literal.literal !== "bigint") throw new Unknowable();
  setType(walk, field.pathId, typeof literal.literal as FieldType);
  // A literal string on the left costs its length; a field's is short (the index checks it per decision).
  if ("literal" in left && typeof left.literal === "string") walk.steps += left.literal.length >> 10;
  return expr.operator === "==" ? new Map([[field.pathId, new Set([literal.literal])]]) : new Map();
}

function inNeeds(needle: Operand, list: Expr, walk: Walk): Necessary {
  if (list.kind !== "list") throw new Unknowable();
  const items: Scalar[] = [];
  for (const item of list.items) {
    if (item.kind !== "string" && item.kind !== "bool" && item.kind !== "int") throw new Unknowable();
    if (typeof item.value === "bigint" && (item.value < MIN_INT || item.value > MAX_UINT)) throw new Unknowable();
    items.push(item.value);
  }
  if (items.length === 0) {
    walk.steps += 1;
  } else {
    walk.steps += 1 + 2 * items.length;
    const type = typeof items[0] as FieldType;
    if (items.some((item) => typeof item !== type)) throw new Unknowable();
    if ("literal" in needle) {
      if (typeof needle.literal !== type) throw new Unknowable();
      if (typeof needle.literal === "string") walk.steps += (needle.literal.length >> 10) * items.length;
    } else {
      setType(walk, needle.pathId, type);
    }
  }
  return "pathId" in needle ? new Map([[needle.pathId, new Set(items)]]) : new Map();
}

/** The path number of the field `expr` reads, its steps taken and `type` required of it. */
function fieldOf(expr: Expr, walk: Walk, type: FieldType): number {
  const read = expr.kind === "chain" ? fieldReadOf(expr, "condition") : undefined;
  if (read?.pathId === undefined) throw new Unknowable();
  walk.steps += 2 + read.fields.length;
  setType(walk, read.pathId, type);
  return read.pathId;
}

/** Requires `type` of a field, on top of what other tests require: two scalar types can never both hold. */
function setType(walk: Walk, pathId: number, type: FieldType): void {
  const known = walk.types.get(pathId);
  if (known === undefined || known === "any") walk.types.set(pathId, type);
  else if (type !== "any" && type !== known) throw new Unknowable();
}
