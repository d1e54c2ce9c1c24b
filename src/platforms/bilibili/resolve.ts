import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { ENDPOINTS, SHORT_LINK_HOSTS, checkStatus, getJson, type Json } from './api.js';
import { creatorFromUrl, parseCreatorRef, parsePostRef, videoFromUrl, type VideoRef } from './refs.js';

const MAX_HOPS = 4;
const DAY_MS = 24 * 3600_000;

/**
 * A b23.tv / bili2233.cn short link → the bilibili URL it redirects to. Only the short-link hops are
 * requested: the target page itself is never fetched, its URL is all that is needed.
 */
export async function followShortLink(ctx: CrawlContext, short: string): Promise<URL> {
  const key = `bilibili:short:${short}`;
  const known = ctx.memo.get<string>(key);
  if (known) return new URL(known);
  let url = new URL(short);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    let res = await ctx.http.request({ method: 'HEAD', url: url.toString(), followRedirects: false });
    // Some edges refuse HEAD; the same redirect comes with GET.
    if (res.status === 405) res = await ctx.http.request({ url: url.toString(), followRedirects: false });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (SHORT_LINK_HOSTS.includes(next.hostname.toLowerCase())) {
        url = next;
        continue;
      }
      if (!/(^|\.)bilibili\.com$/i.test(next.hostname)) throw new UpstreamError(`${short} redirects off bilibili (${next.host})`);
      ctx.memo.set(key, next.toString(), DAY_MS);
      return next;
    }
    if (res.status === 404) throw new NotFound(`${short}: the short link does not exist`);
    checkStatus(res, `short link ${short}`);
    throw new UpstreamError(`${short}: expected a redirect, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${short}: too many redirects`);
}

/** Any video reference → BV id + av id (short links followed). */
export async function resolveVideo(ctx: CrawlContext, query: string | undefined): Promise<VideoRef> {
  const ref = parsePostRef(query);
  if (!('short' in ref)) return ref;
  const target = await followShortLink(ctx, ref.short);
  const video = videoFromUrl(target);
  if (!video) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a bilibili video`);
  return video;
}

/** Any creator reference → mid (short links followed, @names looked up). */
export async function resolveMid(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseCreatorRef(query);
  if ('mid' in ref) return ref.mid;
  if ('short' in ref) {
    const target = await followShortLink(ctx, ref.short);
    const mid = creatorFromUrl(target);
    if (!mid) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a bilibili space page`);
    return mid;
  }
  const key = `bilibili:mid-of:${ref.name.toLowerCase()}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const mid = await lookupName(ctx, ref.name);
  ctx.memo.set(key, mid, DAY_MS);
  return mid;
}

/**
 * The user search is fuzzy; only an exact (case-insensitive) name match is taken, since a similar
 * name would crawl someone else.
 */
async function lookupName(ctx: CrawlContext, name: string): Promise<string> {
  const { data } = await getJson(ctx, ENDPOINTS.search, {
    what: `user search "${name}"`,
    query: { search_type: 'bili_user', keyword: name, page: 1 },
    sign: true,
    referer: 'https://search.bilibili.com/',
  });
  const wanted = name.toLowerCase();
  const results = Array.isArray(data.result) ? (data.result as Json[]) : [];
  for (const r of results) {
    const uname = typeof r?.uname === 'string' ? r.uname.replace(/<[^>]*>/g, '') : '';
    if (uname.toLowerCase() === wanted && r.mid !== undefined && /^\d+$/.test(String(r.mid))) return String(r.mid);
  }
  throw new InvalidInput(`no bilibili user is named exactly "${name}" (the user search found ${results.length} similar name(s)); pass the mid or space.bilibili.com/<mid>`);
}
