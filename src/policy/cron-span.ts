/**
 * `CronSpan('<cron>', '<duration>', '<tz>')`: true while the trusted time lies in a window that opens at a
 * cron fire and lasts `duration` (time-based policies, docs/spec/policy-language.md §3).
 *
 * The cron has five fields (minute hour day-of-month month day-of-week) with numbers, ranges, lists and
 * `*` only. When both day fields are restricted a day matches if either does, as in classic cron. A fire
 * happens at every instant whose wall-clock time in the IANA zone matches, so across DST a wall time that
 * is skipped does not fire and one that repeats fires twice; this is the plain "the clock shows 09:00"
 * reading, with no guessing about shifted fires. Offsets come from `Intl`, never from the host's zone.
 *
 * @module
 */

import { expressionError } from "./expression-errors.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MAX_DURATION_MINUTES = 7 * 24 * 60;

/** A validated CronSpan. Each set is a lookup table indexed by the field's value. */
export interface CronSpan {
  minute: readonly boolean[];
  hour: readonly boolean[];
  dayOfMonth: readonly boolean[];
  month: readonly boolean[];
  /** 0 = Sunday; a cron `7` is folded onto 0. */
  dayOfWeek: readonly boolean[];
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
  durationMs: number;
  timeZone: string;
}

/** Where each argument sits in the source, so a refusal can point at the right one. */
export interface CronSpanPositions {
  cron?: number;
  duration?: number;
  timeZone?: number;
}

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day-of-week", min: 0, max: 7 },
] as const;

/** Validates the three CronSpan arguments; throws a `CustodyError` naming the faulty one. */
export function parseCronSpan(
  cron: string,
  duration: string,
  timeZone: string,
  positions: CronSpanPositions = {},
): CronSpan {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw invalid(`cron ${JSON.stringify(cron)} must have 5 fields (minute hour day month weekday)`, positions.cron);
  }
  const tables = FIELDS.map((field, i) => parseCronField(parts[i]!, field, cron, positions.cron));
  const dayOfWeek = tables[4]!.table;
  dayOfWeek[0] = dayOfWeek[0]! || dayOfWeek[7]!;
  return {
    minute: tables[0]!.table,
    hour: tables[1]!.table,
    dayOfMonth: tables[2]!.table,
    month: tables[3]!.table,
    dayOfWeek: dayOfWeek.slice(0, 7),
    dayOfMonthRestricted: tables[2]!.restricted,
    dayOfWeekRestricted: tables[4]!.restricted,
    durationMs: parseDurationMinutes(duration, positions.duration) * MINUTE,
    timeZone: checkTimeZone(timeZone, positions.timeZone),
  };
}

function parseCronField(
  text: string,
  field: (typeof FIELDS)[number],
  cron: string,
  position: number | undefined,
): { table: boolean[]; restricted: boolean } {
  const table = new Array<boolean>(field.max + 1).fill(false);
  if (text === "*") return { table: table.fill(true, field.min), restricted: false };
  for (const item of text.split(",")) {
    const range = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(item);
    const from = Number(range?.[1]);
    const to = range?.[2] === undefined ? from : Number(range[2]);
    if (!range || from < field.min || to > field.max || from > to) {
      throw invalid(
        `cron ${JSON.stringify(cron)}: ${field.name} ${JSON.stringify(item)} is not a number or range within ${field.min}-${field.max} (steps, names and macros are not supported)`,
        position,
      );
    }
    table.fill(true, from, to + 1);
  }
  return { table, restricted: true };
}

function parseDurationMinutes(text: string, position: number | undefined): number {
  const match = /^(?:(\d{1,5})d)?(?:(\d{1,6})h)?(?:(\d{1,8})m)?$/.exec(text);
  const minutes = match ? Number(match[1] ?? 0) * 1440 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0) : 0;
  if (!match || minutes <= 0 || minutes > MAX_DURATION_MINUTES) {
    throw invalid(
      `duration ${JSON.stringify(text)} must be written in d/h/m (e.g. '8h', '1d12h', '90m'), above 0 and at most 7 days`,
      position,
    );
  }
  return minutes;
}

// Building an Intl.DateTimeFormat costs far more than using one; zones are few (only names Intl accepts
// are ever added), so one formatter per zone is kept for the life of the process.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function checkTimeZone(timeZone: string, position: number | undefined): string {
  // IANA names only: a leading letter rules out bare offsets such as '+01:00', whose meaning never follows DST.
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone)) {
    try {
      formatterFor(timeZone);
      return timeZone;
    } catch {
      // Intl throws a RangeError for a name it does not know; reported below like any other bad name.
    }
  }
  throw invalid(`time zone ${JSON.stringify(timeZone)} is not an IANA time zone name`, position);
}

function invalid(message: string, position: number | undefined) {
  return expressionError("POLICY_INVALID_TIME", `invalid CronSpan: ${message}`, position);
}

/** Whether `nowMs` lies in `[fire, fire + duration)` for some fire of the span. */
export function isWithinCronSpan(span: CronSpan, nowMs: number): boolean {
  const formatter = formatterFor(span.timeZone);
  const latestFire = Math.floor(nowMs / MINUTE) * MINUTE;
  const openAfter = nowMs - span.durationMs;
  const segments = offsetSegments(formatter, Math.floor(openAfter / MINUTE) * MINUTE, latestFire);
  let segment = segments.length - 1;
  let t = latestFire;
  // Walk back over candidate fires, skipping whole wall-clock days and hours that cannot match.
  while (t > openAfter) {
    while (segments[segment]!.start > t) segment--;
    const { start, offset } = segments[segment]!;
    const back = minutesBackToCandidate(span, new Date(t + offset));
    if (back === 0) return true;
    // Never jump across an offset change on wall-clock arithmetic of the wrong offset.
    t = Math.max(t - back * MINUTE, start - MINUTE);
  }
  return false;
}

/** 0 when `wall` (a wall-clock time read through UTC getters) is a fire; otherwise how far back to look next. */
function minutesBackToCandidate(span: CronSpan, wall: Date): number {
  const hour = wall.getUTCHours();
  const minute = wall.getUTCMinutes();
  if (!span.month[wall.getUTCMonth() + 1] || !dayMatches(span, wall.getUTCDate(), wall.getUTCDay())) {
    return hour * 60 + minute + 1;
  }
  if (!span.hour[hour]) return minute + 1;
  return span.minute[minute] ? 0 : 1;
}

function dayMatches(span: CronSpan, dayOfMonth: number, dayOfWeek: number): boolean {
  const byMonthDay = span.dayOfMonth[dayOfMonth]!;
  const byWeekDay = span.dayOfWeek[dayOfWeek]!;
  if (span.dayOfMonthRestricted && span.dayOfWeekRestricted) return byMonthDay || byWeekDay;
  return byMonthDay && byWeekDay;
}

interface OffsetSegment {
  /** First instant (ms) at which `offset` holds; the first segment starts at -Infinity. */
  start: number;
  /** Wall clock minus UTC, in ms. */
  offset: number;
}

/**
 * The zone's UTC offsets over `[from, to]`, found by sampling every hour and bisecting each change down
 * to the minute. Zones change offset at most once in any hour, so hourly samples miss no transition.
 */
function offsetSegments(formatter: Intl.DateTimeFormat, from: number, to: number): OffsetSegment[] {
  const samples: number[] = [];
  for (let t = from; t < to; t += HOUR) samples.push(t);
  samples.push(to);
  const segments: OffsetSegment[] = [{ start: Number.NEGATIVE_INFINITY, offset: offsetAt(formatter, from) }];
  let previousOffset = segments[0]!.offset;
  for (let i = 1; i < samples.length; i++) {
    const offset = offsetAt(formatter, samples[i]!);
    if (offset !== previousOffset) {
      let lo = samples[i - 1]!;
      let hi = samples[i]!;
      while (hi - lo > MINUTE) {
        const mid = lo + Math.floor((hi - lo) / (2 * MINUTE)) * MINUTE;
        if (offsetAt(formatter, mid) === previousOffset) lo = mid;
        else hi = mid;
      }
      segments.push({ start: hi, offset });
      previousOffset = offset;
    }
  }
  return segments;
}

function offsetAt(formatter: Intl.DateTimeFormat, instant: number): number {
  const field = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatter.formatToParts(instant)) {
    if (part.type in field) field[part.type as keyof typeof field] = Number(part.value);
  }
  const wall = new Date(0);
  wall.setUTCFullYear(field.year, field.month - 1, field.day);
  wall.setUTCHours(field.hour % 24, field.minute, field.second, 0);
  return wall.getTime() - (instant - (((instant % 1000) + 1000) % 1000));
}
