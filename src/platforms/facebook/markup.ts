/*
 * Low-level readers for facebook's page markup (the 2021 m.facebook.com layout the recordings carry, and the
 * www pages' JSON-LD and meta tags). Pure functions; none throws on a missing field.
 */

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

const ASYNC_PREFIX = 'for (;;);';

/**
 * facebook-scraper strips `<!--` and `-->` before parsing: the m. site ships whole sections (the photo
 * page's post and comments) inside `<code><!-- … --></code>` blocks that its scripts unwrap.
 */
export const uncomment = (html: string): string => html.replace(/<!--/g, '').replace(/-->/g, '');

/** An async answer (`for (;;);{payload:{actions:[…]}}`): the markup it inserts, its scripts, or its error. */
export interface AsyncAnswer {
  html: string;
  script: string;
  error?: { code: number; summary: string; description: string };
}

export function readAsync(text: string): AsyncAnswer | undefined {
  if (!text.startsWith(ASYNC_PREFIX)) return undefined;
  let data: Json | undefined;
  try {
    data = obj(JSON.parse(text.slice(ASYNC_PREFIX.length)));
  } catch {
    return { html: '', script: '', error: { code: -1, summary: 'unreadable async answer', description: '' } };
  }
  if (!data) return { html: '', script: '' };
  if (data.error !== undefined && data.error !== 0) {
    return { html: '', script: '', error: { code: Number(data.error) || -1, summary: str(data.errorSummary) ?? '', description: str(data.errorDescription) ?? '' } };
  }
  const payload = obj(data.payload) ?? data;
  const actions = Array.isArray(payload.actions) ? payload.actions : [];
  const html: string[] = [];
  const script: string[] = [];
  for (const a of actions) {
    const action = obj(a);
    if (!action) continue;
    if ((action.cmd === 'replace' || action.cmd === 'append') && typeof action.html === 'string') html.push(action.html);
    else if (action.cmd === 'script' && typeof action.code === 'string') script.push(action.code);
  }
  return { html: html.join('\n'), script: script.join('\n') };
}

export function title(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? decodeEntities(m[1]!).trim() : undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#039': "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#039);/gi, (all, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16)) ?? all;
    if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10)) ?? all;
    return NAMED[lower] ?? all;
  });
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

/** `<meta property="og:…" content="…">` (and name=) values, first one per key. */
export function metaTags(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<meta\s+([^>]*?)\/?>/gi)) {
    const attrs = m[1]!;
    const key = /(?:property|name)="([^"]+)"/i.exec(attrs)?.[1];
    const content = /content="([^"]*)"/i.exec(attrs)?.[1];
    if (key && content !== undefined && !out.has(key)) out.set(key, decodeEntities(content));
  }
  return out;
}

export function canonical(html: string): string | undefined {
  const m = /<link\s+rel="canonical"\s+href="([^"]+)"/i.exec(html) ?? /<link\s+href="([^"]+)"\s+rel="canonical"/i.exec(html);
  return m ? decodeEntities(m[1]!) : undefined;
}

/** Every JSON-LD block of the page that parses (facebook's posts, videos and breadcrumbs). */
export function ldJson(html: string): Json[] {
  const out: Json[] = [];
  for (const m of html.matchAll(/<script[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/gi)) {
    try {
      const v = JSON.parse(m[1]!.trim()) as unknown;
      for (const o of Array.isArray(v) ? v : [v]) {
        const j = obj(o);
        if (j) out.push(j);
      }
    } catch {
      /* a block that does not parse is skipped */
    }
  }
  return out;
}

export const ldType = (o: Json): string => String(o['@type'] ?? '');

/** JSON-LD interactionStatistic → counts by action (Like, Comment, Share, Watch, Follow). */
export function ldCounts(o: Json): Record<string, number> {
  const out: Record<string, number> = {};
  const list = Array.isArray(o.interactionStatistic) ? o.interactionStatistic : o.interactionStatistic ? [o.interactionStatistic] : [];
  for (const s of list) {
    const st = obj(s);
    if (!st) continue;
    const t = obj(st.interactionType)?.['@type'] ?? st.interactionType;
    const name = /schema\.org\/(\w+)Action/i.exec(String(t ?? ''))?.[1]?.toLowerCase();
    const n = num(st.userInteractionCount);
    if (name && n !== undefined && out[name] === undefined) out[name] = n;
  }
  return out;
}

/** ISO 8601 date with a `-0700` or `-07:00` offset → unix seconds. */
export function isoSeconds(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** ISO 8601 duration (facebook writes "T3M58S" as well as "PT0H3M57.035S") → seconds. */
export function isoDuration(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^P?(?:(\d+)D)?T?(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/i.exec(v.trim());
  if (!m || !(m[1] || m[2] || m[3] || m[4])) return undefined;
  return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
}

/** CSS `url('…')` with facebook's escapes (`https\3a //…\3d 110\26 …`) → the URL. */
export function cssUrl(style: string | undefined): string | undefined {
  if (!style) return undefined;
  const m = /url\((['"]?)(.*?)\1\)/i.exec(decodeEntities(style));
  if (!m) return undefined;
  const url = m[2]!.replace(/\\([0-9a-f]{1,6}) ?/gi, (_, hex: string) => safeCodePoint(parseInt(hex, 16)) ?? '').replace(/\\(.)/g, '$1');
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** The post's counters MLiveData carries: `["MLiveData","set",[],["<id>",{like_count:…,comment_count:…,share_count:…}]]`. */
export interface LiveCounts {
  likes?: number;
  comments?: number;
  shares?: number;
}

export function liveData(blob: string): Map<string, LiveCounts> {
  const out = new Map<string, LiveCounts>();
  for (const m of blob.matchAll(/MLiveData\\?"\s*,\s*\\?"set\\?"\s*,\s*\[\]\s*,\s*\[\s*\\?"(\d+)\\?"\s*,\s*\{/g)) {
    const id = m[1]!;
    const start = m.index! + m[0].length;
    const end = blob.indexOf('}]]', start);
    const body = blob.slice(start, end < 0 ? start + 4000 : Math.min(end, start + 8000));
    const field = (name: string): number | undefined => {
      const f = new RegExp(`(?:^|[,{])\\\\?"?${name}\\\\?"?:(\\d+)`).exec(body);
      return f ? Number(f[1]) : undefined;
    };
    if (!out.has(id)) out.set(id, { likes: field('like_count') ?? field('reactioncount'), comments: field('comment_count'), shares: field('share_count') });
  }
  return out;
}

/** A counter written for people ("1,615 Likes", "4.3K shares", "2 replies"). */
export function countIn(text: string | undefined, word: RegExp): number | undefined {
  if (!text) return undefined;
  const m = new RegExp(`([\\d.,]+)\\s*([KM]?)\\s+${word.source}`, 'i').exec(text);
  if (!m) return undefined;
  const base = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(base)) return undefined;
  const scale = m[2]?.toUpperCase() === 'K' ? 1_000 : m[2]?.toUpperCase() === 'M' ? 1_000_000 : 1;
  return Math.round(base * scale);
}

/** A JSON-escaped string value as it appears inside scripts (`https:\/\/…`, `\u0025`). */
export function jsonUnescape(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw.replace(/\\\//g, '/');
  }
}

/**
 * Where the next page of a timeline is: the "see more" href the m. site's scripts carry, for a page
 * (/page_content_list_view/more/), a profile (/profile/timeline/stream/), a group (/groups/…?bac=) or a
 * search (/search/…); written plain on first pages and JSON-escaped inside async answers.
 */
export function nextTimelineHref(blob: string): string | undefined {
  const patterns: RegExp[] = [
    /href\\?"?[:=]\\?"((?:\\?\/)page_content_list_view(?:\\?\/)more(?:\\?\/)\?[^"\\]*(?:\\.[^"\\]*)*)\\?"/,
    /href\\?"?[:=]\\?"((?:\\?\/)profile(?:\\?\/)timeline(?:\\?\/)stream(?:\\?\/)?\?cursor[^"\\]*(?:\\.[^"\\]*)*)\\?"/,
    /href\\?"?[:=]\\?"((?:\\?\/)groups(?:\\?\/)[^"\\]*bac=[^"\\]*(?:\\.[^"\\]*)*)\\?"/,
    /href\\?"?[:=]\\?"(?:https?:(?:\\?\/){2}m\.facebook\.com)?((?:\\?\/)search(?:\\?\/)[^"\\]*(?:\\.[^"\\]*)*)\\?"/,
  ];
  for (const re of patterns) {
    const m = re.exec(blob);
    if (m) return decodeEntities(jsonUnescape(m[1]!));
  }
  return undefined;
}
