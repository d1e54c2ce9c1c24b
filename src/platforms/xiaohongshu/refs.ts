import { InvalidInput } from '../../crawl/errors.js';
import { followHops } from '../../crawl/redirects.js';
import type { CrawlContext } from '../types.js';
import { classifyRedirect } from './api.js';

/*
 * Reference forms (cn-platforms.md §3; XHS-Downloader's link patterns): a note is its 24-hex id, a
 * www.xiaohongshu.com/explore/<id> or /discovery/item/<id> page, a /user/profile/<uid>/<id> page, or an
 * xhslink.com short link; a user is a 24-hex id, a /user/profile/<uid> page or a short link. A page link
 * may carry the note's (or user's) xsec_token and xsec_source, which the API and the pages want: they are
 * kept and carried on, and the item URLs this adapter writes carry them too, so a search result's url is
 * itself a reference that detail and comments accept.
 */

export const WWW = 'https://www.xiaohongshu.com';
export const SHORT_HOSTS = ['xhslink.com', 'www.xhslink.com', 'xhslink.cn'];
const SITE_HOST = /^(?:www\.|m\.)?(?:xiaohongshu\.com|rednote\.com)$/i;
const HEX24 = /^[0-9a-f]{24}$/;

export const isId = (s: string): boolean => HEX24.test(s);

export interface Token {
  xsecToken?: string;
  xsecSource?: string;
}
export type NoteRef = ({ id: string } & Token) | { short: string };
export type UserRef = ({ userId: string } & Token) | { short: string };

function withToken(base: string, t: Token): string {
  if (!t.xsecToken) return base;
  return `${base}?xsec_token=${encodeURIComponent(t.xsecToken)}&xsec_source=${encodeURIComponent(t.xsecSource ?? 'pc_search')}`;
}

export const noteUrl = (id: string, t: Token = {}): string => withToken(`${WWW}/explore/${id}`, t);
export const userUrl = (id: string, t: Token = {}): string => withToken(`${WWW}/user/profile/${id}`, t);

function asUrl(input: string): URL | undefined {
  // Share texts carry the link inside prose ("… http://xhslink.com/a/AbC12 复制本条信息…").
  const found = /https?:\/\/[^\s"'<>，。！]+/i.exec(input)?.[0] ?? (/^(?:[a-z0-9-]+\.)*(?:xiaohongshu\.com|rednote\.com|xhslink\.com|xhslink\.cn)(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

const isShort = (url: URL): boolean => SHORT_HOSTS.includes(url.hostname.toLowerCase());

function tokenOf(url: URL): Token {
  // A pasted link may have lost its %2B: a token never holds spaces.
  const xsecToken = url.searchParams.get('xsec_token')?.replace(/ /g, '+') || undefined;
  const xsecSource = url.searchParams.get('xsec_source') || undefined;
  return { ...(xsecToken ? { xsecToken } : {}), ...(xsecToken && xsecSource ? { xsecSource } : {}) };
}

/** A note id (and its token) in a site URL: /explore/<id>, /discovery/item/<id>, /user/profile/<uid>/<id>. */
export function noteFromUrl(url: URL): ({ id: string } & Token) | undefined {
  if (!SITE_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if ((parts[0] === 'explore' || parts[0] === 'search_result') && parts[1] && isId(parts[1])) id = parts[1];
  else if (parts[0] === 'discovery' && parts[1] === 'item' && parts[2] && isId(parts[2])) id = parts[2];
  else if (parts[0] === 'user' && parts[1] === 'profile' && parts[3] && isId(parts[3])) id = parts[3];
  return id ? { id, ...tokenOf(url) } : undefined;
}

/** A user id (and its token) in a site URL: /user/profile/<uid>. */
export function userFromUrl(url: URL): ({ userId: string } & Token) | undefined {
  if (!SITE_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] === 'user' && parts[1] === 'profile' && parts[2] && isId(parts[2])) return { userId: parts[2], ...tokenOf(url) };
  return undefined;
}

const shortOf = (url: URL): string => `https://${url.hostname.toLowerCase()}${url.pathname}`;

export function parseNoteRef(query: string | undefined): NoteRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a xiaohongshu note (24-hex note id, www.xiaohongshu.com/explore/<id> link, or xhslink.com share link) is required');
  if (isId(q)) return { id: q };
  const url = asUrl(q);
  if (url && isShort(url)) return { short: shortOf(url) };
  const ref = url ? noteFromUrl(url) : undefined;
  if (ref) return ref;
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a xiaohongshu note reference (a 24-hex note id, a www.xiaohongshu.com/explore/<id> or /discovery/item/<id> link, best with its ?xsec_token=, or an xhslink.com share link)`);
}

export function parseUserRef(query: string | undefined): UserRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a xiaohongshu user (24-hex user id, www.xiaohongshu.com/user/profile/<id> link, or xhslink.com share link) is required');
  if (isId(q)) return { userId: q };
  const url = asUrl(q);
  if (url && isShort(url)) return { short: shortOf(url) };
  const ref = url ? userFromUrl(url) : undefined;
  if (ref) return ref;
  if (/^\d{5,12}$/.test(q)) throw new InvalidInput(`params.query: "${q}" looks like a 小红书号 (red id); the web takes the 24-hex user id from the profile URL www.xiaohongshu.com/user/profile/<id> (search with type=users finds it)`);
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a xiaohongshu user reference (a 24-hex user id, a www.xiaohongshu.com/user/profile/<id> link, or an xhslink.com share link)`);
}

/** An xhslink.com link → the URL it redirects to; only the redirect is asked for, never the target page. */
export async function followShortLink(ctx: CrawlContext, short: string): Promise<URL> {
  const what = `share link ${short}`;
  const href = await followHops(ctx, short, {
    what,
    memoKey: `xhs:short:${short}`,
    onSite: (u) => isShort(u) || SITE_HOST.test(u.hostname),
    done: (u) => (isShort(u) ? undefined : u.toString()),
    // A captcha or error page instead of the note: what the redirect says, not "not a note".
    check: (_res, next) => {
      if (next && !isShort(next) && /^\/(?:website-login|404)/.test(next.pathname)) throw classifyRedirect(next.toString(), what, true);
    },
  });
  return new URL(href);
}

/*
 * xsec_tokens seen in this process's answers (search, posts, feed), by note id: a later detail or
 * comments call on the bare id (the media refresh asks by id) goes out with the token the platform issued.
 */
const TOKEN_TTL_MS = 12 * 3600_000;
export function rememberToken(ctx: CrawlContext, id: string, t: Token): void {
  if (t.xsecToken) ctx.memo.set(`xhs:xsec:${id}`, { xsecToken: t.xsecToken, xsecSource: t.xsecSource }, TOKEN_TTL_MS);
}
const recalled = (ctx: CrawlContext, id: string): Token => ctx.memo.get<Token>(`xhs:xsec:${id}`) ?? {};

export async function resolveNote(ctx: CrawlContext, query: string | undefined): Promise<{ id: string } & Token> {
  const ref = parseNoteRef(query);
  let found: { id: string } & Token;
  if ('id' in ref) found = ref;
  else {
    const target = await followShortLink(ctx, ref.short);
    const note = noteFromUrl(target);
    if (!note) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a xiaohongshu note`);
    found = note;
  }
  return found.xsecToken ? found : { ...found, ...recalled(ctx, found.id) };
}

export async function resolveUser(ctx: CrawlContext, query: string | undefined): Promise<{ userId: string } & Token> {
  const ref = parseUserRef(query);
  if ('userId' in ref) return ref;
  const target = await followShortLink(ctx, ref.short);
  const user = userFromUrl(target);
  if (!user) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a xiaohongshu user page`);
  return user;
}
