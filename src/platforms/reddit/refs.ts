import { InvalidInput } from '../../crawl/errors.js';
import { WWW_ORIGIN } from './http.js';

/*
 * Reddit references, parsed without touching the network. Share links (/r/<sub>/s/<code>) are the one
 * form that needs reddit to answer; resolving them lives in share.ts.
 */

/** Base36 ids as reddit issues them (posts have been 5 to 7 characters long for years; very old ones are shorter). */
const ID = /^[a-z0-9]{1,13}$/;
/** Reddit usernames: letters, digits, _ and -, 3 to 20 long (a few early accounts are shorter). */
const USERNAME = /^[A-Za-z0-9_-]{1,20}$/;
/** Subreddit names: letters, digits and _, 2 to 21 long (a few early ones are shorter). */
const SUBREDDIT = /^[A-Za-z0-9_]{1,21}$/;

const REDDIT_HOST = /^(?:[a-z0-9-]+\.)?reddit\.com$/i;
const SHORT_HOST = /^(?:www\.)?redd\.it$/i;

export type PostRef =
  | { kind: 'post'; id: string }
  | { kind: 'comment'; id: string; postId?: string }
  | { kind: 'share'; url: string };

export type CreatorRef = { kind: 'user'; name: string } | { kind: 'subreddit'; name: string } | { kind: 'me' };

export const fullname = (ref: { kind: 'post' | 'comment'; id: string }): string => `${ref.kind === 'post' ? 't3' : 't1'}_${ref.id}`;

/** Strips reddit's type prefix (t1_, t2_, t3_, …) from a fullname; other strings pass unchanged. */
export function stripPrefix(name: string): string {
  return name.replace(/^t[0-9]_/, '');
}

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  const withScheme = /^https?:\/\//i.test(s)
    ? s
    : /^(?:[a-z0-9-]+\.)?(?:reddit\.com|redd\.it)\//i.test(s)
      ? `https://${s}`
      : /^\/?(?:r|u|user)\/[^/\s]+\/(?:comments|s)\//i.test(s)
        ? `${WWW_ORIGIN}/${s.replace(/^\//, '')}`
        : undefined;
  if (!withScheme) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

const segments = (u: URL): string[] => u.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));

/**
 * A post (or comment) reference: a post URL (any reddit.com host, /r/<sub>/comments/<id>/<slug>[/<comment>],
 * /user/<name>/comments/<id>, /comments/<id>, /gallery/<id>), redd.it/<id>, a share link /r/<sub>/s/<code>,
 * a fullname t3_<id> / t1_<id>, or a bare post id.
 */
export function parsePostRef(query: unknown): PostRef {
  const raw = typeof query === 'string' ? query.trim() : '';
  if (!raw) throw new InvalidInput('params.query: a reddit post URL, redd.it link, share link, t3_ fullname or post id is required');
  const url = asUrl(raw);
  if (url) {
    if (SHORT_HOST.test(url.hostname)) {
      const id = segments(url)[0]?.toLowerCase();
      if (id && ID.test(id)) return { kind: 'post', id };
      throw new InvalidInput(`params.query: ${raw} is not a redd.it post link`);
    }
    if (!REDDIT_HOST.test(url.hostname)) throw new InvalidInput(`params.query: ${url.hostname} is not a reddit host`);
    const seg = segments(url);
    const at = seg.indexOf('comments');
    if (at >= 0 && seg[at + 1]) {
      const id = seg[at + 1].toLowerCase();
      if (!ID.test(id)) throw new InvalidInput(`params.query: "${seg[at + 1]}" is not a reddit post id`);
      const comment = seg[at + 3]?.toLowerCase();
      if (comment && ID.test(comment)) return { kind: 'comment', id: comment, postId: id };
      return { kind: 'post', id };
    }
    if (seg[0] === 'gallery' && seg[1] && ID.test(seg[1].toLowerCase())) return { kind: 'post', id: seg[1].toLowerCase() };
    // /r/<sub>/s/<code> and /u/<name>/s/<code>: opaque share codes that only reddit can expand.
    if ((seg[0] === 'r' || seg[0] === 'u' || seg[0] === 'user') && seg[2] === 's' && seg[3]) {
      return { kind: 'share', url: `${WWW_ORIGIN}/${seg.slice(0, 4).map(encodeURIComponent).join('/')}` };
    }
    throw new InvalidInput(`params.query: ${raw} is not a reddit post URL (expected …/comments/<id>/…, redd.it/<id> or a /s/ share link)`);
  }
  const named = /^(t3|t1)_([a-z0-9]+)$/i.exec(raw);
  if (named) {
    const id = named[2].toLowerCase();
    if (!ID.test(id)) throw new InvalidInput(`params.query: ${raw} is not a reddit fullname`);
    return named[1].toLowerCase() === 't3' ? { kind: 'post', id } : { kind: 'comment', id };
  }
  const bare = raw.replace(/^\/?comments\//i, '').replace(/\/+$/, '').toLowerCase();
  if (ID.test(bare)) return { kind: 'post', id: bare };
  throw new InvalidInput(`params.query: "${raw}" is not a reddit post reference`);
}

/**
 * The path of a post or comment URL as written (/r/<sub>/comments/<id>/<slug>[/<comment>]), when it says
 * more than the bare /comments/<id>. Reddit serves the same submission page under every such path; the
 * readers try it after the canonical one, so a recording of the permalink still answers.
 */
export function permalinkPath(query: unknown): string | undefined {
  const url = asUrl(typeof query === 'string' ? query : '');
  if (!url || !REDDIT_HOST.test(url.hostname)) return undefined;
  const seg = segments(url);
  const at = seg.indexOf('comments');
  if (at < 0 || !seg[at + 1] || !ID.test(seg[at + 1].toLowerCase())) return undefined;
  const kept = seg.slice(0, at + 4);
  if (kept.length === 2) return undefined;
  return `/${kept.map(encodeURIComponent).join('/')}`;
}

/**
 * A creator reference: u/name, /u/name, /user/name, @name, a profile URL, or a bare username for a user;
 * r/name, /r/name or a subreddit URL for a community. Bare "me" is the logged-in account.
 */
export function parseCreatorRef(query: unknown): CreatorRef {
  const raw = typeof query === 'string' ? query.trim() : '';
  if (!raw) throw new InvalidInput('params.query: a reddit user (u/name) or subreddit (r/name) is required');
  if (raw.toLowerCase() === 'me') return { kind: 'me' };
  const url = asUrl(raw);
  let seg: string[];
  if (url) {
    if (!REDDIT_HOST.test(url.hostname)) throw new InvalidInput(`params.query: ${url.hostname} is not a reddit host`);
    seg = segments(url);
  } else {
    seg = raw.replace(/^@/, 'u/').split('/').filter(Boolean);
    if (seg.length === 1) seg = ['u', seg[0]];
  }
  const [kind, name] = [seg[0]?.toLowerCase(), seg[1]];
  if ((kind === 'u' || kind === 'user') && name) {
    if (!USERNAME.test(name)) throw new InvalidInput(`params.query: "${name}" is not a reddit username`);
    return { kind: 'user', name };
  }
  if (kind === 'r' && name) {
    if (!SUBREDDIT.test(name)) throw new InvalidInput(`params.query: "${name}" is not a subreddit name`);
    return { kind: 'subreddit', name };
  }
  throw new InvalidInput(`params.query: "${raw}" is not a reddit user (u/name) or subreddit (r/name)`);
}

/**
 * A subreddit name as callers write it (name, r/name, /r/name or a subreddit URL). Only what cannot sit in
 * a URL path or a form field is refused here; reddit itself judges whether the community exists.
 */
export function parseSubreddit(value: unknown, param = 'subreddit'): string {
  const raw = typeof value === 'string' ? value.trim() : '';
  const url = asUrl(raw);
  const seg = url ? (REDDIT_HOST.test(url.hostname) ? segments(url) : []) : raw.split('/').filter(Boolean);
  const name = seg[0]?.toLowerCase() === 'r' ? seg[1] : seg.length === 1 ? seg[0] : undefined;
  if (!name || /[\s/?#&%]/.test(name) || name.length > 64) throw new InvalidInput(`params.${param}: expected a subreddit name such as "pics" or "r/pics"`);
  return name;
}

/** The thing a write acts on: a post or comment reference as fullname, or a share link still to resolve. */
export function parseThingRef(value: unknown, param = 'target'): { fullname: string } | { share: string } {
  let ref: PostRef;
  try {
    ref = parsePostRef(value);
  } catch (e) {
    if (e instanceof InvalidInput) throw new InvalidInput(e.message.replace(/^params\.query/, `params.${param}`));
    throw e;
  }
  if (ref.kind === 'share') return { share: ref.url };
  return { fullname: fullname(ref) };
}

export const postUrl = (id: string): string => `${WWW_ORIGIN}/comments/${id}/`;
export const profileUrl = (name: string): string => `${WWW_ORIGIN}/user/${encodeURIComponent(name)}/`;
