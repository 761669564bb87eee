/**
 * A policy's expressions as the dev console shows them: each clause with the values its operands read and
 * what it gave (`eth.tx.value` = 5·10^18 < 1·10^18 → false), the clauses that decided marked, and the
 * user ids a policy names shown with the users' names.
 *
 * @module
 */
import type { PolicyTrace } from "../../engine/pipeline/trace-activity.js";
import type { ExpressionTrace, TracedClause, TracedOperand } from "../../policy/trace.js";
import { type Html, html } from "./html.js";
import { id, status } from "./parts.js";

function bool(result: boolean | undefined): Html {
  if (result === undefined) return html`<span class="f">fails</span>`;
  return result ? html`<span class="t">true</span>` : html`<span class="f">false</span>`;
}

function operand(read: TracedOperand | undefined): Html {
  if (read === undefined) return html``;
  if (read.error !== undefined) return html`<code>${read.text}</code> <span class="f">(${read.error})</span>`;
  if (read.literal) return html`<span class="val">${read.value}</span>`;
  return html`<code>${read.text}</code> = <span class="val">${read.value}</span>`;
}

const KIND_LABEL: Record<TracedClause["kind"], string> = {
  and: "all of",
  or: "any of",
  not: "not",
  compare: "",
  value: "",
};

function clauseLine(clause: TracedClause): Html {
  const indent = `padding-left:${clause.depth * 18}px`;
  const body =
    clause.kind === "compare"
      ? html`${operand(clause.left)} ${clause.operator} ${operand(clause.right)}`
      : clause.kind === "value"
        ? html`<code>${clause.text}</code>`
        : html`${KIND_LABEL[clause.kind]} <code>${clause.text}</code>`;
  const error = clause.error !== undefined ? html` <span class="f">${clause.error}</span>` : "";
  const decides = clause.deciding ? html` <span class="decides">← decided</span>` : "";
  return html`<li class="clause${clause.deciding ? " deciding" : ""}" style="${indent}">${body} → ${bool(clause.result)}${error}${decides}</li>`;
}

/** One expression's trace. */
export function expressionView(label: string, source: string, trace: ExpressionTrace): Html {
  const omitted = trace.omitted > 0 ? html`<li class="empty">… ${trace.omitted} more clauses not shown</li>` : "";
  const failed = trace.error !== undefined ? html` <span class="f">${trace.error.message}</span>` : "";
  return html`<div class="expression" data-field="${trace.field}"><div>${label} <code>${source}</code> → ${bool(trace.result)}${failed}</div>
<ul class="clauses">${trace.clauses.map(clauseLine)}</ul>${omitted}</div>`;
}

/** The users a policy's expressions name by id, by name. */
function namedIds(sources: readonly string[], names: ReadonlyMap<string, string>): Html {
  const found = [...names].filter(([userId]) => sources.some((source) => source.includes(userId)));
  if (found.length === 0) return html``;
  return html`<div class="names">${found.map(([userId, name]) => html`<div>${id(userId)} is <b>${name}</b></div>`)}</div>`;
}

/** One policy of a replayed decision. */
export function policyView(policy: PolicyTrace, names: ReadonlyMap<string, string>, deciding: boolean): Html {
  const changed =
    policy.recorded !== policy.outcome
      ? html`<p class="wait">the decision recorded ${policy.recorded ?? "no outcome (the policy is newer)"}; now it gives ${policy.outcome ?? "nothing"}</p>`
      : "";
  const sources = policy.expressions.map((expression) => expression.source);
  return html`<div class="policy${deciding ? " deciding-policy" : ""}" data-policy-id="${policy.policyId}">
<div><b>${policy.policyName}</b> ${id(policy.policyId)} · ${policy.effect} · ${status(policy.recorded ?? policy.outcome ?? "")}${deciding ? html` <span class="decides">← settled the decision</span>` : ""}</div>
${policy.expressions.map(({ field, source, trace }) => expressionView(field, source, trace))}
${policy.expressions.length === 0 ? html`<p class="empty">no condition: it applies to every activity</p>` : ""}
${namedIds(sources, names)}${changed}</div>`;
}
