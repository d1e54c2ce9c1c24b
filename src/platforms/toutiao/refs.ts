import { InvalidInput } from '../../crawl/errors.js';

/*
 * Every reference form toutiao uses for a post or a creator.
 *
 * Posts (group_id = item_id, a 15–20 digit number; 19 digits since ~2016, older micro-posts 16):
 *   www.toutiao.com/article/<id>/   www.toutiao.com/video/<id>/   www.toutiao.com/w/<id>/ (also /w/a<id>/)
 *   www.toutiao.com/group/<id>/     www.toutiao.com/item/<id>/    toutiao.com/a<id>/     toutiao.com/i<id>/
 *   m.toutiao.com/i<id>/  m.toutiao.com/article/<id>/  m.toutiao.com/w/<id>/  m.toutiao.com/video/<id>/
 *   m.toutiao.com/is/<code>/ (share short link: resolved by its redirect), or the bare id.
 * Creators:
 *   www.toutiao.com/c/user/token/<token>/ (token = MS4wLjABAAAA…, the id the web uses everywhere)
 *   www.toutiao.com/c/user/<uid>/ (numeric user id: redirects to the token page), the bare token or uid,
 *   or a share short link.
 * Hot-board entries are topics (www.toutiao.com/trending/<cluster id>/), not posts.
 */

export type PostKind = 'article' | 'video' | 'micro' | 'unknown';
export interface PostRef {
  id: string;
  kind: PostKind;
}
export type PostInput = PostRef | { short: string };
export type CreatorRef = { token: string } | { uid: string };
export type CreatorInput = CreatorRef | { short: string };

const POST_ID = /^\d{15,20}$/;
/** base64url of a ByteDance "secure uid": starts with the encoded "1.0." header. */
const TOKEN = /^MS4wLjABAAAA[A-Za-z0-9_-]{20,120}$/;
const UID = /^\d{5,20}$/;
const TOUTIAO_HOST = /^(?:(?:www|m)\.)?toutiao\.com$/i;
const TRENDING_NATIVE = /^trending-(\d{6,25})$/;

export const isPostId = (s: string): boolean => POST_ID.test(s);
export const isToken = (s: string): boolean => TOKEN.test(s);

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  const withScheme = /^https?:\/\//i.test(s) ? s : /^(?:[a-z0-9-]+\.)*toutiao\.com(?:[/?#]|$)/i.test(s) ? `https://${s}` : undefined;
  if (!withScheme) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

const shortCode = (url: URL): string | undefined => {
  const m = /^\/is\/([A-Za-z0-9_-]{4,40})\/?$/.exec(url.pathname);
  return m && /^m\.toutiao\.com$/i.test(url.hostname) ? m[1] : undefined;
};
export const shortLink = (code: string): string => `https://m.toutiao.com/is/${code}/`;

/** The post a toutiao URL names, or undefined. */
export function postFromUrl(url: URL): PostRef | undefined {
  if (!TOUTIAO_HOST.test(url.hostname)) return undefined;
  const path = url.pathname;
  const m =
    /^\/(article|video|group|item)\/(\d+)\/?$/.exec(path) ??
    /^\/(w)\/a?(\d+)\/?$/.exec(path) ??
    /^\/([ai])(\d+)\/?(?:info\/?)?$/.exec(path);
  if (!m || !POST_ID.test(m[2])) return undefined;
  const kind: PostKind = m[1] === 'article' ? 'article' : m[1] === 'video' ? 'video' : m[1] === 'w' ? 'micro' : 'unknown';
  return { id: m[2], kind };
}

/** A post reference: URL, share short link, bare id, or the native id of a hot-board topic (refused). */
export function parsePostRef(input: string | undefined): PostInput {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a toutiao post reference (URL or group id) is required');
  if (POST_ID.test(raw)) return { id: raw, kind: 'unknown' };
  const topic = TRENDING_NATIVE.exec(raw);
  if (topic) throw new InvalidInput(`"${raw}" is a hot-board topic (${trendingUrl(topic[1])}), not a post`);
  const url = asUrl(raw);
  if (!url) throw new InvalidInput(`"${raw}" is not a toutiao post reference (expected a toutiao.com URL or a 15–20 digit group id)`);
  if (!TOUTIAO_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a toutiao URL`);
  const code = shortCode(url);
  if (code) return { short: shortLink(code) };
  const trending = /^\/trending\/(\d+)\/?$/.exec(url.pathname);
  if (trending) throw new InvalidInput(`"${raw}" is a hot-board topic page, not a post`);
  const ref = postFromUrl(url);
  if (ref) return ref;
  throw new InvalidInput(`"${raw}" is not a toutiao post URL (expected /article/<id>, /video/<id>, /w/<id>, /group/<id> or /a<id>)`);
}

/** The creator a toutiao URL names, or undefined. */
export function creatorFromUrl(url: URL): CreatorRef | undefined {
  if (!TOUTIAO_HOST.test(url.hostname)) return undefined;
  const token = /^\/c\/user\/token\/([^/?#]+)\/?$/.exec(url.pathname)?.[1];
  if (token && TOKEN.test(token)) return { token };
  const uid = /^\/c\/user\/(\d+)\/?$/.exec(url.pathname)?.[1];
  if (uid && UID.test(uid)) return { uid };
  return undefined;
}

/** A creator reference: profile URL (token or uid form), bare token, bare uid, or a share short link. */
export function parseCreatorRef(input: string | undefined): CreatorInput {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a toutiao creator reference (profile URL, token or user id) is required');
  if (TOKEN.test(raw)) return { token: raw };
  if (UID.test(raw)) return { uid: raw };
  const url = asUrl(raw);
  if (!url || !TOUTIAO_HOST.test(url.hostname)) {
    if (raw.startsWith('@')) throw new InvalidInput(`toutiao has no @handles; pass the profile URL (www.toutiao.com/c/user/token/…) instead of "${raw}"`);
    throw new InvalidInput(`"${raw}" is not a toutiao creator reference (expected www.toutiao.com/c/user/token/<token>/, a token or a user id)`);
  }
  const code = shortCode(url);
  if (code) return { short: shortLink(code) };
  const ref = creatorFromUrl(url);
  if (ref) return ref;
  throw new InvalidInput(`"${raw}" is not a toutiao profile URL (expected /c/user/token/<token>/ or /c/user/<uid>/)`);
}

export const trendingUrl = (clusterId: string): string => `https://www.toutiao.com/trending/${clusterId}/`;
export const creatorUrl = (token: string): string => `https://www.toutiao.com/c/user/token/${token}/`;

/** The canonical web page of a post of a known kind; unknown kinds go through /article/, which redirects. */
export function postUrl(id: string, kind: PostKind): string {
  if (kind === 'video') return `https://www.toutiao.com/video/${id}/`;
  if (kind === 'micro') return `https://www.toutiao.com/w/${id}/`;
  return `https://www.toutiao.com/article/${id}/`;
}

export const trendingNativeId = (clusterId: string): string => `trending-${clusterId}`;
