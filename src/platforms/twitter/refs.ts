import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';

/*
 * Reference forms (global-platforms.md §1): a tweet is its decimal id, or any x.com / twitter.com /
 * mobile.twitter.com link with /status/<id> (also /statuses/, /i/web/status/, /i/status/), the embed
 * mirrors (fxtwitter, fixupx, vxtwitter, fixvx), or a t.co short link (one redirect, not followed further).
 * A user is @handle, a profile link, x.com/i/user/<id>, intent/user?user_id= or ?screen_name=, or
 * `id:<digits>`; a community (posts only) is x.com/i/communities/<id>.
 */

export const WWW = 'https://x.com';

/** Snowflake epoch (2010-11-04T01:42:54.657Z): a tweet id's top 42 bits count ms since then. */
export const TWITTER_EPOCH_MS = 1288834974657n;
/** Ids below this predate snowflake (the sequential ids, like tweet 20 of 2006, ended near 3·10^10). */
const SNOWFLAKE_MIN = 1n << 36n;
const U64_MAX = (1n << 64n) - 1n;

export const isTweetId = (s: string): boolean => /^\d{1,20}$/.test(s) && BigInt(s) > 0n && BigInt(s) <= U64_MAX;
export const isSnowflake = (id: string): boolean => isTweetId(id) && BigInt(id) >= SNOWFLAKE_MIN;

/** When a snowflake id was minted, unix ms; undefined for pre-snowflake ids. */
export function snowflakeTimeMs(id: string): number | undefined {
  if (!isSnowflake(id)) return undefined;
  return Number((BigInt(id) >> 22n) + TWITTER_EPOCH_MS);
}

/** The smallest id minted at that ms (worker, sequence 0): search's since_id / max_id bounds. */
export function snowflakeAt(ms: number): string {
  const since = BigInt(Math.floor(ms)) - TWITTER_EPOCH_MS;
  if (since < 0n) throw new RangeError('before the snowflake epoch');
  return (since << 22n).toString();
}

/** X's handles are at most 15 word characters; up to 20 pass so an odd old name is X's to refuse, not ours. */
export const isHandle = (s: string): boolean => /^[A-Za-z0-9_]{1,20}$/.test(s);

export const tweetUrl = (id: string, handle?: string): string => `${WWW}/${handle && isHandle(handle) ? handle : 'i/web'}/status/${id}`;
export const profileUrl = (handle: string): string => `${WWW}/${handle}`;
export const userIdUrl = (id: string): string => `${WWW}/i/user/${id}`;

const X_HOSTS = /^(?:(?:www|mobile|m)\.)?(?:x|twitter)\.com$/i;
/** Embed mirrors that keep X's paths. */
const MIRROR_HOSTS = /^(?:[a-z]+\.)?(?:fxtwitter|fixupx|vxtwitter|fixvx|twittpr|nitter)\.(?:com|net)$/i;
const SHORT_HOST = /^t\.co$/i;
/** First path segments that are X's own pages, never a handle. */
const RESERVED = new Set(['i', 'home', 'search', 'explore', 'settings', 'messages', 'notifications', 'hashtag', 'intent', 'share', 'tos', 'privacy', 'login', 'logout', 'signup', 'compose', 'account', 'download', 'jobs', 'about', 'help', 'communities', 'lists', 'bookmarks', 'status', 'statuses']);

export type TweetRef = { id: string } | { short: string };
export type UserRef = { handle: string } | { id: string };
export type TimelineRef = UserRef | { community: string };

function asUrl(input: string): URL | undefined {
  const found = /https?:\/\/[^\s"'<>]+/i.exec(input)?.[0] ?? (/^(?:[a-z0-9-]+\.)+[a-z]{2,}\//i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

const isXUrl = (u: URL): boolean => X_HOSTS.test(u.hostname) || MIRROR_HOSTS.test(u.hostname);

/** A tweet id in an X (or mirror) URL: …/status/<id>, /statuses/<id>, /i/web/status/<id>. */
export function tweetIdFromUrl(u: URL): string | undefined {
  if (!isXUrl(u)) return undefined;
  // d.fxtwitter.com/<user>/status/<id>.mp4 is the mirror's direct-media form.
  const m = /\/(?:status|statuses)\/(\d{1,20})(?:[/.]|$)/.exec(u.pathname);
  return m && isTweetId(m[1]!) ? m[1] : undefined;
}

export function parseTweetRef(query: string | undefined): TweetRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a tweet (its id, or an x.com/<user>/status/<id> link) is required');
  if (isTweetId(q)) return { id: q };
  const u = asUrl(q);
  if (u && SHORT_HOST.test(u.hostname) && /^\/[A-Za-z0-9]+\/?$/.test(u.pathname)) return { short: `https://t.co${u.pathname.replace(/\/$/, '')}` };
  const id = u ? tweetIdFromUrl(u) : undefined;
  if (id) return { id };
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a tweet reference (a numeric id, an x.com / twitter.com /status/<id> link, a fxtwitter/vxtwitter mirror link or a t.co link)`);
}

/** A user (or, where allowed, a community) in a profile / intent / community URL. */
export function timelineRefFromUrl(u: URL): TimelineRef | undefined {
  if (!isXUrl(u)) return undefined;
  const parts = u.pathname.split('/').filter(Boolean);
  if (parts[0] === 'i' && parts[1] === 'user' && parts[2] && /^\d{1,20}$/.test(parts[2])) return { id: parts[2] };
  if (parts[0] === 'i' && parts[1] === 'communities' && parts[2] && /^\d{1,20}$/.test(parts[2])) return { community: parts[2] };
  if (parts[0] === 'intent' && (parts[1] === 'user' || parts[1] === 'follow')) {
    const uid = u.searchParams.get('user_id');
    if (uid && /^\d{1,20}$/.test(uid)) return { id: uid };
    const name = u.searchParams.get('screen_name');
    if (name && isHandle(name)) return { handle: name };
    return undefined;
  }
  const first = parts[0];
  if (first && !RESERVED.has(first.toLowerCase()) && isHandle(first)) return { handle: first };
  return undefined;
}

export function parseTimelineRef(query: string | undefined, allowCommunity: boolean): TimelineRef {
  const q = (query ?? '').trim();
  const forms = `@handle, an x.com/<handle> link, x.com/i/user/<id> or id:<digits>${allowCommunity ? ', or an x.com/i/communities/<id> link' : ''}`;
  if (!q) throw new InvalidInput(`params.query: an X account is required (${forms})`);
  const idForm = /^(?:id|user_id):(\d{1,20})$/i.exec(q);
  if (idForm) return { id: idForm[1]! };
  const bare = q.startsWith('@') ? q.slice(1) : q;
  // All digits and longer than any handle: a user id (shorter digit strings are handles X allows).
  if (!q.startsWith('@') && /^\d{16,20}$/.test(bare)) return { id: bare };
  if (isHandle(bare)) return { handle: bare };
  const u = asUrl(q);
  const ref = u ? timelineRefFromUrl(u) : undefined;
  if (ref && ('community' in ref ? allowCommunity : true)) return ref;
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not an X account reference (${forms})`);
}

export function parseUserRef(query: string | undefined): UserRef {
  return parseTimelineRef(query, false) as UserRef;
}

const DAY_MS = 24 * 3600_000;

/** A t.co link → the tweet it leads to; only the redirect is asked for, never the target. */
export async function resolveTweetId(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseTweetRef(query);
  if ('id' in ref) return ref.id;
  const key = `twitter:short:${ref.short}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const res = await ctx.http.request({ url: ref.short, followRedirects: false });
  // t.co answers clients a 301; browsers may get a 200 page that redirects by <meta refresh> instead.
  const location = res.headers['location'] ?? (res.status === 200 ? /<meta[^>]+content=["']?\d+;\s*URL=([^"'>\s]+)/i.exec(res.text())?.[1]?.replace(/&amp;/g, '&') : undefined);
  if (res.status === 404) throw new NotFound(`${ref.short}: the short link does not exist`);
  if (!location || (res.status >= 400)) throw new UpstreamError(`${ref.short}: expected a redirect, got HTTP ${res.status}`);
  const target = new URL(location, ref.short);
  const id = tweetIdFromUrl(target);
  if (!id) throw new InvalidInput(`${ref.short} leads to ${target.toString().slice(0, 200)}, which is not a tweet`);
  ctx.memo.set(key, id, DAY_MS);
  return id;
}
