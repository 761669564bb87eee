/**
 * One activity in the dev console: the verdict in a sentence, whose approval it waits for (by name), each
 * policy's expressions clause by clause with the values they read, the transaction or payload its policies
 * decoded next to the intent's hex, every vote and how it weighed, and every decision taken. A pending
 * activity's page refreshes itself until it is settled.
 *
 * @module
 */
import type { DecisionExplanation } from "../../engine/pipeline/explain.js";
import type { ActivityTrace, NamedUser, VoteStanding } from "../../engine/pipeline/trace-activity.js";
import type { Activity } from "../../model/wire-types.js";
import { type Html, html } from "./html.js";
import { type MfaStanding, mfaSection, mfaStandings, mfaWaitingPhrase } from "./mfa-view.js";
import {
  type ConsoleSources,
  deliveryRows,
  id,
  organizationLink,
  page,
  status,
  statusClass,
  table,
  timeOf,
} from "./parts.js";
import { expressionView, policyView } from "./trace-view.js";

/** Most characters of a JSON block (an intent, a result, a decoded transaction). */
const MAX_JSON_TEXT = 20_000;

/** `value` as indented JSON (big integers as digits), cut to {@link MAX_JSON_TEXT} characters. */
export function jsonText(value: unknown): string {
  const text =
    JSON.stringify(value, (_key, member: unknown) => (typeof member === "bigint" ? member.toString() : member), 2) ??
    "null";
  return text.length > MAX_JSON_TEXT ? `${text.slice(0, MAX_JSON_TEXT)}\n… (${text.length} characters in all)` : text;
}

function names(users: readonly NamedUser[]): string {
  const list = users.map((user) => user.userName);
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`;
}

/** Who the activity waits for, in a phrase: `waiting for bob`. */
export function waitingPhrase(trace: ActivityTrace): string {
  const byPolicy = trace.waitingOn.flatMap((open) => open.waitingFor);
  const unique = byPolicy.filter((user, i) => byPolicy.findIndex((other) => other.userId === user.userId) === i);
  if (unique.length > 0) return `waiting for ${names(unique)}`;
  const root = trace.rootQuorum;
  if (root !== undefined && root.missing > 0 && root.waitingFor.length > 0) {
    return `waiting for the root quorum: ${root.missing} more of ${names(root.waitingFor)}`;
  }
  return "waiting, but no user's approval could count now";
}

function verdict(
  activity: Activity,
  trace: ActivityTrace,
  latest: DecisionExplanation | undefined,
  mfa: readonly MfaStanding[],
): Html {
  const deciding = latest?.decidingPolicy;
  const by = deciding ? html` by policy <b>${deciding.policyName ?? deciding.policyId}</b>` : "";
  let text: Html;
  if (activity.status === "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED") {
    text = html`Waiting: <span class="waiting">${mfaWaitingPhrase(mfa)}</span>`;
  } else if (activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
    text = html`Waiting: <span class="waiting">${waitingPhrase(trace)}</span> (${latest?.reasonPhrase ?? ""})`;
  } else if (latest !== undefined && (latest.outcome === "DENY" || latest.outcome === "REJECTED")) {
    text = html`${latest.outcome === "DENY" ? "Denied" : "Rejected"}: ${latest.reasonPhrase}${by}`;
  } else if (activity.status === "ACTIVITY_STATUS_FAILED") {
    text = html`Allowed, then failed: ${activity.failure?.message ?? "unknown failure"}`;
  } else {
    text = html`Allowed: ${latest?.reasonPhrase ?? "no decision recorded"}${by}`;
  }
  return html`<p class="verdict ${statusClass(activity.status)}">${text}</p>`;
}

/** What a vote was, in words: the submission is never shown as an approval. */
function voteRole(vote: Pick<VoteStanding, "submission" | "selection">): string {
  if (vote.submission) return "submitted it";
  return vote.selection === "VOTE_SELECTION_APPROVED" ? "approved" : "rejected";
}

function votesSection(trace: ActivityTrace, pending: boolean): Html {
  const rows = trace.votes.map(
    (vote) =>
      html`<tr><td>${vote.userName}</td><td>${voteRole(vote)}</td><td>${pending ? (vote.counts ? "counts" : "expired: cast it again") : ""}</td><td>${new Date(vote.createdAtMs).toISOString()}</td></tr>`,
  );
  return html`<h2>Votes</h2>${table(["user", "vote", pending ? "counts now" : "", "at"], rows, "no votes")}`;
}

function waitingSection(trace: ActivityTrace, userNames: ReadonlyMap<string, string>): Html {
  const open = trace.waitingOn.map(
    (consensus) => html`<div class="policy" data-policy-id="${consensus.policyId}">
<div>policy <b>${consensus.policyName}</b> needs <code>${consensus.consensus}</code>: <span class="waiting">${consensus.waitingFor.length > 0 ? `waiting for ${names(consensus.waitingFor)}` : "no user left could meet it"}</span></div>
${expressionView("consensus now", consensus.consensus, consensus.trace)}
${[...userNames].filter(([userId]) => consensus.consensus.includes(userId)).map(([userId, name]) => html`<div>${id(userId)} is <b>${name}</b></div>`)}</div>`,
  );
  const root = trace.rootQuorum;
  const quorum =
    root !== undefined && root.missing > 0 && root.waitingFor.length > 0
      ? html`<p>or the root quorum: ${root.missing} more approval${root.missing === 1 ? "" : "s"} from ${names(root.waitingFor)}</p>`
      : "";
  const more =
    trace.votersNotJudged > 0 ? html`<p class="empty">${trace.votersNotJudged} more users not judged</p>` : "";
  return html`<h2>What it still needs</h2>${open.length > 0 ? open : html`<p class="empty">no policy's consensus is open</p>`}${quorum}${more}`;
}

function policiesSection(
  trace: ActivityTrace,
  latest: DecisionExplanation | undefined,
  userNames: ReadonlyMap<string, string>,
): Html {
  const { replay } = trace;
  if (replay === undefined) {
    return html`<h2>Policies, clause by clause</h2><p class="empty">${trace.replayError ?? "no decision to replay"}</p>`;
  }
  const changed = replay.changedSince
    ? html`<p class="wait">The policies changed since this decision: below is how the current ones read the same activity (now ${replay.outcome}).</p>`
    : "";
  const decidingId = latest?.decidingPolicy?.policyId;
  return html`<h2>Policies, clause by clause</h2>
<p>The latest decision (${new Date(replay.decidedAtMs).toISOString()}), each policy's expressions with the values they read.</p>${changed}
${replay.policies.length > 0 ? replay.policies.map((policy) => policyView(policy, userNames, policy.policyId === decidingId)) : html`<p class="empty">no policies: only the root quorum decides</p>`}`;
}

function decodedSection(activity: Activity, trace: ActivityTrace): Html {
  const decoded = trace.replay?.decoded ?? {};
  const parameters = trace.replay?.parameters;
  const shown =
    Object.keys(decoded).length > 0
      ? decoded
      : parameters !== undefined
        ? { "activity.params": parameters }
        : undefined;
  return html`<h2>Intent and what policies read from it</h2><div class="side">
<div><h3>Intent (as submitted)</h3><pre class="intent">${jsonText(activity.intent)}</pre></div>
<div><h3>Decoded (as policies read it)</h3>${shown === undefined ? html`<p class="empty">nothing decoded for this activity type</p>` : html`<pre class="decoded">${jsonText(shown)}</pre>`}</div></div>`;
}

function decisionBlock(decision: DecisionExplanation, index: number, userNames: ReadonlyMap<string, string>): Html {
  const who = userNames.get(decision.userId) ?? decision.userId;
  const prompted =
    index === 0
      ? `the submission by ${who}`
      : `${decision.selection === "VOTE_SELECTION_APPROVED" ? "the approval" : "the rejection"} by ${who}`;
  const evaluations = decision.evaluations.map(
    (evaluation) =>
      html`<tr><td>${evaluation.policyName ?? ""}</td><td>${id(evaluation.policyId)}</td><td>${evaluation.effect}</td><td>${status(evaluation.outcome)}</td><td>${evaluation.error ? `${evaluation.error.field}: ${evaluation.error.message}` : ""}</td></tr>`,
  );
  return html`<h3>Decision ${index + 1}: ${status(decision.outcome)} (${decision.reason})</h3>
<p class="summary">${decision.summary}</p>
<dl><dt>prompted by</dt><dd>${prompted}</dd><dt>decided</dt><dd>${new Date(decision.decidedAtMs).toISOString()}</dd></dl>
${table(["policy", "id", "effect", "outcome", "error"], evaluations, "no policies were evaluated")}`;
}

/** One activity: why it was allowed, denied or is waiting, and for whom. */
export async function activityPage(sources: ConsoleSources, activityId: string): Promise<Html> {
  const explanation = await sources.engine.explainActivity(activityId);
  const trace = await sources.engine.traceActivity(activityId);
  const { activity } = await sources.root.getActivity({ organizationId: explanation.organizationId, activityId });
  const { users } = await sources.root.getUsers({ organizationId: activity.organizationId });
  const userNames = new Map(users.map((user) => [user.userId, user.userName]));
  for (const vote of trace.votes) if (!userNames.has(vote.userId)) userNames.set(vote.userId, vote.userName);
  const deliveries = (await sources.engine.listWebhookDeliveries(activity.organizationId)).filter(
    (delivery) => delivery.activityId === activityId,
  );
  const latest = explanation.decisions.at(-1);
  const pending =
    activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED" ||
    activity.status === "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED";
  const mfa = await mfaStandings(sources, activity.organizationId, activityId, trace.submitter?.userId, userNames);
  return page(
    activity.type,
    html`<h1>Activity ${activity.type}</h1>
${verdict(activity, trace, latest, mfa)}
<dl><dt>id</dt><dd>${id(activity.id)}</dd><dt>status</dt><dd>${status(activity.status)}</dd>
<dt>submitted by</dt><dd class="submitter">${trace.submitter?.userName ?? ""}</dd>
<dt>organization</dt><dd>${organizationLink(activity.organizationId)}</dd>
<dt>created</dt><dd>${timeOf(activity.createdAt)}</dd><dt>fingerprint</dt><dd>${id(activity.fingerprint)}</dd></dl>
${activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED" ? waitingSection(trace, userNames) : ""}
${mfaSection(mfa)}
${policiesSection(trace, latest, userNames)}
${votesSection(trace, pending)}
${decodedSection(activity, trace)}
<h2>Result</h2><pre>${jsonText(activity.result)}</pre>
${explanation.notes.length > 0 ? html`<h2>Warnings</h2><ul class="warnings">${explanation.notes.map((note) => html`<li>${note}</li>`)}</ul>` : ""}
${activity.failure ? html`<h2>Failure</h2><pre>${jsonText(activity.failure)}</pre>` : ""}
<h2>Decisions</h2>${explanation.decisions.map((decision, index) => decisionBlock(decision, index, userNames))}
<h2>Webhook deliveries</h2>${table(["queued", "event", "activity", "endpoint", "status", "attempts", "last error"], deliveryRows(deliveries), "no webhook deliveries")}`,
    pending,
  );
}
