import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { SHORTENER, WWW } from './api.js';

/*
 * Reference forms (global-platforms.md §5; gallery-dl pinterest.py@86047cf67a patterns): a pin is its decimal
 * id or a /pin/<id>/ page (also /pin/<title>--<id>/, /amp/pin/<id>/, /pin/<id>/sent/…) on pinterest.com, a
 * country domain (pinterest.co.uk, .fr, .de, .com.au …) or a country subdomain (br.pinterest.com); a user is
 * a username, @username or /<user>/ (with /_created/, /_saved/, /pins/, /boards/); a board is user/board or
 * /<user>/<board>/; pin.it/<code> is a short link that redirects to any of those.
 */
export type UserFeed = 'pins' | 'created';
export type Ref =
  | { kind: 'pin'; id: string }
  | { kind: 'user'; user: string; feed?: UserFeed }
  | { kind: 'board'; user: string; board: string }
  | { kind: 'short'; code: string };

const PIN_ID = /^[1-9]\d{0,19}$/;
/** Usernames are letters, digits and underscores (the recorded pinners: Va3ilina_, The_HanimeGurl, 19lisamariebrown78). */
const USERNAME = /^[A-Za-z0-9_]{1,50}$/;
export const PINTEREST_HOST = /^(?:[a-z0-9-]+\.)*pinterest\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/i;
const SHORT_CODE = /^[A-Za-z0-9_-]{1,40}$/;
/** First path segments that are site pages, not users. */
const RESERVED = new Set([
  'pin', 'amp', 'search', 'ideas', 'today', 'explore', 'categories', 'topics', 'business', 'settings', 'login', 'signup', 'logout', 'password',
  'resource', 'homefeed', 'news_hub', 'notifications', 'inbox', 'about', 'board', 'videos', 'shopping', 'pin-builder', 'pin-creation-tool', '_',
]);
const USER_TABS: Record<string, UserFeed | undefined> = { _created: 'created', pins: 'pins', _saved: undefined, boards: undefined, _boards: undefined };

export const isPinId = (s: string): boolean => PIN_ID.test(s);
export const isUsername = (s: string): boolean => USERNAME.test(s) && !RESERVED.has(s.toLowerCase());

export const pinUrl = (id: string): string => `${WWW}/pin/${id}/`;
export const userUrl = (user: string): string => `${WWW}/${user}/`;
export const boardPath = (user: string, board: string): string => `/${user}/${encodeURIComponent(board)}/`;
export const boardUrl = (user: string, board: string): string => `${WWW}${boardPath(user, board)}`;

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The pin id in a /pin/ path segment: the id itself, or the tail of a "<title>--<id>" slug. */
function pinIdOf(segment: string | undefined): string | undefined {
  const m = segment ? /(?:^|--)(\d{1,20})$/.exec(segment) : null;
  return m && isPinId(m[1]!) ? m[1] : undefined;
}

/** What a pinterest URL names, or undefined when it names none of the forms (a search page, the home page). */
export function refFromUrl(url: URL): Ref | undefined {
  const host = url.hostname.toLowerCase();
  if (host === 'pin.it') {
    const code = url.pathname.split('/').filter(Boolean)[0];
    return code && SHORT_CODE.test(code) ? { kind: 'short', code } : undefined;
  }
  if (host === 'api.pinterest.com') {
    const m = /^\/url_shortener\/([^/]+)\/redirect\/?$/.exec(url.pathname);
    return m && SHORT_CODE.test(m[1]!) ? { kind: 'short', code: m[1]! } : undefined;
  }
  if (!PINTEREST_HOST.test(host)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean).map(decode);
  if (parts.some((p) => p === undefined)) return undefined;
  const segs = parts as string[];
  const at = segs[0] === 'amp' ? 1 : 0;
  if (segs[at] === 'pin') {
    const id = pinIdOf(segs[at + 1]);
    return id ? { kind: 'pin', id } : undefined;
  }
  const [user, second, third] = segs;
  if (!user || !isUsername(user)) return undefined;
  if (second === undefined) return { kind: 'user', user };
  if (Object.hasOwn(USER_TABS, second)) return third === undefined ? { kind: 'user', user, feed: USER_TABS[second] } : undefined;
  if (second.startsWith('_')) return undefined;
  // /<user>/<board>/<section>/: sections are their own feed, not read here.
  if (third !== undefined) return undefined;
  return { kind: 'board', user, board: second };
}

function asUrl(input: string): URL | undefined {
  // Share texts carry the link inside prose ("Look at this https://pin.it/4xYz1ab on Pinterest").
  const found = /https?:\/\/[^\s"'<>]+/i.exec(input)?.[0] ?? (/^(?:[a-z0-9-]+\.)*(?:pinterest\.[a-z.]{2,7}|pin\.it)(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

const FORMS = {
  pin: 'a pin id, a pinterest.com/pin/<id>/ link (any country domain) or a pin.it share link',
  owner: 'a username, @username, user/board, a pinterest.com/<user>/ or /<user>/<board>/ link, or a pin.it share link',
};

function required(query: string | undefined, what: string): string {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput(`params.query: ${what} is required`);
  return q;
}

export function parsePinRef(query: string | undefined): { id: string } | { short: string } {
  const q = required(query, `a pinterest pin (${FORMS.pin})`);
  if (isPinId(q)) return { id: q };
  const url = asUrl(q);
  const ref = url ? refFromUrl(url) : undefined;
  if (ref?.kind === 'pin') return { id: ref.id };
  if (ref?.kind === 'short') return { short: ref.code };
  if (ref) throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is a pinterest ${ref.kind}, not a pin (${FORMS.pin})`);
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a pinterest pin reference (${FORMS.pin})`);
}

/** A user or a board: posts reads either, user reads the user (of a board, its owner). */
export function parseOwnerRef(query: string | undefined): Extract<Ref, { kind: 'user' | 'board' }> | { kind: 'short'; code: string } {
  const q = required(query, `a pinterest user or board (${FORMS.owner})`);
  // Bare forms (user, @user, user/board, user/_created) read as the path they abbreviate.
  const bare = q.replace(/^@/, '');
  if (isUsername(bare.split('/')[0]!) && !/[\s?#]/.test(bare)) {
    const ref = refFromUrl(new URL(`${WWW}/${bare.split('/').map((p) => encodeURIComponent(decode(p) ?? p)).join('/')}`));
    if (ref && ref.kind !== 'pin' && ref.kind !== 'short') return ref;
  }
  const url = asUrl(q);
  const ref = url ? refFromUrl(url) : undefined;
  if (ref && ref.kind !== 'pin') return ref;
  if (ref?.kind === 'pin') throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is a pin, not a user or board (${FORMS.owner})`);
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a pinterest user or board reference (${FORMS.owner})`);
}

const MAX_HOPS = 3;
const DAY_MS = 24 * 3600_000;

/**
 * pin.it/<code> → what it leads to. Only the redirect is asked for (api.pinterest.com's url_shortener, as
 * gallery-dl does), never the page it leads to.
 */
export async function followShortLink(ctx: CrawlContext, code: string): Promise<Ref> {
  const key = `pinterest:short:${code}`;
  const known = ctx.memo.get<Ref>(key);
  if (known) return known;
  let url = new URL(`${SHORTENER}${code}/redirect/`);
  const short = `https://pin.it/${code}`;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const res = await ctx.http.request({ method: 'HEAD', url: url.toString(), followRedirects: false });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      const ref = refFromUrl(next);
      if (ref?.kind === 'short') {
        url = new URL(`${SHORTENER}${ref.code}/redirect/`);
        continue;
      }
      if (ref) {
        ctx.memo.set(key, ref, DAY_MS);
        return ref;
      }
      if (PINTEREST_HOST.test(next.hostname)) throw new NotFound(`${short} leads to ${next.origin}${next.pathname}, which is no pin, board or user`);
      throw new UpstreamError(`${short} redirects off pinterest (${next.host})`);
    }
    if (res.status === 404) throw new NotFound(`${short}: the short link does not exist`);
    if (res.status === 429) throw new UpstreamError(`${short}: pinterest throttled the short link (HTTP 429)`);
    throw new UpstreamError(`${short}: expected a redirect, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${short}: too many redirects`);
}

export async function resolvePinId(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parsePinRef(query);
  if ('id' in ref) return ref.id;
  const target = await followShortLink(ctx, ref.short);
  if (target.kind !== 'pin') throw new InvalidInput(`pin.it/${ref.short} leads to a pinterest ${target.kind}, not a pin`);
  return target.id;
}

export async function resolveOwner(ctx: CrawlContext, query: string | undefined): Promise<Extract<Ref, { kind: 'user' | 'board' }>> {
  const ref = parseOwnerRef(query);
  if (ref.kind !== 'short') return ref;
  const target = await followShortLink(ctx, ref.code);
  if (target.kind === 'pin') throw new InvalidInput(`pin.it/${ref.code} leads to a pin, not a user or board`);
  if (target.kind === 'short') throw new UpstreamError(`pin.it/${ref.code}: too many redirects`);
  return target;
}
