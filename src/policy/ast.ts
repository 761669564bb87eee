/**
 * The syntax tree of a parsed expression. Every node keeps its `[start, end)` span in the source so errors
 * can point at it and messages can quote it.
 *
 * A postfix chain (`eth.tx.contract_call_args['calls'].all(...)`) is one {@link Chain} node with a flat list
 * of steps rather than a nest of member nodes: a long chain then costs no depth, in the parser or the
 * evaluator.
 *
 * @module
 */

export interface Span {
  start: number;
  end: number;
}

export type RelationalOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in";

/** Methods whose argument is a `variable, predicate` pair. */
export type LambdaMethod = "any" | "all" | "filter";

export type Expr =
  | (Span & { kind: "int"; value: bigint })
  | (Span & { kind: "string"; value: string })
  | (Span & { kind: "bool"; value: boolean })
  | (Span & { kind: "list"; items: Expr[] })
  | (Span & { kind: "ident"; name: string })
  | (Span & { kind: "not"; operand: Expr })
  | (Span & { kind: "compare"; operator: RelationalOperator; left: Expr; right: Expr; operatorStart: number })
  /** `&&` or `||` over two or more operands, all of which are evaluated. */
  | (Span & { kind: "logical"; operator: "&&" | "||"; operands: Expr[] })
  | (Span & { kind: "function"; name: "Timestamp" | "CronSpan"; args: Expr[] })
  | Chain;

export type Chain = Span & { kind: "chain"; head: Expr; steps: Step[] };

export type Step =
  | (Span & { kind: "field"; name: string })
  | (Span & { kind: "index"; index: Expr })
  | (Span & { kind: "slice"; from: Expr; to: Expr })
  | (Span & { kind: "count" })
  | (Span & { kind: "contains"; value: Expr })
  | (Span & { kind: "lambda"; method: LambdaMethod; variable: string; body: Expr });
