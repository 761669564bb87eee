/**
 * The dev console's organization page, rendered on the server from the same engine calls a client makes
 * (the root user's queries) plus the host-level reads (`explainActivity`, `traceActivity`,
 * `listWebhookDeliveries`). Read-only: no page changes anything. It refreshes itself, so activities appear
 * and move as they change.
 *
 * @module
 */
import type { Activity } from "../../model/wire-types.js";
import { waitingPhrase } from "./activity-page.js";
import { type Html, html } from "./html.js";
import { mfaStandings, mfaWaitingPhrase } from "./mfa-view.js";
import {
  activityLink,
  type ConsoleSources,
  deliveryRows,
  id,
  organizationLink,
  page,
  status,
  table,
  timeOf,
} from "./parts.js";

export type { ConsoleSources, OutboxReader } from "./parts.js";

const ACTIVITY_PAGE_SIZE = 50;

/** Why an activity failed or waits, in a phrase; nothing for one that completed. */
async function whyOf(sources: ConsoleSources, activity: Activity): Promise<string> {
  if (activity.status === "ACTIVITY_STATUS_COMPLETED") return "";
  if (activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
    return waitingPhrase(await sources.engine.traceActivity(activity.id));
  }
  if (activity.status === "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED") {
    const submitter = activity.votes[0]?.user;
    const names = new Map(submitter ? [[submitter.userId, submitter.userName]] : []);
    return mfaWaitingPhrase(
      await mfaStandings(sources, activity.organizationId, activity.id, submitter?.userId, names),
    );
  }
  const latest = (await sources.engine.explainActivity(activity.id)).decisions.at(-1);
  if (latest !== undefined && latest.outcome !== "ALLOW") {
    const policy = latest.decidingPolicy;
    return `${latest.reasonPhrase}${policy ? ` (policy "${policy.policyName ?? policy.policyId}")` : ""}`;
  }
  return activity.failure?.message ?? "";
}

async function activityRows(sources: ConsoleSources, activities: readonly Activity[]): Promise<Html[]> {
  return Promise.all(
    activities.map(async (activity) => {
      const submitter = activity.votes[0]?.user.userName ?? "";
      const why = await whyOf(sources, activity);
      return html`<tr><td>${timeOf(activity.createdAt)}</td><td>${activity.type}</td><td class="submitter">${submitter}</td><td>${status(activity.status)}</td><td class="why">${why}</td><td>${activityLink(activity.id)}</td></tr>`;
    }),
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
    filterByStatus: ["ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED"],
    paginationOptions: { limit: String(ACTIVITY_PAGE_SIZE) },
  });
  const recent = await sources.root.getActivities({
    organizationId,
    paginationOptions: { limit: String(ACTIVITY_PAGE_SIZE) },
  });
  const headings = ["created", "type", "submitted by", "status", "why", "id"];
  const [pendingRows, recentRows] = await Promise.all([
    activityRows(sources, pending.activities),
    activityRows(sources, recent.activities),
  ]);
  return html`<h2>Pending approvals</h2>${table(headings, pendingRows, "nothing waits for approval")}
<h2>Activities (newest ${ACTIVITY_PAGE_SIZE})</h2>${table(headings, recentRows, "no activities yet")}`;
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
    true,
  );
}
