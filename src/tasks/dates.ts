import { ApiError } from '../domain/errors.js';

/** Date-range params: accepted on search, posts and comments, normalised to unix seconds. */
// Unix seconds from 1970 to 9999: ten or fewer digits. A 13-digit number is milliseconds, refused by name.
const SECONDS_MAX = 253_402_300_799;
const DIGITS = /^\d{1,12}$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;

const DAY_S = 86_400;

/**
 * One date param as unix seconds. Accepts unix seconds (a number or a digit string), an ISO 8601 date
 * (UTC; `until` takes the whole day) or an ISO 8601 date-time with a zone (Z or ±hh:mm). A date-time
 * without a zone is refused: which day it names depends on a zone the caller did not give.
 */
export function parseDateParam(name: 'since' | 'until', raw: unknown): number {
  const label = `params.${name}`;
  const hint = `${label}: unix seconds or an ISO 8601 date (2024-05-01) or date-time with a zone (2024-05-01T12:00:00Z)`;
  if (typeof raw === 'number') return checkSeconds(label, raw);
  if (typeof raw !== 'string') throw new ApiError('invalid_request', hint);
  const s = raw.trim();
  if (s.length > 40) throw new ApiError('invalid_request', hint);
  if (DIGITS.test(s)) return checkSeconds(label, Number(s));
  const d = DATE_ONLY.exec(s);
  if (d) {
    const start = utcSeconds(label, +d[1], +d[2], +d[3], 0, 0, 0);
    return name === 'until' ? start + DAY_S - 1 : start;
  }
  const t = DATE_TIME.exec(s);
  if (t) {
    const local = utcSeconds(label, +t[1], +t[2], +t[3], +t[4], +t[5], t[6] === undefined ? 0 : +t[6]);
    return checkSeconds(label, local - offsetSeconds(label, t[7]));
  }
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) {
    throw new ApiError('invalid_request', `${label}: give the date-time a zone (Z or an offset such as +08:00)`);
  }
  throw new ApiError('invalid_request', hint);
}

function checkSeconds(label: string, v: number): number {
  if (!Number.isFinite(v) || !Number.isInteger(v) || v < 0) throw new ApiError('invalid_request', `${label}: unix seconds must be a whole number, 0 or more`);
  if (v > SECONDS_MAX) throw new ApiError('invalid_request', `${label}: too large for unix seconds (milliseconds? divide by 1000)`);
  return v;
}

function utcSeconds(label: string, y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls 2024-02-30 over to March: a date that does not round-trip does not exist.
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59 || back.getUTCDate() !== d || back.getUTCMonth() !== mo - 1 || y < 1970) {
    throw new ApiError('invalid_request', `${label}: no such date or time`);
  }
  return ms / 1000;
}

function offsetSeconds(label: string, zone: string): number {
  if (zone === 'Z' || zone === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone) as RegExpExecArray;
  const h = +m[2];
  const mi = +m[3];
  if (h > 18 || mi > 59) throw new ApiError('invalid_request', `${label}: no such zone offset`);
  return (m[1] === '-' ? -1 : 1) * (h * 3600 + mi * 60);
}

/** The range of a validated params object (since/until already unix seconds). */
export function dateRange(params: Record<string, unknown>): { since?: number; until?: number } | undefined {
  const since = params.since as number | undefined;
  const until = params.until as number | undefined;
  return since === undefined && until === undefined ? undefined : { since, until };
}

export const inRange = (ts: number, r: { since?: number; until?: number }): boolean => (r.since === undefined || ts >= r.since) && (r.until === undefined || ts <= r.until);
