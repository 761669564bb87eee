/**
 * The dev server's request handler: the Activity API through the HTTP adapter's core, the dev console for
 * everything else, and one log line per request with what the adapter answered.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { CustodyEngine } from "../engine/engine.js";
import { serveApiRequest } from "../http/node.js";
import { type AdapterResponse, type HttpAdapterOptions, servesPath } from "../http/respond.js";
import { logRequest, type RequestRecord } from "./log.js";

const SUBMIT_PREFIX = "/public/v1/submit/";

/** A surface of the dev server beside the Activity API (the dev console). Resolves false for paths it does not serve. */
export type DevRoute = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** The activity members of a request and its answer, for the log line. */
function activityOf(requestBody: Uint8Array | null, response: AdapterResponse): Partial<RequestRecord> {
  const out: Partial<RequestRecord> = {};
  // A denial answers with the hosted service's body, which names no activity; its error does.
  const denied = response.error?.details;
  if (typeof denied?.activityId === "string") out.activityId = denied.activityId;
  if (typeof denied?.activityType === "string") out.activityType = denied.activityType;
  // An IP allowlist's refusal comes before any activity, so the line says why (the address and which list).
  if (denied?.reason === "IP_NOT_ALLOWED" && response.error !== undefined) out.reason = response.error.message;
  const requested = parseJson(requestBody === null ? undefined : Buffer.from(requestBody).toString("utf8"));
  if (typeof requested?.type === "string") out.activityType = requested.type;
  const answered = parseJson(response.body)?.activity as Record<string, unknown> | undefined;
  if (typeof answered?.id === "string") out.activityId = answered.id;
  if (typeof answered?.status === "string") out.activityStatus = answered.status;
  if (typeof answered?.type === "string") out.activityType = answered.type;
  return out;
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || !text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the log line says of a submitted activity's latest decision: the deciding policy and why, the policies
 * that failed to evaluate, and the warnings of the policies it wrote. Nothing when it cannot be read.
 */
async function decisionOf(engine: CustodyEngine, activityId: string): Promise<Partial<RequestRecord>> {
  const explanation = await engine.explainActivity(activityId).catch(() => undefined);
  if (explanation === undefined) return {};
  // A denial's answer carries no activity, so its status comes from here.
  const out: Partial<RequestRecord> = { activityStatus: explanation.status };
  const latest = explanation.decisions.at(-1);
  if (latest !== undefined && latest.outcome !== "ALLOW") {
    if (latest.decidingPolicy !== undefined) {
      out.policyId = latest.decidingPolicy.policyId;
      if (latest.decidingPolicy.policyName !== undefined) out.policyName = latest.decidingPolicy.policyName;
    }
    out.reason = latest.reasonPhrase;
  }
  if (latest !== undefined && latest.failures.length > 0) out.policyErrors = latest.failures;
  if (explanation.notes.length > 0) out.notes = explanation.notes;
  return out;
}

/** The dev server's node handler. */
export function createDevServerHandler(options: {
  engine: CustodyEngine;
  logger: Logger;
  adapter: HttpAdapterOptions;
  routes: readonly DevRoute[];
}): (req: IncomingMessage, res: ServerResponse) => void {
  const { engine, logger, adapter, routes } = options;

  async function answer(req: IncomingMessage, res: ServerResponse, path: string): Promise<Partial<RequestRecord>> {
    if (servesPath(path)) {
      const served = await serveApiRequest(engine, req, res, adapter);
      if (served === undefined) return {};
      const activity = activityOf(served.body, served.response);
      if (activity.activityId === undefined || !path.startsWith(SUBMIT_PREFIX)) return activity;
      // The answered activity's own members win over the explanation's.
      return { ...(await decisionOf(engine, activity.activityId)), ...activity };
    }
    for (const route of routes) if (await route(req, res, path)) return {};
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 5, message: `no operation at ${path}`, details: [] }));
    return {};
  }

  return (req, res) => {
    const started = performance.now();
    const path = (req.url ?? "/").split("?")[0] as string;
    answer(req, res, path)
      .catch((error: unknown) => {
        logger.error({ err: error }, "internal error");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 13, message: "internal error", details: [] }));
        return {};
      })
      .then((activity) => {
        const ms = Math.round(performance.now() - started);
        logRequest(logger, { method: req.method ?? "GET", path, status: res.statusCode, ms, ...activity });
      });
  };
}
