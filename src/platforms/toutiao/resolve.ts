import { InvalidInput } from '../../crawl/errors.js';
import { followHops } from '../../crawl/redirects.js';
import type { CrawlContext } from '../types.js';
import { baseHeaders, check, HTML_ACCEPT } from './api.js';
import { creatorFromUrl, parseCreatorRef, parsePostRef, postFromUrl, type PostRef } from './refs.js';
import { guestCookie } from './ttwid.js';

const DAY_MS = 24 * 3600_000;

/** Follows toutiao redirects while they stay on toutiao.com, until `done` recognizes the URL. */
function followUntil<T>(ctx: CrawlContext, start: string, what: string, done: (u: URL) => T | undefined): Promise<T> {
  return followHops(ctx, start, {
    what,
    headers: async () => {
      const headers = baseHeaders(`https://www.toutiao.com/`, HTML_ACCEPT);
      const cookie = await guestCookie(ctx);
      if (cookie) headers.Cookie = cookie;
      return headers;
    },
    onSite: (u) => /(^|\.)toutiao\.com$/i.test(u.hostname),
    done,
    check: (res) => check(res, ctx, what),
  });
}

/** Any post reference → group id and kind (share short links followed). */
export async function resolvePost(ctx: CrawlContext, query: string | undefined): Promise<PostRef> {
  const ref = parsePostRef(query);
  if (!('short' in ref)) return ref;
  const key = `toutiao:short:${ref.short}`;
  const known = ctx.memo.get<PostRef>(key);
  if (known) return known;
  const post = await followUntil(ctx, ref.short, `short link ${ref.short}`, (u) => postFromUrl(u));
  ctx.memo.set(key, post, DAY_MS);
  return post;
}

/** Any creator reference → token (numeric user ids and short links followed to the token page). */
export async function resolveToken(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseCreatorRef(query);
  if ('token' in ref) return ref.token;
  const start = 'uid' in ref ? `https://www.toutiao.com/c/user/${ref.uid}/` : ref.short;
  const key = `toutiao:token-of:${start}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const what = 'uid' in ref ? `user ${ref.uid}` : `short link ${ref.short}`;
  const token = await followUntil(ctx, start, what, (u) => {
    const c = creatorFromUrl(u);
    if (c && 'token' in c) return c.token;
    if (postFromUrl(u)) throw new InvalidInput(`${what} leads to a post (${u.toString()}), not a creator`);
    return undefined;
  });
  ctx.memo.set(key, token, DAY_MS);
  return token;
}
