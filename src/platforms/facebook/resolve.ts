import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { checkHttp, loginNeeded } from './api.js';
import { isFacebookHost, parsePostRef, postRefFromUrl, shortLink, type PostRef } from './refs.js';

export type ResolvedPost = Exclude<PostRef, { kind: 'short' }>;

const MAX_HOPS = 4;
const DAY_MS = 24 * 3600_000;

/**
 * fb.watch/<code> (and /share/…/<code>) → the facebook URL it redirects to. Only the redirect is asked
 * for (no-redirect request), never the target page; the answer is remembered for a day.
 */
export async function followShortLink(ctx: CrawlContext, short: string): Promise<URL> {
  const key = `facebook:short:${short}`;
  const known = ctx.memo.get<string>(key);
  if (known) return new URL(known);
  let url = new URL(short);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const res = await ctx.http.request({ url: url.toString(), followRedirects: false, headers: { 'accept-language': 'en-US,en;q=0.5' } });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (shortLink(next) && next.toString() !== url.toString()) {
        url = next;
        continue;
      }
      if (!isFacebookHost(next.hostname)) throw new UpstreamError(`${short} redirects off facebook (${next.host})`);
      if (/^\/login/i.test(next.pathname)) throw loginNeeded(ctx, `short link ${short}`);
      ctx.memo.set(key, next.toString(), DAY_MS);
      return next;
    }
    if (res.status === 404) throw new NotFound(`${short}: the short link does not exist`);
    checkHttp(res, `short link ${short}`);
    throw new UpstreamError(`${short}: expected a redirect, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${short}: too many redirects`);
}

export async function resolvePost(ctx: CrawlContext, query: string | undefined): Promise<ResolvedPost> {
  const ref = parsePostRef(query);
  if (ref.kind !== 'short') return ref;
  const target = await followShortLink(ctx, ref.url);
  const resolved = postRefFromUrl(target);
  if (!resolved) throw new InvalidInput(`${ref.url} leads to ${target.toString()}, which is not a facebook post or video`);
  return resolved;
}
