/**
 * The dev server's log: pino records, written as JSON lines (`--log-format json`) or as one short line per
 * record for a person at a terminal, coloured when the output is a terminal.
 *
 * @module
 */
import { type DestinationStream, type Logger, pino } from "pino";
import type { AvailabilityChange } from "../storage/postgres/index.js";

/** How the dev server logs. */
export interface LogSettings {
  format: "pretty" | "json";
  /** Only warnings and errors: no line per request. */
  quiet: boolean;
  /** ANSI colours in pretty lines. */
  colour: boolean;
}

/** What one request line carries (the pino record of a request, minus pino's own members). */
export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  ms: number;
  /** The activity type of a submit request. */
  activityType?: string;
  /** The activity the request created or returned. */
  activityId?: string;
  /** That activity's status (`ACTIVITY_STATUS_COMPLETED`, ...). */
  activityStatus?: string;
  /** The policy whose decision this answer is: the deny that applied, the allow waiting for approvals, ... */
  policyId?: string;
  /** That policy's name. */
  policyName?: string;
  /** Why the activity was denied or waits, in one short phrase. */
  reason?: string;
  /** Policies that failed to evaluate, each as `policy "name" (id) failed in its condition: ...`. */
  policyErrors?: string[];
  /** What the policies an activity wrote do not do as meant (a mixed-case address never matches, ...). */
  notes?: string[];
}

/**
 * Whether to colour a stream's output: the `NO_COLOR` and `FORCE_COLOR` conventions
 * (https://no-color.org), else whether it is a terminal.
 */
export function wantsColour(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return stream.isTTY === true;
}

const ANSI = { reset: 0, bold: 1, dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;

type Paint = (style: keyof typeof ANSI, text: string) => string;

function painter(colour: boolean): Paint {
  return colour ? (style, text) => `\u001b[${ANSI[style]}m${text}\u001b[0m` : (_style, text) => text;
}

function statusStyle(status: number): keyof typeof ANSI {
  if (status >= 500) return "red";
  if (status >= 400) return "yellow";
  return "green";
}

function activityStatusStyle(status: string): keyof typeof ANSI {
  if (status.endsWith("COMPLETED")) return "green";
  if (status.endsWith("CONSENSUS_NEEDED") || status.endsWith("PENDING")) return "yellow";
  return "red";
}

function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/** One pino record as a line: a request line, or `LEVEL message` with the error's stack when there is one. */
function prettyLine(record: Record<string, unknown>, paint: Paint): string {
  const time = paint("dim", clockTime(typeof record.time === "number" ? record.time : Date.now()));
  if (record.msg === "request") {
    const request = record as unknown as RequestRecord;
    const parts = [
      time,
      paint("bold", request.method.padEnd(4)),
      request.path,
      paint(statusStyle(request.status), String(request.status)),
      paint("dim", `${request.ms}ms`),
    ];
    if (request.activityType) parts.push(paint("cyan", request.activityType));
    if (request.activityStatus) {
      parts.push(
        paint(activityStatusStyle(request.activityStatus), request.activityStatus.replace("ACTIVITY_STATUS_", "")),
      );
    }
    if (request.activityId) parts.push(paint("dim", request.activityId));
    const policy =
      request.policyId === undefined
        ? ""
        : `policy ${request.policyName === undefined ? "" : `"${request.policyName}" `}(${request.policyId}): `;
    if (request.reason) parts.push(`${policy}${request.reason}`);
    const extra = [
      ...(request.policyErrors ?? []).map((line) => paint("red", `  error: ${line}`)),
      ...(request.notes ?? []).map((line) => paint("yellow", `  warning: ${line}`)),
    ];
    return `${[parts.join(" "), ...extra].join("\n")}\n`;
  }
  const level =
    typeof record.level === "number" && record.level >= 50 ? "ERROR" : record.level === 40 ? "WARN" : "INFO";
  const error = record.err as { stack?: string; message?: string } | undefined;
  const detail = error ? `\n${error.stack ?? error.message}` : "";
  return `${time} ${paint(level === "ERROR" ? "red" : level === "WARN" ? "yellow" : "cyan", level)} ${record.msg}${detail}\n`;
}

/** A pino destination that turns each JSON line into {@link prettyLine}. */
function prettyDestination(output: NodeJS.WritableStream, colour: boolean): DestinationStream {
  const paint = painter(colour);
  return {
    write(line: string) {
      output.write(prettyLine(JSON.parse(line) as Record<string, unknown>, paint));
    },
  };
}

/** The dev server's logger, writing to `output`. */
export function createLogger(settings: LogSettings, output: NodeJS.WritableStream = process.stdout): Logger {
  const options = { base: null, level: settings.quiet ? "warn" : "info" };
  const destination =
    settings.format === "json"
      ? { write: (line: string) => void output.write(line) }
      : prettyDestination(output, settings.colour);
  return pino(options, destination);
}

/** Logs one answered request. */
export function logRequest(logger: Logger, record: RequestRecord): void {
  logger.info(record, "request");
}

/**
 * One log line when PostgreSQL stops answering and one when it answers again. Meanwhile requests are answered
 * 503 (`UNAVAILABLE`, gRPC 14) without a line of their own beyond the request log.
 */
export function logDatabaseAvailability(logger: Logger): (change: AvailabilityChange) => void {
  return (change) => {
    if (change.available) {
      logger.warn(`PostgreSQL is reachable again, after ${(change.unavailableMs / 1000).toFixed(1)} s`);
    } else {
      logger.warn(`PostgreSQL is unreachable (${change.reason}): requests are answered 503 until it is back`);
    }
  };
}
