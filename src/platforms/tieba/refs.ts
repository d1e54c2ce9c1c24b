import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { checkAnswer, WWW } from './api.js';
import { decodeQueryValue, rawQuery } from './charset.js';

/*
 * Reference forms (cn-platforms.md §7):
 * - a thread: its tid, tieba.baidu.com/p/{tid} (share params such as ?share=, ?fr=, ?pid= dropped), the old
 *   /f?kz={tid} and mobile /mo/q/m?kz= forms, the jump.bdimg.com / jump2.bdimg.com mirrors of /p/{tid},
 *   a /mo/q/checkurl?url= wrapper around any of these, or a jump*.bdimg.com/safecheck/index?url= jump link
 *   (an opaque token: resolved by one no-redirect request).
 * - a forum: its name, or a /f?kw= link (kw in UTF-8 or GBK, as old links write it).
 * - a user: a portrait (tb.1.…), a /home/main?id=<portrait> link (with its ?t= suffix), a
 *   /home/main?un=<name> link (UTF-8 or GBK), an /i/sys/jump?un= link, or a user name.
 */
export type ThreadRef = { tid: string } | { jump: string };
export type UserRef = { portrait: string } | { name: string };

const TID = /^\d{1,13}$/;
/** Pages that serve tieba's /p/{tid} threads. */
const PAGE_HOST = /^(?:tieba\.baidu\.com|c\.tieba\.baidu\.com|m\.tieba\.baidu\.com|jump\.bdimg\.com|jump2\.bdimg\.com)$/i;
const JUMP_HOST = /^jump2?\.bdimg\.com$/i;
/** A portrait: "tb.1." + 8 hex + "." + 22 base64url characters (older ones differ, but all start "tb."). */
const PORTRAIT = /^tb\.\d+\.[\w.-]{4,120}$/;

export const threadUrl = (tid: string): string => `${WWW}/p/${tid}`;
export const forumUrl = (name: string): string => `${WWW}/f?kw=${encodeURIComponent(name)}&ie=utf-8`;
export const userUrlById = (portrait: string): string => `${WWW}/home/main?id=${encodeURIComponent(portrait)}`;
export const userUrlByName = (name: string): string => `${WWW}/home/main?un=${encodeURIComponent(name)}&ie=utf-8`;
export const avatarUrl = (portrait: string): string => `https://gss0.bdstatic.com/6LZ1dD3d1sgCo2Kml5_Y_D3/sys/portrait/item/${portrait}`;

/** A portrait without the cache-busting "?t=…" tieba appends to it. */
export function cleanPortrait(value: string | undefined): string | undefined {
  const p = value?.trim().split(/[?&#]/)[0];
  return p && PORTRAIT.test(p) ? p : undefined;
}
export const isPortrait = (s: string): boolean => PORTRAIT.test(s);

function asUrl(input: string): URL | undefined {
  const found = /https?:\/\/[^\s"'<>，。]+/i.exec(input)?.[0] ?? (/^(?:[a-z0-9-]+\.)*(?:baidu\.com|bdimg\.com)(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

/** tieba's link wrapper /mo/q/checkurl?url=… (and /i/sys/jump?url=…) around another link. */
function unwrap(url: URL): URL {
  for (let i = 0; i < 3 && /tieba\.baidu\.com$/i.test(url.hostname) && /^\/(?:mo\/q\/checkurl|i\/sys\/jump)\/?$/.test(url.pathname) && url.searchParams.get('url'); i++) {
    try {
      url = new URL(url.searchParams.get('url')!);
    } catch {
      break;
    }
  }
  return url;
}

export function tidFromUrl(input: URL): string | undefined {
  const url = unwrap(input);
  if (!PAGE_HOST.test(url.hostname)) return undefined;
  const p = /^\/p\/(\d{1,13})(?:[/?#]|$)/.exec(url.pathname)?.[1];
  if (p) return p;
  if (/^\/(?:f|mo\/q\/m|mo\/m|mo\/q\/flowpb\/.*)$/.test(url.pathname)) {
    const kz = url.searchParams.get('kz') ?? url.searchParams.get('tid');
    if (kz && TID.test(kz)) return kz;
  }
  return undefined;
}

export function parseThreadRef(query: string | undefined): ThreadRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a tieba thread (tid, or a tieba.baidu.com/p/<tid> link) is required');
  if (TID.test(q)) return { tid: q };
  const url = asUrl(q);
  if (url) {
    const inner = unwrap(url);
    if (JUMP_HOST.test(inner.hostname) && /^\/safecheck\//.test(inner.pathname)) return { jump: inner.toString() };
    const tid = tidFromUrl(url);
    if (tid) return { tid };
  }
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a tieba thread reference (a tid, a tieba.baidu.com/p/<tid> link, an /f?kz= link, or a jump.bdimg.com link)`);
}

/** A forum name from a /f?kw= link (UTF-8 or GBK), or the name itself. */
export function parseForumRef(query: string | undefined): string {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a tieba forum (its name, or a tieba.baidu.com/f?kw= link) is required');
  const url = asUrl(q);
  if (url) {
    const inner = unwrap(url);
    if (!PAGE_HOST.test(inner.hostname) || !/^\/(?:f|f\/good|f\/like|mo\/q\/m|mo\/m)\/?$/.test(inner.pathname)) {
      throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a tieba forum link (tieba.baidu.com/f?kw=<name>)`);
    }
    const raw = rawQuery(inner);
    const kw = raw.get('kw') ?? raw.get('word');
    const name = kw === undefined ? undefined : decodeQueryValue(kw, raw.get('ie'));
    if (!name?.trim()) throw new InvalidInput(`params.query: "${q.slice(0, 120)}" names no forum (kw=)`);
    return name.trim();
  }
  if (q.length > 64 || /[\u0000-\u001f]/.test(q)) throw new InvalidInput('params.query: not a tieba forum name');
  return q;
}

export function userFromUrl(input: URL): UserRef | undefined {
  const url = unwrap(input);
  if (!PAGE_HOST.test(url.hostname)) return undefined;
  if (!/^\/(?:home\/main|home\/profile|i\/sys\/jump|home\/get\/panel)\/?$/.test(url.pathname) && !/^\/i\/\d+\/?$/.test(url.pathname)) return undefined;
  const raw = rawQuery(url);
  const id = raw.get('id') ?? raw.get('portrait');
  if (id) {
    let value = id;
    try {
      value = decodeURIComponent(id);
    } catch {
      /* kept as written */
    }
    const portrait = cleanPortrait(value);
    if (portrait) return { portrait };
  }
  const un = raw.get('un');
  if (un) {
    const name = decodeQueryValue(un, raw.get('ie'))?.trim();
    if (name) return { name };
  }
  return undefined;
}

export function parseUserRef(query: string | undefined): UserRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a tieba user (portrait tb.1.…, a /home/main?id= or ?un= link, or a user name) is required');
  const url = asUrl(q);
  if (url) {
    const u = userFromUrl(url);
    if (u) return u;
    throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a tieba user link (tieba.baidu.com/home/main?id=<portrait> or ?un=<name>)`);
  }
  const portrait = cleanPortrait(q);
  if (portrait && q.startsWith('tb.')) return { portrait };
  const name = q.replace(/^@/, '');
  if (!name || name.length > 64 || /[\u0000-\u001f\s]/.test(name)) throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a tieba user name or portrait`);
  return { name };
}

const DAY_MS = 24 * 3600_000;

/** A jump*.bdimg.com link → the URL it redirects to; only the redirect is asked for, never the target. */
export async function followJump(ctx: CrawlContext, jump: string): Promise<URL> {
  const key = `tieba:jump:${jump}`;
  const known = ctx.memo.get<string>(key);
  if (known) return new URL(known);
  const res = await ctx.http.request({ url: jump, followRedirects: false, headers: { referer: `${WWW}/` } });
  const location = res.headers['location'];
  if (res.status >= 300 && res.status < 400 && location) {
    const next = new URL(location, jump);
    ctx.memo.set(key, next.toString(), DAY_MS);
    return next;
  }
  if (res.status === 404) throw new NotFound(`${jump}: the jump link does not exist`);
  checkAnswer({ status: res.status, text: res.body.toString('utf8'), location: '' }, `jump link ${jump}`);
  throw new UpstreamError(`${jump}: expected a redirect, got HTTP ${res.status}`);
}

export async function resolveTid(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseThreadRef(query);
  if ('tid' in ref) return ref.tid;
  const target = await followJump(ctx, ref.jump);
  const tid = tidFromUrl(target);
  if (!tid) throw new InvalidInput(`${ref.jump} leads to ${target.toString()}, which is not a tieba thread`);
  return tid;
}
