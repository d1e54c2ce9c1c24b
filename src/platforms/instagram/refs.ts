import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';

/*
 * Reference forms (global-platforms.md §2): a post is its shortcode, its numeric media pk, the full media id
 * "<pk>_<owner pk>", or a link (/p/, /reel/, /reels/, /tv/, /<user>/p/, instagr.am, /share/ links that
 * redirect); a user is @handle, a handle, a numeric pk, or a profile link; a hashtag is #tag or an
 * /explore/tags/<tag>/ link. The shortcode is the pk written in base 64 (A-Z a-z 0-9 - _).
 */
export const WWW = 'https://www.instagram.com';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));
/** Private posts' links carry 28 extra characters after the code (yt-dlp, gallery-dl strip them). */
const PRIVATE_SUFFIX = 28;
/** Codes of the first posts (2010) were a character or two; today's are 11. */
const SHORTCODE = /^[A-Za-z0-9_-]{1,14}$/;
/** A bare word is read as a code only from this length on (shorter is more likely a typo than a post). */
const BARE_CODE_MIN = 5;
const PK = /^\d{1,20}$/;
const MEDIA_ID = /^(\d{1,20})_(\d{1,20})$/;
const HANDLE = /^[A-Za-z0-9._]{1,30}$/;
const TAG = /^[\p{L}\p{N}_]{1,100}$/u;
const MAX_PK = (1n << 64n) - 1n;

/** Shortcode (a private post's long code too) → decimal media pk; undefined when it is not one. */
export function shortcodeToPk(code: string): string | undefined {
  const c = code.length > PRIVATE_SUFFIX ? code.slice(0, -PRIVATE_SUFFIX) : code;
  if (!SHORTCODE.test(c)) return undefined;
  let n = 0n;
  for (const ch of c) n = n * 64n + VALUE.get(ch)!;
  return n > 0n && n <= MAX_PK ? n.toString() : undefined;
}

/** Decimal media pk (or "<pk>_<owner>") → shortcode. */
export function pkToShortcode(pk: string): string {
  const m = MEDIA_ID.exec(pk);
  let n = BigInt(m ? m[1]! : pk);
  if (n <= 0n) throw new InvalidInput(`${pk} is not an instagram media id`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 64n)]! + out;
    n /= 64n;
  }
  return out;
}

export interface PostKey {
  pk: string;
  shortcode: string;
  /** The link carried a private post's long code (followers only). */
  private?: boolean;
}
export type PostRef = PostKey | { share: string };
export type UserRef = { username: string } | { id: string };

export const postUrl = (shortcode: string, reel = false): string => `${WWW}/${reel ? 'reel' : 'p'}/${shortcode}/`;
export const userUrl = (username: string): string => `${WWW}/${username}/`;
export const commentUrl = (shortcode: string, cid: string): string => `${WWW}/p/${shortcode}/c/${cid}/`;
export const tagUrl = (tag: string): string => `${WWW}/explore/tags/${encodeURIComponent(tag)}/`;

const IG_HOST = /^(?:(?:www|m)\.)?(?:instagram\.com|instagr\.am)$/i;
/** First path segments that are site pages, never a username. */
export const RESERVED = new Set([
  'p', 'reel', 'reels', 'tv', 'explore', 'accounts', 'stories', 'direct', 'about', 'developer', 'legal', 'share', 'web', 'api', 'graphql',
  'challenge', 'emails', 'session', 'privacy', 'terms', 'press', 'oauth', 'static', 'ar', 'lite', 'download', 'create', 'settings',
]);

function asUrl(input: string): URL | undefined {
  const found = /https?:\/\/[^\s"'<>]+/i.exec(input)?.[0] ?? (/^(?:(?:www|m)\.)?(?:instagram\.com|instagr\.am)(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    const u = new URL(found);
    return IG_HOST.test(u.hostname) ? u : undefined;
  } catch {
    return undefined;
  }
}

const key = (pk: string): PostKey => ({ pk, shortcode: pkToShortcode(pk) });

function codeKey(code: string): PostKey | undefined {
  const pk = shortcodeToPk(code);
  if (!pk) return undefined;
  return code.length > PRIVATE_SUFFIX ? { pk, shortcode: code.slice(0, -PRIVATE_SUFFIX), private: true } : { pk, shortcode: code };
}

/** The post a URL names: /p|reel|reels|tv/<code>, /<user>/p|reel/<code>; /share/… is a redirect to follow. */
export function postFromUrl(url: URL): PostRef | undefined {
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] === 'share') return parts.length > 1 ? { share: `${WWW}${url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`}` } : undefined;
  const at = parts.findIndex((p) => p === 'p' || p === 'reel' || p === 'reels' || p === 'tv');
  if (at < 0 || at > 1 || !parts[at + 1]) return undefined;
  return codeKey(parts[at + 1]!);
}

export function parsePostRef(query: unknown): PostRef {
  const q = typeof query === 'string' ? query.trim() : '';
  if (!q) throw new InvalidInput('params.query: an instagram post (shortcode, media id, or an instagram.com/p/<code>/ link) is required');
  const id = MEDIA_ID.exec(q)?.[1] ?? (PK.test(q) ? q : undefined);
  if (id && BigInt(id) > 0n && BigInt(id) <= MAX_PK) return key(id);
  const url = asUrl(q);
  const fromUrl = url && postFromUrl(url);
  if (fromUrl) return fromUrl;
  if (!url && !/[/.@#\s]/.test(q) && q.length >= BARE_CODE_MIN) {
    const k = codeKey(q);
    if (k) return k;
  }
  throw new InvalidInput(
    `params.query: "${q.slice(0, 120)}" is not an instagram post reference (a shortcode like CAnqPB-Jzcj, a numeric media id or <pk>_<owner>, an instagram.com/p/, /reel/, /tv/ or /share/ link, or an instagr.am link)`,
  );
}

export function parseUserRef(query: unknown): UserRef {
  const q = typeof query === 'string' ? query.trim() : '';
  if (!q) throw new InvalidInput('params.query: an instagram account (@handle, numeric user id or instagram.com/<handle>/ link) is required');
  if (q.startsWith('@') && HANDLE.test(q.slice(1))) return { username: q.slice(1).toLowerCase() };
  if (/^\d{1,20}$/.test(q)) return { id: q };
  const url = asUrl(q);
  if (url) {
    const parts = url.pathname.split('/').filter(Boolean);
    const name = parts[0] === 'stories' ? parts[1] : parts[0];
    if (name && HANDLE.test(name) && (parts[0] === 'stories' || !RESERVED.has(name.toLowerCase()))) return { username: name.toLowerCase() };
  } else if (HANDLE.test(q) && !/^\.|\.$|\.\./.test(q)) return { username: q.toLowerCase() };
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not an instagram account reference (@handle, a numeric user id, or an instagram.com/<handle>/ link)`);
}

export function parseTagRef(query: unknown): string {
  const q = typeof query === 'string' ? query.trim() : '';
  const url = asUrl(q);
  let tag = q.replace(/^#/, '');
  if (url) {
    const parts = url.pathname.split('/').filter(Boolean);
    tag = parts[0] === 'explore' && parts[1] === 'tags' && parts[2] ? decodeURIComponent(parts[2]) : '';
  }
  if (!TAG.test(tag)) throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a hashtag (#tag, a word, or an instagram.com/explore/tags/<tag>/ link)`);
  return tag.toLowerCase();
}

const MAX_HOPS = 4;
const DAY_MS = 24 * 3600_000;

/** A /share/… link → the post it redirects to; only the redirect is asked for, never the target page. */
export async function followShareLink(ctx: CrawlContext, share: string): Promise<PostKey> {
  const memoKey = `instagram:share:${share}`;
  const known = ctx.memo.get<PostKey>(memoKey);
  if (known) return known;
  let url = new URL(share);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const res = await ctx.http.request({ url: url.toString(), followRedirects: false, headers: { accept: 'text/html' } });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (!IG_HOST.test(next.hostname)) throw new UpstreamError(`${share} redirects off instagram (${next.host})`);
      if (/\/accounts\/login/.test(next.pathname)) throw new UpstreamError(`${share}: instagram redirected the share link to its login page`);
      const found = postFromUrl(next);
      if (found && 'pk' in found) {
        ctx.memo.set(memoKey, found, DAY_MS);
        return found;
      }
      url = next;
      continue;
    }
    if (res.status === 404) throw new NotFound(`${share}: the share link does not exist`);
    throw new UpstreamError(`${share}: expected a redirect to a post, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${share}: too many redirects`);
}

export async function resolvePost(ctx: CrawlContext, query: unknown): Promise<PostKey> {
  const ref = parsePostRef(query);
  return 'share' in ref ? followShareLink(ctx, ref.share) : ref;
}
