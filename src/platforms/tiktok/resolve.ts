import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { checkHttp } from './api.js';
import { SHORT_HOSTS, creatorFromUrl, parseCreatorRef, parsePostRef, shortLinkOf, videoFromUrl, type CreatorRef, type VideoRef } from './refs.js';

const MAX_HOPS = 4;
const DAY_MS = 24 * 3600_000;
/*
 * TikTok answers a link-preview crawler's request for a share link with the redirect itself (yt-dlp
 * TikTokVMIE sends this agent); a browser agent may get a script page instead. No guest state rides on it.
 */
const PREVIEW_AGENT = 'facebookexternalhit/1.1';

const isTikTokHost = (host: string): boolean => /(?:^|\.)tiktokv?\.com$/i.test(host);

/**
 * A share link (vm./vt.tiktok.com/<code>, www.tiktok.com/t/<code>) → the URL it redirects to. Each hop is
 * one GET without following redirects: only the Location is read, the target page is never fetched.
 */
export async function followShortLink(ctx: CrawlContext, short: string): Promise<URL> {
  const key = `tiktok:short:${short}`;
  const known = ctx.memo.get<string>(key);
  if (known) return new URL(known);
  let url = new URL(short);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const res = await ctx.http.request({ url: url.toString(), followRedirects: false, headers: { 'User-Agent': PREVIEW_AGENT, Accept: 'text/html,*/*' } });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (!isTikTokHost(next.hostname)) throw new UpstreamError(`${short} redirects off TikTok (${next.host})`);
      if (SHORT_HOSTS.includes(next.hostname.toLowerCase()) || shortLinkOf(next)) {
        url = next;
        continue;
      }
      ctx.memo.set(key, next.toString(), DAY_MS);
      return next;
    }
    if (res.status === 404) throw new NotFound(`${short}: the share link does not exist`);
    checkHttp(res, `share link ${short}`, true);
    throw new UpstreamError(`${short}: expected a redirect, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${short}: too many redirects`);
}

/** Any post reference → the post's id (share links followed). */
export async function resolveVideo(ctx: CrawlContext, query: string | undefined): Promise<VideoRef> {
  const ref = parsePostRef(query);
  if (!('short' in ref)) return ref;
  const target = await followShortLink(ctx, ref.short);
  const video = videoFromUrl(target);
  if (!video) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a TikTok post`);
  return video;
}

/** Any creator reference → handle, secUid or numeric id (share links followed; a post link names its creator). */
export async function resolveCreator(ctx: CrawlContext, query: string | undefined): Promise<Exclude<CreatorRef, { short: string }>> {
  const ref = parseCreatorRef(query);
  if (!('short' in ref)) return ref;
  const target = await followShortLink(ctx, ref.short);
  const creator = creatorFromUrl(target);
  if (!creator || 'short' in creator) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which names no TikTok creator`);
  return creator;
}
