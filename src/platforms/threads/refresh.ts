import { CrawlError, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { webPage } from './api.js';
import { operation, OPERATION_NAMES, webConfig, type Operation, type OperationName } from './ops.js';

/*
 * `npx crawler platforms refresh threads`: the web client's persisted queries are modules of its
 * bundles (static.cdninstagram.com/rsrc.php/…js, listed by the site's pages as script tags and in their
 * resource maps), each one
 *   __d("BarcelonaPostPageDirectQuery_threadsRelayOperation",[],(function(t,n,r,o,a,i){a.exports="3500…"}),null);
 * next to its query module, whose dependencies name the relay providers the query's variables carry:
 *   __d("BarcelonaPostPageDirectQuery.graphql",["BarcelonaPostPageDirectQuery_threadsRelayOperation","BarcelonaIsLoggedInrelayprovider",…],…
 * Modules of the same name for facebook.com (_facebookRelayOperation) are another site's ids and are
 * never taken (the module shape as measured in 2026 by Casberi's Threads self-test; Meta's Relay bundles
 * are read the same way for facebook.com and instagram.com by several public scrapers).
 */

const OPERATION_MODULE = /__d\(\s*"([A-Za-z0-9_]+?)_threadsRelayOperation"\s*,\s*\[\s*\]\s*,\s*\(?\s*function\s*\([^)]*\)\s*\{\s*[\w$]+\.exports\s*=\s*"(\d{6,25})"/g;
const QUERY_MODULE = /__d\(\s*"([A-Za-z0-9_]+)\.graphql"\s*,\s*\[([^\]]*)\]/g;
const BUNDLE_URL = /https:(?:\\?\/){2}static\.(?:cdninstagram\.com|xx\.fbcdn\.net)(?:\\?\/)rsrc\.php(?:\\?\/)[^"'\s<>]+?\.js(?:\?[^"'\s<>\\]*)?/g;

export interface Found {
  docIds: Map<string, string>;
  providers: Map<string, string[]>;
}

/** Operation ids and query dependencies in one page or bundle, added to `into`. */
export function scanBundle(text: string, into: Found = { docIds: new Map(), providers: new Map() }): Found {
  for (const m of text.matchAll(OPERATION_MODULE)) into.docIds.set(m[1]!, m[2]!);
  for (const m of text.matchAll(QUERY_MODULE)) {
    const deps = [...m[2]!.matchAll(/"([^"]+)"/g)].map((d) => d[1]!);
    into.providers.set(
      m[1]!,
      deps.filter((d) => /relayprovider$/.test(d)),
    );
  }
  return into;
}

/** The bundle URLs a page lists (script tags, preloads, JSON resource maps with escaped slashes), once each. */
export function bundleUrls(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(BUNDLE_URL)) {
    const url = m[0].replace(/\\\//g, '/');
    if (!out.includes(url)) out.push(url);
  }
  return out;
}

/** The providers a query lists now, with the values known for them; new ones start false. */
function providersFor(current: Operation, listed: string[] | undefined, name: string, ctx: CrawlContext): Record<string, boolean> | undefined {
  if (!listed) return current.providers;
  const out: Record<string, boolean> = {};
  const fresh: string[] = [];
  for (const p of listed) {
    const known = current.providers?.[p];
    if (known === undefined) fresh.push(p);
    out[p] = known ?? false;
  }
  if (fresh.length) ctx.warn(`${name}: new relay providers ${fresh.join(', ')} set to false; check them against the site's traffic`);
  return out;
}

export async function refreshOps(ctx: CrawlContext): Promise<Record<string, unknown>> {
  const web = webConfig(ctx);
  const wanted = OPERATION_NAMES.filter((n) => !operation(ctx, n).pinned);
  const found: Found = { docIds: new Map(), providers: new Map() };
  const bundles: string[] = [];
  const done = () => wanted.every((n) => found.docIds.has(n) && found.providers.has(n));
  for (const page of web.refresh_pages) {
    try {
      const html = await webPage(ctx, page, `refresh: ${page}`);
      scanBundle(html, found);
      for (const u of bundleUrls(html)) if (!bundles.includes(u)) bundles.push(u);
    } catch (e) {
      if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
      ctx.warn(`refresh: could not read ${page} (${(e as Error).message})`);
    }
  }
  let read = 0;
  for (const url of bundles) {
    if (done() || read >= web.refresh_max_bundles) break;
    read++;
    try {
      const res = await ctx.http.request({ url, headers: { accept: '*/*', referer: `${web.origin}/` } });
      if (res.status >= 400) {
        ctx.warn(`refresh: ${url} answered HTTP ${res.status}`);
        continue;
      }
      scanBundle(res.text(), found);
    } catch (e) {
      if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
      ctx.warn(`refresh: could not read ${url} (${(e as Error).message})`);
    }
  }
  const hits = wanted.filter((n) => found.docIds.has(n));
  if (!hits.length) {
    throw new UpstreamError(`refresh: none of ${wanted.join(', ')} was found in ${read} bundle(s) of ${web.refresh_pages.join(', ')}; the pages or the bundle format changed (web.refresh_pages in the operation data names the pages read)`);
  }
  const out: Record<string, unknown> = {};
  for (const name of wanted as OperationName[]) {
    const { name: _n, ...current } = operation(ctx, name);
    const docId = found.docIds.get(name);
    if (!docId) {
      ctx.warn(`refresh: ${name} was not found in the bundles read; its doc_id ${current.doc_id} is kept`);
      out[name] = current;
      continue;
    }
    out[name] = { ...current, doc_id: docId, providers: providersFor(current, found.providers.get(name), name, ctx) };
  }
  return out;
}
