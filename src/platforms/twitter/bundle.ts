import { UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { OPERATIONS, type OperationData } from './ops.js';
import { obj, str, type Json } from './parse.js';

/*
 * Re-deriving the operation data from x.com's own web bundle, as twscrape's scripts/update-gql-ops.py
 * does (global-platforms.md §1): load the page, collect its script URLs (the webpack build's
 * responsive-web/client-web/main.<hash>.js and chunk maps, the newer x-web/… chunks), and read every
 * operation the bundle registers:
 *   {queryId:"…",operationName:"…",operationType:"query",metadata:{featureSwitches:[…],fieldToggles:[…]}}
 * (or, in the relay-style build, params:{id:"…",…,name:"…",operationKind:"query"}). The feature switches
 * an operation lists get their values from the page's window.__INITIAL_STATE__ featureSwitch config.
 */

export const PAGE_URL = 'https://x.com/';
/** Scripts read at most (the page links a few dozen; the operations sit in main and the api chunks). */
const MAX_SCRIPTS = 40;

export interface BundleOperation {
  queryId: string;
  featureSwitches?: string[];
  fieldToggles?: string[];
}

/** Script URLs of the page, the ones most likely to hold operations first. */
export function bundleUrls(html: string): string[] {
  const direct = html.match(/https:\/\/abs\.twimg\.com\/(?:responsive-web\/client-web(?:-legacy)?|x-web)\/[\w./-]+?\.js/g) ?? [];
  const urls = [...direct];
  // The webpack page names its lazy chunks in two maps: {id:"name"} and {id:"<7 hex>"}; URL = name.hash + "a.js".
  const hashes = new Map<string, string>();
  const names = new Map<string, string>();
  for (const m of html.matchAll(/[{,](\d+):"([^"]+)"/g)) {
    if (/^[0-9a-f]{7}$/.test(m[2]!)) hashes.set(m[1]!, m[2]!);
    else if (/^[\w.-]+$/.test(m[2]!)) names.set(m[1]!, m[2]!);
  }
  for (const [id, hash] of hashes) {
    const name = names.get(id);
    if (name && /^(?:api|endpoints|bundle\.)/i.test(name)) urls.push(`https://abs.twimg.com/responsive-web/client-web/${name}.${hash}a.js`);
  }
  const rank = (u: string): number => (/\/main\.[\w-]+\.js$/.test(u) ? 0 : /\/(?:api|endpoints)[.-]/.test(u) ? 1 : /\/bundle\./.test(u) ? 3 : 2);
  return [...new Set(urls)].filter((u) => !/\/(?:i18n|icons)\//.test(u)).sort((a, b) => rank(a) - rank(b));
}

const names = (list: string | undefined): string[] => [...(list ?? '').matchAll(/["'`]([\w.-]+)["'`]/g)].map((m) => m[1]!);

/** Every operation a script registers, by name. */
export function operationsIn(js: string): Map<string, BundleOperation> {
  const out = new Map<string, BundleOperation>();
  const starts = [...js.matchAll(/queryId:\s*["'`]([\w-]{6,64})["'`]/g)];
  starts.forEach((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index! : Math.min(js.length, m.index! + 4000);
    const seg = js.slice(m.index!, Math.min(end, m.index! + 4000));
    const name = /operationName:\s*["'`](\w+)["'`]/.exec(seg)?.[1];
    if (!name) return;
    const features = /featureSwitches:\s*\[([^\]]*)\]/.exec(seg)?.[1];
    const toggles = /fieldToggles:\s*\[([^\]]*)\]/.exec(seg)?.[1];
    out.set(name, { queryId: m[1]!, ...(features !== undefined ? { featureSwitches: names(features) } : {}), ...(toggles !== undefined ? { fieldToggles: names(toggles) } : {}) });
  });
  for (const m of js.matchAll(/params:\s*\{\s*id:\s*["'`]([\w-]{6,64})["'`][^{}]*?(?:metadata:\s*\{[^{}]*\}[^{}]*?)?name:\s*["'`](\w+)["'`][^{}]*?operationKind:/g)) {
    if (!out.has(m[2]!)) out.set(m[2]!, { queryId: m[1]! });
  }
  return out;
}

/** The bearer tokens the bundle declares (the web client's, and any other client's it carries). */
export function bearersIn(js: string): string[] {
  return [...js.matchAll(/["'`](AAAAAAAAAAAAAAAAAAAAA[\w%=-]{40,200})["'`]/g)].map((m) => m[1]!);
}

/** The JSON object that starts at `from` (braces matched outside strings). */
function objectAt(text: string, from: number): Json | undefined {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        return obj(JSON.parse(text.slice(from, i + 1)));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The page's feature switch values: defaultConfig, then config, then the user's config, booleans only. */
export function pageFeatureValues(html: string): Record<string, boolean> {
  const at = html.indexOf('window.__INITIAL_STATE__');
  if (at < 0) return {};
  const start = html.indexOf('{', at);
  const state = start < 0 ? undefined : objectAt(html, start);
  const fs = obj(state?.featureSwitch);
  const out: Record<string, boolean> = {};
  for (const config of [obj(fs?.defaultConfig), obj(fs?.config), obj(obj(fs?.user)?.config)]) {
    for (const [k, v] of Object.entries(config ?? {})) {
      const value = obj(v)?.value;
      if (typeof value === 'boolean') out[k] = value;
    }
  }
  return out;
}

/** The refreshed operation data: what the bundle says, the current data where it says nothing. */
export function refreshedOps(current: Record<string, unknown>, found: Map<string, BundleOperation>, values: Record<string, boolean>, bearers: string[], warn: (m: string) => void): Record<string, unknown> {
  // The current token stays while the bundle still carries it; a bundle without it names the new one.
  const out: Record<string, unknown> = { bearer: typeof current.bearer === 'string' && bearers.includes(current.bearer) ? current.bearer : (bearers[0] ?? current.bearer) };
  for (const name of Object.keys(OPERATIONS)) {
    const was = (obj(current[name]) ?? {}) as Partial<OperationData>;
    const got = found.get(name);
    if (!got) {
      warn(`x.com's bundle did not name ${name}; its current data (queryId ${str(was.queryId) ?? 'none'}) is kept`);
      out[name] = was;
      continue;
    }
    const flag = (set: Record<string, boolean> | undefined) => (n: string): [string, boolean] => [n, values[n] ?? set?.[n] ?? false];
    out[name] = {
      ...was,
      queryId: got.queryId,
      ...(got.featureSwitches ? { features: Object.fromEntries(got.featureSwitches.map(flag(was.features))) } : {}),
      ...(got.fieldToggles ? { fieldToggles: Object.fromEntries(got.fieldToggles.map((n) => [n, was.fieldToggles?.[n] ?? false])) } : {}),
    };
  }
  return out;
}

async function fetchText(ctx: CrawlContext, url: string): Promise<string | undefined> {
  const res = await ctx.http.request({ url, headers: { accept: url.endsWith('.js') ? '*/*' : 'text/html' } });
  if (res.status >= 400) {
    ctx.warn(`${url} answered HTTP ${res.status}`);
    return undefined;
  }
  return res.text();
}

/** `npx crawler platforms refresh twitter`. */
export async function refreshOps(ctx: CrawlContext): Promise<Record<string, unknown>> {
  const html = await fetchText(ctx, PAGE_URL);
  if (!html) throw new UpstreamError(`${PAGE_URL} did not answer; nothing was refreshed`);
  const scripts = bundleUrls(html).slice(0, MAX_SCRIPTS);
  if (!scripts.length) throw new UpstreamError(`${PAGE_URL} names no web bundle (abs.twimg.com … .js); the page layout changed`);
  const found = new Map<string, BundleOperation>();
  const bearers: string[] = [];
  for (const url of scripts) {
    const js = await fetchText(ctx, url);
    if (!js) continue;
    for (const [name, op] of operationsIn(js)) if (!found.has(name)) found.set(name, op);
    bearers.push(...bearersIn(js));
  }
  if (!found.size) throw new UpstreamError(`none of ${scripts.length} x.com bundle scripts registers a queryId/operationName pair; the bundle format changed`);
  return refreshedOps(ctx.ops, found, pageFeatureValues(html), bearers, (m) => ctx.warn(m));
}
