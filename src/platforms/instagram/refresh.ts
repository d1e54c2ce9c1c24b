import { CrawlError, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { readPage } from './outcomes.js';
import { QUERY_HASHES, RELAY_OPERATIONS } from './ops.js';
import { WWW } from './refs.js';

/*
 * `npx crawler platforms refresh instagram`: loads the site's pages the way a browser does, reads the
 * script bundles they name (static.cdninstagram.com/rsrc.php/…js, in <script src>, preload links and the
 * escaped resource maps), and picks each Relay operation's doc_id out of its module,
 *   __d("PolarisPostCommentsPaginationQuery_instagramRelayOperation",[],(function(a,b,c,d,e,f){e.exports="…"}),null);
 * the form scrapers match today (gallery-dl-style doc_id extractors, browser extensions that refresh
 * PolarisProfilePostsQuery the same way). The web app id comes from the page's own config ("APP_ID").
 */
const PAGES = [`${WWW}/`, `${WWW}/instagram/`];
const MAX_BUNDLES = 150;

/** Bundle URLs a page names, in order, once each. */
export function bundleUrlsIn(html: string): string[] {
  const seen = new Set<string>();
  const re = /https:(?:\\?\/){2}static\.cdninstagram\.com(?:\\?\/)rsrc\.php(?:\\?\/)[^"'\s<>]+?\.js(?:\?[^"'\s<>]*)?(?=["'\s<>])/g;
  for (const m of html.matchAll(re)) seen.add(m[0].replace(/\\\//g, '/').replace(/&amp;/g, '&'));
  return [...seen];
}

/** Every `<Name>_instagramRelayOperation` module of a bundle → its doc_id. */
export function relayOperationsIn(js: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /__d\("([A-Za-z0-9_]+?)_instagramRelayOperation",\s*\[[^\]]*\],\s*\(?function\s*\([^)]*\)\s*\{[^}]{0,200}?\.exports\s*=\s*"(\d{5,25})"/g;
  for (const m of js.matchAll(re)) out.set(m[1]!, m[2]!);
  return out;
}

/** The web app id from the page config ("APP_ID":"…", DGWWebConfig's "appId":"…", or an X-IG-App-ID header entry). */
export function appIdIn(html: string): string | undefined {
  return /"APP_ID"\s*:\s*"(\d{6,20})"/.exec(html)?.[1] ?? /"appId"\s*:\s*"(\d{6,20})"/.exec(html)?.[1] ?? /"X-IG-App-ID"\s*:\s*"(\d{6,20})"/i.exec(html)?.[1];
}

async function fetchText(ctx: CrawlContext, url: string, what: string, page: boolean): Promise<string | undefined> {
  try {
    const res = await ctx.http.request({ url, followRedirects: page ? false : true, headers: { accept: page ? 'text/html,application/xhtml+xml' : '*/*', 'accept-language': 'en-US,en;q=0.9', ...(page ? {} : { referer: `${WWW}/` }) } });
    if (page) return readPage(res, ctx, what);
    if (res.status !== 200) throw new UpstreamError(`${what}: HTTP ${res.status}`);
    return res.text();
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    ctx.warn(`${what}: ${(e as Error).message}`);
    return undefined;
  }
}

export async function refreshOps(ctx: CrawlContext): Promise<Record<string, unknown>> {
  const wanted = new Set(Object.keys(RELAY_OPERATIONS));
  const found: Record<string, unknown> = {};
  const bundles: string[] = [];
  let pages = 0;
  for (const url of PAGES) {
    const html = await fetchText(ctx, url, `page ${url}`, true);
    if (html === undefined) continue;
    pages++;
    const app = appIdIn(html);
    if (app && found.app_id === undefined) found.app_id = app;
    for (const b of bundleUrlsIn(html)) if (!bundles.includes(b)) bundles.push(b);
  }
  if (!pages) throw new UpstreamError(`could not load instagram.com's pages to refresh the operation ids (${PAGES.join(', ')})`);
  let read = 0;
  for (const url of bundles.slice(0, MAX_BUNDLES)) {
    if ([...wanted].every((n) => n in found)) break;
    const js = await fetchText(ctx, url, `bundle ${url}`, false);
    if (js === undefined) continue;
    read++;
    for (const [name, id] of relayOperationsIn(js)) if (wanted.has(name)) found[name] = id;
  }
  const ops = Object.keys(found).filter((k) => wanted.has(k));
  if (!ops.length) {
    throw new UpstreamError(`no Relay operation ids in ${read} of ${bundles.length} bundles of instagram.com (logged-out pages ship fewer: try --profile with a stored login)`);
  }
  for (const name of wanted) if (!(name in found)) ctx.warn(`${name}: not in the bundles these pages load; the current id stays (patch it through CRAWLER_INSTAGRAM_OPS if it goes stale)`);
  ctx.warn(`the legacy query hashes (${Object.keys(QUERY_HASHES).join(', ')}) are not in today's bundles; they stay as they are`);
  return found;
}
