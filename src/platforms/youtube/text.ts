/*
 * Small pure readers for innertube JSON: text objects (simpleText / runs / view-model content), English count
 * and duration strings, dates. Requests are sent with hl=en-GB, so the strings are English.
 */

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
export const nonEmpty = (v: unknown): string | undefined => {
  const s = str(v);
  return s && s.trim() ? s : undefined;
};

/** Follows a path of keys / indexes; undefined as soon as a step is missing. */
export function dig(v: unknown, ...path: Array<string | number>): unknown {
  let cur: unknown = v;
  for (const key of path) {
    if (typeof key === 'number') cur = Array.isArray(cur) ? cur[key] : undefined;
    else cur = obj(cur)?.[key];
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Every value stored under `key`, depth first, in document order. */
export function findAll(v: unknown, key: string, out: unknown[] = [], depth = 0): unknown[] {
  if (depth > 64) return out;
  if (Array.isArray(v)) {
    for (const x of v) findAll(x, key, out, depth + 1);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === key) out.push(x);
      findAll(x, key, out, depth + 1);
    }
  }
  return out;
}

/** The first value under `key`, depth first. */
export const findFirst = (v: unknown, key: string): unknown => findAll(v, key)[0];

/** A text object: {simpleText}, {runs:[{text}]}, or a view model's {content}. */
export function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const o = obj(v);
  if (!o) return undefined;
  if (typeof o.simpleText === 'string') return o.simpleText;
  if (Array.isArray(o.runs)) {
    const joined = o.runs.map((r) => str(obj(r)?.text) ?? '').join('');
    return joined || undefined;
  }
  if (typeof o.content === 'string') return o.content;
  return undefined;
}

const SCALE: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/**
 * English counts as YouTube writes them: "390,201 views", "8.84k subscribers", "3.1m views", "1.2M",
 * "21,051 Comments", "No views" (0). Abbreviated forms are YouTube's own rounding, kept as reported.
 */
export function parseCount(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  const s = typeof v === 'string' ? v : text(v);
  if (s === undefined) return undefined;
  const t = s.trim();
  if (t === '') return undefined;
  if (/^no\b/i.test(t)) return 0;
  const m = /(\d+(?:\.\d+)?)\s*([kKmMbB](?![a-zA-Z]))?/.exec(t.replace(/(\d)[,\u00a0\u202f ](?=\d{3}\b)/g, '$1'));
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] ? SCALE[m[2].toLowerCase()] : 1);
  return Number.isFinite(n) ? Math.round(n) : undefined;
}

/** "1:07:34" → 4054, "47:20" → 2840; anything else (LIVE, SHORTS, UPCOMING) → undefined. */
export function parseClock(v: unknown): number | undefined {
  const s = typeof v === 'string' ? v : text(v);
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{2})\s*$/.exec(s ?? '');
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

const UNIT_S: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400, week: 604_800, month: 2_592_000, year: 31_536_000 };

/**
 * "4 years ago (edited)", "Streamed 14 minutes ago", "1 day ago" → an approximate unix time, at the
 * resolution YouTube reports (a month is taken as 30 days, a year as 365).
 */
export function parseAgo(v: unknown, nowMs: number): number | undefined {
  const s = typeof v === 'string' ? v : text(v);
  const m = /(\d+)\s*(second|minute|hour|day|week|month|year)s?\s+ago/i.exec(s ?? '');
  if (!m) return undefined;
  return Math.floor(nowMs / 1000) - Number(m[1]) * UNIT_S[m[2].toLowerCase()];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** ISO 8601 (microformat publishDate) → unix seconds. */
export function parseIso(v: unknown): number | undefined {
  const s = str(v);
  if (!s || !/^\d{4}-\d{2}-\d{2}/.test(s)) return undefined;
  const ms = Date.parse(/T/.test(s) ? s : `${s}T00:00:00Z`);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** A calendar date as the watch page prints it ("22 May 2019", "Premiered May 22, 2019") → UTC midnight. */
export function parseDateText(v: unknown): number | undefined {
  const s = typeof v === 'string' ? v : text(v);
  if (!s) return undefined;
  let m = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?,?\s+(\d{4})/.exec(s);
  let day: number, mon: string, year: number;
  if (m) [day, mon, year] = [Number(m[1]), m[2], Number(m[3])];
  else if ((m = /([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})/.exec(s))) [mon, day, year] = [m[1], Number(m[2]), Number(m[3])];
  else return undefined;
  const month = MONTHS.indexOf(mon.toLowerCase());
  if (month < 0 || day < 1 || day > 31) return undefined;
  return Math.floor(Date.UTC(year, month, day) / 1000);
}

export interface Thumb {
  url: string;
  width?: number;
  height?: number;
}

/** Thumbnail lists: {thumbnails:[…]} (renderers) or {sources:[…]} (view models). */
export function thumbs(v: unknown): Thumb[] {
  const o = obj(v);
  const list = arr(o?.thumbnails ?? o?.sources ?? v);
  const out: Thumb[] = [];
  for (const t of list) {
    const url = nonEmpty(obj(t)?.url);
    if (!url) continue;
    const width = Number(obj(t)?.width);
    const height = Number(obj(t)?.height);
    out.push({ url: url.startsWith('//') ? `https:${url}` : url, width: width > 0 ? width : undefined, height: height > 0 ? height : undefined });
  }
  return out;
}

/** The widest thumbnail (YouTube lists them smallest first, but not always). */
export function bestThumb(v: unknown): Thumb | undefined {
  let best: Thumb | undefined;
  for (const t of thumbs(v)) if (!best || (t.width ?? 0) > (best.width ?? 0)) best = t;
  return best;
}
