/**
 * The dev console's pages, rendered on the server from the same engine calls a client makes (the root
 * user's queries) plus the host-level reads (`explainActivity`, `listWebhookDeliveries`). Read-only: no
 * page changes anything.
 *
 * @module
 */
import type { CustodyEngine } from "../../engine/engine.js";
import type { DecisionExplanation } from "../../engine/pipeline/explain.js";
import type { WebhookDeliveryRecord } from "../../model/records.js";
import type { Activity } from "../../model/wire-types.js";
import { type Html, html } from "./html.js";

/**
 * The mail/SMS outbox hook: when the engine gains an outbox (OTP and notification messages it would have
 * sent), the dev server passes a reader here and the console lists its messages as they are.
 */
export type OutboxReader = (organizationId: string) => Promise<readonly Record<string, unknown>[]>;

/** What the console reads from. */
export interface ConsoleSources {
  /** The engine, for host-level reads. */
  engine: CustodyEngine;
  /** The engine as the dev organization's root user, for the queries a client would make. */
  root: CustodyEngine;
  /** The dev server's organization: the console's home page. */
  organizationId: string;
  outbox?: OutboxReader;
}

const ACTIVITY_PAGE_SIZE = 50;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:10px 24px}header a{color:#fff;text-decoration:none;font-weight:600}
main{padding:8px 24px 40px;max-width:1200px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
table{border-collapse:collapse;width:100%;background:#fff;margin:6px 0}
th,td{text-align:left;padding:4px 8px;border:1px solid #e1e4e8;vertical-align:top}th{background:#eef1f4;font-weight:600}
code,.id{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
pre{background:#fff;border:1px solid #e1e4e8;padding:8px;overflow:auto;font-size:12px}
.empty{color:#6a737d;font-style:italic}
.status{font-weight:600}.ok{color:#1a7f37}.wait{color:#9a6700}.bad{color:#cf222e}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px}dt{color:#57606a}dd{margin:0}
`;

/** A whole page. */
export function page(title: string, body: Html): Html {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · custodian dev console</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><header><a href="/">custodian dev console</a></header><main>${body}</main></body></html>`;
}

function timeOf(timestamp: { seconds: string; nanos: string } | undefined): string {
  if (!timestamp) return "";
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(Number(timestamp.nanos) / 1e6)).toISOString();
}

function statusClass(status: string): string {
  if (/COMPLETED|ALLOW|SUCCEEDED|DELIVERED/.test(status)) return "ok";
  if (/CONSENSUS|PENDING|CREATED|WAITING/.test(status)) return "wait";
  return "bad";
}

function status(text: string): Html {
  return html`<span class="status ${statusClass(text)}">${text}</span>`;
}

function table(headings: readonly string[], rows: readonly Html[], empty: string): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table><thead><tr>${headings.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}

function id(value: string | null | undefined): Html {
  return html`<span class="id">${value ?? ""}</span>`;
}

function activityLink(activityId: string): Html {
  return html`<a class="id" href="/activities/${encodeURIComponent(activityId)}">${activityId}</a>`;
}

function organizationLink(organizationId: string, name?: string): Html {
  return html`<a href="/organizations/${encodeURIComponent(organizationId)}">${name ?? organizationId}</a>`;
}

function activityRows(activities: readonly Activity[]): Html[] {
  return activities.map(
    (activity) =>
      html`<tr><td>${timeOf(activity.createdAt)}</td><td>${activity.type}</td><td>${status(activity.status)}</td><td>${activityLink(activity.id)}</td></tr>`,
  );
}

async function usersSection(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const { users } = await sources.root.getUsers({ organizationId });
  const rows = users.map((user) => {
    const apiKeys = user.apiKeys.map(
      (key) => html`<div>${key.apiKeyName}: <code>${key.credential.publicKey}</code> (${key.credential.type})</div>`,
    );
    const authenticators = user.authenticators.map(
      (authenticator) =>
        html`<div>passkey ${authenticator.authenticatorName}: <code>${authenticator.credentialId}</code></div>`,
    );
    const oauth = user.oauthProviders.map(
      (provider) => html`<div>OAuth ${provider.providerName}: ${provider.issuer}</div>`,
    );
    return html`<tr><td>${user.userName}</td><td>${id(user.userId)}</td><td>${user.userEmail ?? ""} ${user.userPhoneNumber ?? ""}</td><td>${apiKeys}${authenticators}${oauth}</td></tr>`;
  });
  return html`<h2>Users and credentials</h2>${table(["name", "id", "email / phone", "credentials"], rows, "no users")}`;
}

async function walletsSection(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const { wallets } = await sources.root.getWallets({ organizationId });
  const rows: Html[] = [];
  for (const wallet of wallets) {
    const { accounts } = await sources.root.getWalletAccounts({ organizationId, walletId: wallet.walletId });
    const list = accounts.map(
      (account) =>
        html`<div><code>${account.address}</code> ${account.addressFormat} <code>${account.path}</code></div>`,
    );
    rows.push(html`<tr><td>${wallet.walletName}</td><td>${id(wallet.walletId)}</td><td>${list}</td></tr>`);
  }
  return html`<h2>Wallets and accounts</h2>${table(["name", "id", "accounts"], rows, "no wallets")}`;
}

async function privateKeysSection(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const { privateKeys } = await sources.root.getPrivateKeys({ organizationId });
  const rows = privateKeys.map(
    (key) =>
      html`<tr><td>${key.privateKeyName}</td><td>${id(key.privateKeyId)}</td><td>${key.curve}</td><td>${key.addresses.map((a) => html`<div><code>${a.address}</code> ${a.format}</div>`)}</td></tr>`,
  );
  return html`<h2>Private keys</h2>${table(["name", "id", "curve", "addresses"], rows, "no private keys")}`;
}

async function policiesSection(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const { policies } = await sources.root.getPolicies({ organizationId });
  const rows = policies.map(
    (policy) =>
      html`<tr><td>${policy.policyName}</td><td>${id(policy.policyId)}</td><td>${policy.effect}</td><td><code>${policy.condition ?? ""}</code></td><td><code>${policy.consensus ?? ""}</code></td></tr>`,
  );
  return html`<h2>Policies</h2>${table(["name", "id", "effect", "condition", "consensus"], rows, "no policies")}`;
}

async function activitySections(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const pending = await sources.root.getActivities({
    organizationId,
    filterByStatus: ["ACTIVITY_STATUS_CONSENSUS_NEEDED"],
    paginationOptions: { limit: String(ACTIVITY_PAGE_SIZE) },
  });
  const recent = await sources.root.getActivities({
    organizationId,
    paginationOptions: { limit: String(ACTIVITY_PAGE_SIZE) },
  });
  const headings = ["created", "type", "status", "id"];
  return html`<h2>Pending approvals</h2>${table(headings, activityRows(pending.activities), "nothing waits for approval")}
<h2>Activities (newest ${ACTIVITY_PAGE_SIZE})</h2>${table(headings, activityRows(recent.activities), "no activities yet")}`;
}

function deliveryRows(deliveries: readonly WebhookDeliveryRecord[]): Html[] {
  return deliveries.map(
    (delivery) =>
      html`<tr><td>${new Date(delivery.createdAtMs).toISOString()}</td><td>${id(delivery.id)}</td><td>${activityLink(delivery.activityId)}</td><td>${delivery.endpointId ?? "FEATURE_NAME_WEBHOOK"}</td><td>${status(delivery.status)}</td><td>${delivery.attempts}</td><td>${delivery.lastError ?? ""}</td></tr>`,
  );
}

async function webhooksSection(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const deliveries = await sources.engine.listWebhookDeliveries(organizationId);
  return html`<h2>Webhook deliveries</h2>${table(
    ["queued", "event", "activity", "endpoint", "status", "attempts", "last error"],
    deliveryRows(deliveries),
    "no webhook deliveries",
  )}`;
}

async function outboxSection(sources: ConsoleSources, organizationId: string): Promise<Html> {
  if (!sources.outbox) {
    return html`<h2>Mail and SMS outbox</h2><p class="empty">this engine has no mail/SMS outbox yet</p>`;
  }
  const messages = await sources.outbox(organizationId);
  const columns = [...new Set(messages.flatMap((message) => Object.keys(message)))];
  const rows = messages.map(
    (message) => html`<tr>${columns.map((column) => html`<td>${cell(message[column])}</td>`)}</tr>`,
  );
  return html`<h2>Mail and SMS outbox</h2>${table(columns, rows, "no messages")}`;
}

function cell(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value ?? null);
}

/** An organization: its data, its sub-organizations, what happened in it, and what waits. */
export async function organizationPage(sources: ConsoleSources, organizationId: string): Promise<Html> {
  const { organizationData: organization } = await sources.root.getOrganization({ organizationId });
  const { organizationIds: subOrganizationIds } = await sources.root.getSubOrgIds({ organizationId });
  const home = organizationId === sources.organizationId;
  const subOrganizations = await Promise.all(
    subOrganizationIds.map(async (subId) => {
      const { organizationData: sub } = await sources.root.getOrganization({ organizationId: subId });
      return html`<li>${organizationLink(subId, sub.name)} ${id(subId)}</li>`;
    }),
  );
  const sections = await Promise.all([
    usersSection(sources, organizationId),
    walletsSection(sources, organizationId),
    privateKeysSection(sources, organizationId),
    policiesSection(sources, organizationId),
    activitySections(sources, organizationId),
    webhooksSection(sources, organizationId),
    outboxSection(sources, organizationId),
  ]);
  return page(
    organization.name,
    html`<h1>Organization ${organization.name}</h1>
<dl><dt>id</dt><dd>${id(organization.organizationId)}</dd>
${home ? html`<dt>role</dt><dd>the dev server's organization</dd>` : html`<dt>parent</dt><dd>${organizationLink(sources.organizationId)}</dd>`}
<dt>root quorum</dt><dd>${organization.rootQuorum?.threshold} of ${organization.rootQuorum?.userIds.length ?? 0} root users</dd></dl>
<h2>Sub-organizations</h2>${subOrganizations.length > 0 ? html`<ul>${subOrganizations}</ul>` : html`<p class="empty">no sub-organizations</p>`}
${sections}`,
  );
}

function decisionBlock(decision: DecisionExplanation, index: number): Html {
  const evaluations = decision.evaluations.map(
    (evaluation) =>
      html`<tr><td>${evaluation.policyName ?? ""}</td><td>${id(evaluation.policyId)}</td><td>${evaluation.effect}</td><td>${status(evaluation.outcome)}</td><td>${evaluation.error ? `${evaluation.error.field}: ${evaluation.error.message}` : ""}</td></tr>`,
  );
  const waiting = decision.waitingOn.map(
    (open) => html`<li>policy ${id(open.policyId)}: <code>${open.consensus}</code></li>`,
  );
  return html`<h3>Decision ${index + 1}: ${status(decision.outcome)} (${decision.reason})</h3>
<p class="summary">${decision.summary}</p>
<dl><dt>vote</dt><dd>${decision.selection} by ${id(decision.userId)}</dd><dt>decided</dt><dd>${new Date(decision.decidedAtMs).toISOString()}</dd></dl>
${table(["policy", "id", "effect", "outcome", "error"], evaluations, "no policies were evaluated")}
${waiting.length > 0 ? html`<p>waiting on:</p><ul>${waiting}</ul>` : ""}`;
}

/** One activity: its record as clients see it, and why it was allowed, denied or is waiting. */
export async function activityPage(sources: ConsoleSources, activityId: string): Promise<Html> {
  const explanation = await sources.engine.explainActivity(activityId);
  const { activity } = await sources.root.getActivity({ organizationId: explanation.organizationId, activityId });
  const deliveries = (await sources.engine.listWebhookDeliveries(activity.organizationId)).filter(
    (delivery) => delivery.activityId === activityId,
  );
  const votes = activity.votes.map(
    (vote) => html`<tr><td>${id(vote.userId)}</td><td>${vote.selection}</td><td>${timeOf(vote.createdAt)}</td></tr>`,
  );
  return page(
    activity.type,
    html`<h1>Activity ${activity.type}</h1>
<dl><dt>id</dt><dd>${id(activity.id)}</dd><dt>status</dt><dd>${status(activity.status)}</dd>
<dt>organization</dt><dd>${organizationLink(activity.organizationId)}</dd>
<dt>created</dt><dd>${timeOf(activity.createdAt)}</dd><dt>fingerprint</dt><dd>${id(activity.fingerprint)}</dd></dl>
<h2>Policy evaluation</h2>${explanation.decisions.map(decisionBlock)}
<h2>Votes</h2>${table(["user", "selection", "at"], votes, "no votes")}
<h2>Intent</h2><pre>${JSON.stringify(activity.intent, null, 2)}</pre>
<h2>Result</h2><pre>${JSON.stringify(activity.result, null, 2)}</pre>
${explanation.notes.length > 0 ? html`<h2>Warnings</h2><ul class="warnings">${explanation.notes.map((note) => html`<li>${note}</li>`)}</ul>` : ""}
${activity.failure ? html`<h2>Failure</h2><pre>${JSON.stringify(activity.failure, null, 2)}</pre>` : ""}
<h2>Webhook deliveries</h2>${table(["queued", "event", "activity", "endpoint", "status", "attempts", "last error"], deliveryRows(deliveries), "no webhook deliveries")}`,
  );
}
