/**
 * What every dev console page shares: where it reads from, the page frame and its style, and the small
 * pieces the pages are built of. Every value goes through the escaping `html` template.
 *
 * @module
 */
import type { CustodyEngine } from "../../engine/engine.js";
import type { WebhookDeliveryRecord } from "../../model/records.js";
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
.verdict{font-size:15px;padding:8px 12px;background:#fff;border-left:4px solid #d0d7de}
.verdict.bad{border-color:#cf222e}.verdict.wait{border-color:#9a6700}.verdict.ok{border-color:#1a7f37}
.policy{background:#fff;border:1px solid #e1e4e8;padding:6px 12px;margin:8px 0}
.clauses{list-style:none;padding:0;margin:4px 0}.clauses li{padding:1px 0;font-family:ui-monospace,monospace;font-size:12px}
.clauses li.deciding{background:#fff8c5}.decides{color:#9a6700;font-weight:600;font-family:system-ui,sans-serif}
.t{color:#1a7f37;font-weight:600}.f{color:#cf222e;font-weight:600}.val{color:#0550ae}
.waiting{font-weight:600;color:#9a6700}.side{display:grid;grid-template-columns:1fr 1fr;gap:12px}
`;

/** Seconds between refreshes of a page whose content may still change. */
export const REFRESH_SECONDS = 2;

/**
 * A whole page. With `refresh`, the browser loads it again every {@link REFRESH_SECONDS}: no script runs on
 * these pages (their content security policy forbids it), so a page that may still change refreshes itself.
 */
export function page(title: string, body: Html, refresh = false): Html {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · custodian dev console</title>
${refresh ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : ""}<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><header><a href="/">custodian dev console</a></header><main>${body}</main></body></html>`;
}

export function timeOf(timestamp: { seconds: string; nanos: string } | undefined): string {
  if (!timestamp) return "";
  return new Date(Number(timestamp.seconds) * 1000 + Math.floor(Number(timestamp.nanos) / 1e6)).toISOString();
}

export function statusClass(status: string): string {
  if (/COMPLETED|ALLOW|SUCCEEDED|DELIVERED/.test(status)) return "ok";
  if (/CONSENSUS|PENDING|CREATED|WAITING/.test(status)) return "wait";
  return "bad";
}

export function status(text: string): Html {
  return html`<span class="status ${statusClass(text)}">${text}</span>`;
}

export function table(headings: readonly string[], rows: readonly Html[], empty: string): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table><thead><tr>${headings.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}

export function id(value: string | null | undefined): Html {
  return html`<span class="id">${value ?? ""}</span>`;
}

export function activityLink(activityId: string): Html {
  return html`<a class="id" href="/activities/${encodeURIComponent(activityId)}">${activityId}</a>`;
}

export function organizationLink(organizationId: string, name?: string): Html {
  return html`<a href="/organizations/${encodeURIComponent(organizationId)}">${name ?? organizationId}</a>`;
}

export function deliveryRows(deliveries: readonly WebhookDeliveryRecord[]): Html[] {
  return deliveries.map(
    (delivery) =>
      html`<tr><td>${new Date(delivery.createdAtMs).toISOString()}</td><td>${id(delivery.id)}</td><td>${activityLink(delivery.activityId)}</td><td>${delivery.endpointId ?? "FEATURE_NAME_WEBHOOK"}</td><td>${status(delivery.status)}</td><td>${delivery.attempts}</td><td>${delivery.lastError ?? ""}</td></tr>`,
  );
}
