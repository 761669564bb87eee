/**
 * Recursive-descent parser for condition, consensus and time expressions (grammar: docs/spec/policy-language.md
 * §1). Precedence, loosest first: `||`, `&&`, one non-chaining relational operator, `!`, postfix steps.
 *
 * Every way the parser can recurse (parentheses, list and index brackets, call arguments, `!`) passes
 * through one depth counter, so hostile nesting is refused at {@link MAX_NESTING_DEPTH} with a position
 * long before the call stack is at risk; long `&&` chains and postfix chains are loops, not recursion.
 *
 * @module
 */

import type { Expr, LambdaMethod, RelationalOperator, Span, Step } from "./ast.js";
import { parseCronSpan } from "./cron-span.js";
import { expressionError, syntaxError } from "./expression-errors.js";
import { type Token, tokenize } from "./lexer.js";
import { parseTimestamp } from "./timestamp.js";

/** Deepest accepted nesting of parentheses, brackets, call arguments and `!`. Real policies use under ten. */
export const MAX_NESTING_DEPTH = 64;

const RELATIONAL = new Set<string>(["==", "!=", "<", "<=", ">", ">=", "in"]);
const RESERVED = new Set(["true", "false", "in"]);
const LAMBDA_METHODS = new Set<string>(["any", "all", "filter"]);
const FUNCTION_ARITY = { Timestamp: 1, CronSpan: 3 } as const;

/** Parses one expression. Throws a `CustodyError` (`INVALID_ARGUMENT`, with `details.position`) on any fault. */
export function parseExpression(source: string): Expr {
  const cached = parsed.get(source);
  if (cached !== undefined) return cached;
  const expr = new Parser(tokenize(source)).parseAll();
  if (parsed.size >= PARSED_CACHE_SIZE) parsed.delete(parsed.keys().next().value as string);
  parsed.set(source, expr);
  return expr;
}

// Every activity evaluates every policy of its organization, so the same few sources are parsed over and over.
// A tree depends on its source text alone and nothing mutates it, so parsed trees are shared; the bound keeps
// an organization that writes many policies from growing the cache without end (oldest first out).
const PARSED_CACHE_SIZE = 4096;
const parsed = new Map<string, Expr>();

function describe(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "end of expression";
    case "int":
      return `integer ${token.text}`;
    case "string":
      return "string literal";
    default:
      return `'${token.text}'`;
  }
}

class Parser {
  private next = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parseAll(): Expr {
    if (this.peek().kind === "eof") throw syntaxError("expression is empty", 0);
    const expr = this.expression();
    const extra = this.peek();
    if (extra.kind !== "eof") throw syntaxError(`unexpected ${describe(extra)}`, extra.start);
    return expr;
  }

  private peek(): Token {
    return this.tokens[this.next]!;
  }

  private take(): Token {
    const token = this.tokens[this.next]!;
    if (token.kind !== "eof") this.next++;
    return token;
  }

  private isPunct(text: string): boolean {
    const token = this.peek();
    return token.kind === "punct" && token.text === text;
  }

  private expect(text: string, why?: string): Token {
    if (this.isPunct(text)) return this.take();
    const found = this.peek();
    throw syntaxError(why ?? `expected '${text}' but found ${describe(found)}`, found.start);
  }

  private expectIdent(what: string): Token {
    const token = this.peek();
    if (token.kind !== "ident") throw syntaxError(`expected ${what} but found ${describe(token)}`, token.start);
    return this.take();
  }

  private enter(at: Token): void {
    if (++this.depth > MAX_NESTING_DEPTH) {
      throw expressionError(
        "POLICY_EXPRESSION_TOO_DEEP",
        `expression nests deeper than ${MAX_NESTING_DEPTH} levels`,
        at.start,
      );
    }
  }

  private leave(): void {
    this.depth--;
  }

  private expression(): Expr {
    return this.logical("||", () => this.logical("&&", () => this.relational()));
  }

  private logical(operator: "&&" | "||", operand: () => Expr): Expr {
    const first = operand();
    if (!this.isPunct(operator)) return first;
    const operands = [first];
    while (this.isPunct(operator)) {
      this.take();
      operands.push(operand());
    }
    return { kind: "logical", operator, operands, start: first.start, end: operands.at(-1)!.end };
  }

  private relationalOperator(): RelationalOperator | undefined {
    const token = this.peek();
    const isOperator =
      (token.kind === "punct" || (token.kind === "ident" && token.text === "in")) && RELATIONAL.has(token.text);
    return isOperator ? (token.text as RelationalOperator) : undefined;
  }

  private relational(): Expr {
    const left = this.unary();
    const operator = this.relationalOperator();
    if (operator === undefined) return left;
    const operatorStart = this.take().start;
    const right = this.unary();
    if (this.relationalOperator() !== undefined) {
      throw syntaxError("comparisons cannot be chained; combine them with && or ||", this.peek().start);
    }
    return { kind: "compare", operator, left, right, operatorStart, start: left.start, end: right.end };
  }

  private unary(): Expr {
    if (!this.isPunct("!")) return this.postfix();
    const bang = this.take();
    this.enter(bang);
    const operand = this.unary();
    this.leave();
    return { kind: "not", operand, start: bang.start, end: operand.end };
  }

  private postfix(): Expr {
    const head = this.primary();
    const steps: Step[] = [];
    for (;;) {
      if (this.isPunct(".")) {
        this.take();
        const name = this.expectIdent("a field or method name after '.'");
        steps.push(
          this.isPunct("(") ? this.method(name) : { kind: "field", name: name.text, start: name.start, end: name.end },
        );
      } else if (this.isPunct("[")) {
        steps.push(this.indexOrSlice());
      } else {
        break;
      }
    }
    return steps.length === 0 ? head : { kind: "chain", head, steps, start: head.start, end: steps.at(-1)!.end };
  }

  private indexOrSlice(): Step {
    const open = this.take();
    this.enter(open);
    const from = this.expression();
    let to: Expr | undefined;
    if (this.isPunct("..")) {
      this.take();
      to = this.expression();
    }
    const close = this.expect("]");
    this.leave();
    const span = { start: open.start, end: close.end };
    return to === undefined ? { kind: "index", index: from, ...span } : { kind: "slice", from, to, ...span };
  }

  private method(name: Token): Step {
    const method = name.text;
    if (method !== "count" && method !== "contains" && !LAMBDA_METHODS.has(method)) {
      throw syntaxError(`unknown method '${method}' (methods are all, any, filter, contains, count)`, name.start);
    }
    const open = this.take();
    this.enter(open);
    let step: Step;
    if (method === "count") {
      const close = this.expect(")", "count() takes no arguments");
      step = { kind: "count", start: name.start, end: close.end };
    } else if (method === "contains") {
      const value = this.expression();
      const close = this.expect(")", "contains() takes exactly one argument");
      step = { kind: "contains", value, start: name.start, end: close.end };
    } else {
      const usage = `${method}() takes a variable and a predicate, e.g. approvers.${method}(user, user.id == '...')`;
      const variable = this.peek();
      if (variable.kind !== "ident" || RESERVED.has(variable.text)) throw syntaxError(usage, variable.start);
      this.take();
      this.expect(",", usage);
      const body = this.expression();
      const close = this.expect(")", usage);
      step = {
        kind: "lambda",
        method: method as LambdaMethod,
        variable: variable.text,
        body,
        start: name.start,
        end: close.end,
      };
    }
    this.leave();
    return step;
  }

  private primary(): Expr {
    const token = this.take();
    const span: Span = { start: token.start, end: token.end };
    switch (token.kind) {
      case "int":
        return { kind: "int", value: token.int!, ...span };
      case "string":
        return { kind: "string", value: token.text, ...span };
      case "ident":
        if (token.text === "true" || token.text === "false")
          return { kind: "bool", value: token.text === "true", ...span };
        if (token.text === "in") throw syntaxError("unexpected 'in'", token.start);
        return this.isPunct("(") ? this.functionCall(token) : { kind: "ident", name: token.text, ...span };
      case "punct":
        if (token.text === "(") {
          this.enter(token);
          const inner = this.expression();
          const close = this.expect(")");
          this.leave();
          return { ...inner, start: token.start, end: close.end };
        }
        if (token.text === "[") return this.list(token);
        throw syntaxError(`unexpected ${describe(token)}`, token.start);
      default:
        throw syntaxError("unexpected end of expression", token.start);
    }
  }

  private list(open: Token): Expr {
    this.enter(open);
    const items: Expr[] = [];
    if (!this.isPunct("]")) {
      items.push(this.expression());
      while (this.isPunct(",")) {
        this.take();
        items.push(this.expression());
      }
    }
    const close = this.expect("]", `expected ',' or ']' in list but found ${describe(this.peek())}`);
    this.leave();
    return { kind: "list", items, start: open.start, end: close.end };
  }

  private functionCall(name: Token): Expr {
    if (!Object.hasOwn(FUNCTION_ARITY, name.text)) {
      throw syntaxError(`unknown function '${name.text}' (functions are Timestamp and CronSpan)`, name.start);
    }
    const fn = name.text as keyof typeof FUNCTION_ARITY;
    const open = this.take();
    this.enter(open);
    const args: Expr[] = [];
    if (!this.isPunct(")")) {
      args.push(this.expression());
      while (this.isPunct(",")) {
        this.take();
        args.push(this.expression());
      }
    }
    const close = this.expect(")");
    this.leave();
    const arity = FUNCTION_ARITY[fn];
    if (args.length !== arity) {
      throw syntaxError(`${fn}() takes ${arity} argument${arity === 1 ? "" : "s"}, got ${args.length}`, name.start);
    }
    checkLiteralArguments(fn, args);
    return { kind: "function", name: fn, args, start: name.start, end: close.end };
  }
}

/** Literal arguments are checked now, so a bad timestamp or cron is refused when the policy is created. */
function checkLiteralArguments(fn: keyof typeof FUNCTION_ARITY, args: Expr[]): void {
  if (!args.every((arg) => arg.kind === "string")) return;
  const [first, second, third] = args as Array<Expr & { kind: "string" }>;
  if (fn === "Timestamp") {
    parseTimestamp(first!.value, first!.start);
  } else {
    parseCronSpan(first!.value, second!.value, third!.value, {
      cron: first!.start,
      duration: second!.start,
      timeZone: third!.start,
    });
  }
}
