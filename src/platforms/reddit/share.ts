import { InvalidInput, NotFound, ParseError, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { awaitBudget, checkCommon, hostPath, noteBudget, userAgent } from './http.js';
import { type PostRef, parsePostRef } from './refs.js';

export type ResolvedRef = Exclude<PostRef, { kind: 'share' }>;

/** A share code never changes its target; a day keeps repeated lookups off reddit. */
const SHARE_TTL_MS = 24 * 3600_000;

/** A post reference with share links expanded. */
export async function resolvePostRef(ctx: CrawlContext, query: unknown): Promise<ResolvedRef> {
  const ref = parsePostRef(query);
  return ref.kind === 'share' ? resolveShare(ctx, ref.url) : ref;
}

/**
 * /r/<sub>/s/<code> links from reddit's apps are opaque: www.reddit.com answers them with a 301 whose
 * Location is the real permalink (plus share_id/utm tracking, dropped here). Only the redirect is read,
 * never followed.
 */
export async function resolveShare(ctx: CrawlContext, url: string): Promise<ResolvedRef> {
  const key = `reddit:share:${url}`;
  const known = ctx.memo.get<ResolvedRef>(key);
  if (known) return known;
  await awaitBudget(ctx, new URL(url).host);
  const res = await ctx.http.request({ url, query: { raw_json: 1 }, headers: { 'User-Agent': userAgent(ctx) }, followRedirects: false });
  noteBudget(ctx, res);
  let target: string | undefined;
  if (res.status >= 300 && res.status < 400) {
    target = res.headers['location'];
    if (!target) throw new UpstreamError(`share link: HTTP ${res.status} without a Location from ${hostPath(res)}`);
  } else if (res.status === 404) {
    throw new NotFound(`reddit does not know the share link ${url}`);
  } else {
    checkCommon(res, 'share link');
    // Some clients get the page itself instead of the redirect; its canonical link names the post.
    target = /https:\/\/www\.reddit\.com\/r\/[^"'\s<>]+\/comments\/[a-z0-9]+\/[^"'\s<>]*/i.exec(res.text())?.[0];
    if (!target) throw new ParseError(`share link ${url}: reddit answered HTTP ${res.status} without naming the post`);
  }
  let ref: PostRef;
  try {
    ref = parsePostRef(new URL(target, url).toString());
  } catch (e) {
    if (e instanceof InvalidInput) throw new UpstreamError(`share link ${url} led to ${target}, which is not a reddit post`);
    throw e;
  }
  if (ref.kind === 'share') throw new UpstreamError(`share link ${url} led to another share link`);
  ctx.memo.set(key, ref, SHARE_TTL_MS);
  return ref;
}
