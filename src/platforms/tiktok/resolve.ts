import { InvalidInput } from '../../crawl/errors.js';
import { followHops } from '../../crawl/redirects.js';
import type { CrawlContext } from '../types.js';
import { checkHttp } from './api.js';
import { SHORT_HOSTS, creatorFromUrl, parseCreatorRef, parsePostRef, shortLinkOf, videoFromUrl, type CreatorRef, type VideoRef } from './refs.js';

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
  const what = `share link ${short}`;
  const href = await followHops(ctx, short, {
    what,
    memoKey: `tiktok:short:${short}`,
    headers: () => ({ 'User-Agent': PREVIEW_AGENT, Accept: 'text/html,*/*' }),
    onSite: (u) => isTikTokHost(u.hostname),
    done: (u) => (SHORT_HOSTS.includes(u.hostname.toLowerCase()) || shortLinkOf(u) ? undefined : u.toString()),
    check: (res, next) => {
      if (!next) checkHttp(res, what, true);
    },
  });
  return new URL(href);
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
