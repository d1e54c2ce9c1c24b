import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import { signed, SignatureRefused } from '../../crawl/signing.js';
import type { CrawlContext, PageSigning } from '../types.js';
import { device, dropGuest } from './guest.js';
import { WWW } from './refs.js';
import { ZSE_93, zse96 } from './zse.js';

export type Json = Record<string, unknown>;

export const ENDPOINTS = {
  search: `${WWW}/api/v4/search_v3`,
  /** The app's search (api.zhihu.com): same answer shape, app headers, no web signature. */
  searchApp: 'https://api.zhihu.com/search_v3',
  member: (token: string) => `${WWW}/api/v4/members/${encodeURIComponent(token)}`,
  memberList: (token: string, tab: string) => `${WWW}/api/v4/members/${encodeURIComponent(token)}/${tab}`,
  columnItems: (id: string) => `${WWW}/api/v4/columns/${encodeURIComponent(id)}/items`,
  answer: (id: string) => `${WWW}/api/v4/answers/${id}`,
  article: (id: string) => `${WWW}/api/v4/articles/${id}`,
  question: (id: string) => `${WWW}/api/v4/questions/${id}`,
  zvideo: (id: string) => `${WWW}/api/v4/zvideos/${id}`,
  rootComments: (kind: string, id: string) => `${WWW}/api/v4/comment_v5/${kind}s/${id}/root_comment`,
  childComments: (root: string) => `${WWW}/api/v4/comment_v5/comment/${root}/child_comment`,
  /** Unsigned; since 2025-05 it wants a login or the app's headers (baranwang/mcp-trends-hub#14). */
  hotList: (tab: string) => `${WWW}/api/v3/feed/topstory/hot-lists/${tab}`,
  /** The hot-search words, unsigned and anonymous (justjavac/zhihu-trending-top-search since 2025-05). */
  hotWords: `${WWW}/api/v4/search/recommend_query/v2`,
  topSearchPage: `${WWW}/topsearch`,
  me: `${WWW}/api/v4/me`,
} as const;

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place (cn-platforms.md §6, the fixture README, and the issue threads cited).

type Outcome = (what: string, message: string) => CrawlError;

/** error.code values zhihu answers with. */
export const ERROR_OUTCOMES: ReadonlyMap<number, Outcome> = new Map<number, Outcome>([
  // 请求参数异常，请升级客户端后重试: a missing or refused x-zse-96 (RSSHub#19367, fxzhihu#51; older 10001/10002).
  [10001, (w, m) => new SignatureRefused(`${w}: zhihu refused the request signature (10001 ${m})`)],
  [10002, (w, m) => new SignatureRefused(`${w}: zhihu refused the request signature (10002 ${m})`)],
  [10003, (w, m) => new SignatureRefused(`${w}: zhihu refused the request signature (10003 ${m})`)],
  // 系统监测到您的网络环境存在异常: a captcha (redirect /account/unhuman). It says need_login, but a login
  // does not lift it: a block, never a re-login (fxzhihu#13, #43; zhihuCrawler#1).
  [40352, (w, m) => new Blocked(`${w}: zhihu asks for a captcha (40352 ${m})`)],
  // 您当前请求存在异常，暂时限制本次访问: risk control on the request (fxzhihu#44, MediaCrawler#435).
  [40362, (w, m) => new Blocked(`${w}: zhihu's risk control restricted the request (40362 ${m})`)],
  // ZERR_NO_AUTH_TOKEN / AuthenticationInvalidRequest with HTTP 401: this wants a login.
  [100, (w, m) => new SessionExpired(`${w}: zhihu wants a login for this (100 ${m}); store a zhihu profile with a fresh z_c0`)],
  // 资源不存在 / NotFoundError.
  [4041, (w, m) => new NotFound(`${w}: zhihu says it does not exist (4041 ${m})`)],
]);

const UNHUMAN = /\/account\/unhuman|系统监测到您的网络环境存在异常/;

/** What came back, from the network or from the page's own fetch. */
export interface Answer {
  status: number;
  url: string;
  headers: Record<string, string>;
  text: string;
}

function errorOutcome(err: Json, status: number, what: string): CrawlError {
  const code = Number(err.code);
  const message = typeof err.message === 'string' ? err.message : '';
  const known = ERROR_OUTCOMES.get(code);
  if (known) return known(what, message);
  if (UNHUMAN.test(String(err.redirect ?? '')) || UNHUMAN.test(message)) return new Blocked(`${what}: zhihu asks for a captcha (${code || status} ${message})`);
  if (err.need_login === true || status === 401) return new SessionExpired(`${what}: zhihu wants a login for this (${code || status} ${message})`);
  if (status === 404 || err.name === 'NotFoundError') return new NotFound(`${what}: zhihu says it does not exist (${message || status})`);
  if (status === 403) return new Blocked(`${what}: zhihu refused the request (${code || 403} ${message})`);
  if (status === 429) return new RateLimited(`${what}: zhihu throttled the crawl (${code || 429} ${message})`);
  return new UpstreamError(`${what}: zhihu answered error ${code || status}${message ? ` (${message})` : ''}`);
}

/** HTTP-level signals shared by the API and the pages: a captcha page, a login redirect, the statuses. */
function checkHttp(ans: Answer, what: string): void {
  const location = ans.headers['location'] ?? '';
  if (UNHUMAN.test(ans.url) || UNHUMAN.test(location)) throw new Blocked(`${what}: zhihu sent the captcha page (/account/unhuman)`);
  if (ans.status >= 300 && ans.status < 400 && /\/signin|\/signup|\/login/.test(location)) throw new SessionExpired(`${what}: zhihu redirected to its sign-in page`);
  if (/^\/signin\b/.test(new URL(ans.url).pathname)) throw new SessionExpired(`${what}: zhihu sent its sign-in page`);
}

function statusOutcome(ans: Answer, what: string): CrawlError | undefined {
  if (ans.status === 401) return new SessionExpired(`${what}: HTTP 401, zhihu wants a login for this; store a zhihu profile with a fresh z_c0`);
  if (ans.status === 403) return UNHUMAN.test(ans.text) ? new Blocked(`${what}: zhihu sent the captcha page`) : new Blocked(`${what}: HTTP 403, zhihu refused the request`);
  if (ans.status === 404) return new NotFound(`${what}: HTTP 404`);
  if (ans.status === 429) return new RateLimited(`${what}: HTTP 429`, Number(ans.headers['retry-after']) || undefined);
  if (ans.status >= 400) return new UpstreamError(`${what}: HTTP ${ans.status}`);
  return undefined;
}

/**
 * The JSON of an API answer, or null for a 404 where the caller says 404 means "none" (comments on a
 * content without any, MediaCrawler zhihu/client.py). error objects and statuses go through the tables above.
 */
export function readJson(ans: Answer, what: string, opts: { emptyOn404?: boolean } = {}): Json | null {
  checkHttp(ans, what);
  if (opts.emptyOn404 && ans.status === 404) return null;
  const text = ans.text.trim();
  let body: unknown;
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ParseError(`${what}: broken JSON (${text.length} characters)`);
    }
  }
  const err = body && typeof body === 'object' && !Array.isArray(body) ? (body as Json).error : undefined;
  if (err && typeof err === 'object') throw errorOutcome(err as Json, ans.status, what);
  const bad = statusOutcome(ans, what);
  if (bad) throw bad;
  if (body === undefined) {
    if (UNHUMAN.test(text)) throw new Blocked(`${what}: zhihu answered its captcha page instead of JSON`);
    throw new ParseError(`${what}: expected JSON, got ${ans.headers['content-type'] ?? 'no content type'} (${text.length} characters)`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${what}: not a JSON object`);
  return body as Json;
}

/** A page's HTML, after the same checks (a captcha page is a block; 404 is not_found). */
export function readPage(ans: Answer, what: string): string {
  checkHttp(ans, what);
  const bad = statusOutcome(ans, what);
  if (bad) throw bad;
  if (UNHUMAN.test(ans.text) && !/js-initialData/.test(ans.text)) throw new Blocked(`${what}: zhihu answered its captcha page`);
  return ans.text;
}

// ---------------------------------------------------------------------------------------------
// Requests.

/** The query exactly as sent and signed: our own ordered encoding, built once. */
export function encodeQuery(pairs: ReadonlyArray<readonly [string, string | number]>): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
}

async function fetchAnswer(ctx: CrawlContext, url: string, headers: Record<string, string>): Promise<Answer> {
  const res = await ctx.http.request({ url, headers });
  return { status: res.status, url: res.url, headers: res.headers, text: res.text() };
}

async function guestCookieHeader(ctx: CrawlContext): Promise<Record<string, string>> {
  const dev = await device(ctx);
  return dev.cookie ? { cookie: dev.cookie } : {};
}

export interface ApiGet {
  /** Endpoint name for CRAWLER_SIGN_MODE (zhihu.<endpoint>) and messages. */
  endpoint: string;
  url: string;
  params: ReadonlyArray<readonly [string, string | number]>;
  what: string;
  referer?: string;
  emptyOn404?: boolean;
}

/*
 * The browser route. Zhihu's bundle keeps its signer module-local (the page's request code, as quoted in
 * Halle-Astra/daily_data js/zhihu_comments.js, builds
 * [zse93, path, d_c0, body, x-zst-81].join('+'), md5s it and calls an `encrypt` reached only through webpack
 * internals: no window function to call, so nothing stable to evaluate). Instead the profile's own page
 * sends the request with its own fetch: its cookies (z_c0, d_c0 and the __zse_ck its scripts keep fresh),
 * its TLS and its address, signed over its own d_c0 (readable from document.cookie, as the page's signer
 * reads it). That gets past refusals of our guest state or client; an algorithm change shows as the same
 * refusal on both routes.
 */
export const PAGE_URL = `${WWW}/`;
export const READ_DC0 = `(() => { const m = /(?:^|;\\s*)d_c0=([^;]*)/.exec(document.cookie); return m ? m[1] : null; })()`;
export const PAGE_FETCH = `(async () => { const [url, headers] = args; const r = await fetch(url, { credentials: 'include', headers }); return { status: r.status, url: r.url, text: await r.text() }; })()`;

const pathOf = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};

async function viaPage(ctx: CrawlContext, page: PageSigning, url: string, req: ApiGet): Promise<Json | null> {
  const dc0 = await page.sign<string | null>({ pageUrl: PAGE_URL, expression: READ_DC0 });
  const headers: Record<string, string> = { accept: '*/*', 'x-requested-with': 'fetch', 'x-zse-93': ZSE_93 };
  if (typeof dc0 === 'string' && dc0) headers['x-zse-96'] = zse96(pathOf(url), dc0);
  const got = await page.sign<{ status?: unknown; url?: unknown; text?: unknown }>({ pageUrl: PAGE_URL, expression: PAGE_FETCH, args: [url, headers], timeoutMs: 20_000 });
  if (!got || typeof got.status !== 'number' || typeof got.text !== 'string') throw new UpstreamError(`${req.what}: the page's fetch returned nothing readable`);
  return readJson({ status: got.status, url: typeof got.url === 'string' && got.url ? got.url : url, headers: {}, text: got.text }, req.what, req);
}

/** One signed GET of the web API (x-zse-93/96 over the exact path and query sent), the guest d_c0 re-minted once on refusal. */
export async function apiGet(ctx: CrawlContext, req: ApiGet): Promise<Json | null> {
  const query = encodeQuery(req.params);
  const url = query ? `${req.url}?${query}` : req.url;
  const attempt = (): Promise<Json | null> =>
    signed(ctx, req.endpoint, {
      native: async () => {
        // Minted here, not before: the page route has its own d_c0 and needs no guest device.
        const dev = await device(ctx);
        const headers: Record<string, string> = {
          accept: '*/*',
          'accept-language': 'zh-CN,zh;q=0.9',
          referer: req.referer ?? `${WWW}/`,
          'x-requested-with': 'fetch',
        };
        // Without a d_c0 nothing can be signed: zhihu refuses (10003) and auto mode turns to the page.
        if (dev.dc0) Object.assign(headers, { 'x-zse-93': ZSE_93, 'x-zse-96': zse96(pathOf(url), dev.dc0) });
        if (dev.cookie) headers['cookie'] = dev.cookie;
        return readJson(await fetchAnswer(ctx, url, headers), req.what, req);
      },
      browser: (page) => viaPage(ctx, page, url, req),
    });
  try {
    return await attempt();
  } catch (e) {
    if (!(e instanceof SignatureRefused) || !dropGuest(ctx)) throw e;
    ctx.warn('zhihu refused the signature over the guest d_c0; a new one was minted');
    return attempt();
  }
}

/** An unsigned JSON GET (hot lists, the hot words, the app's search). */
export async function plainGet(ctx: CrawlContext, url: string, what: string, headers: Record<string, string> = {}): Promise<Json> {
  const ans = await fetchAnswer(ctx, url, { accept: 'application/json, text/plain, */*', referer: `${WWW}/`, ...(await guestCookieHeader(ctx)), ...headers });
  return readJson(ans, what)!;
}

/** A zhihu page (HTML with js-initialData). */
export async function pageGet(ctx: CrawlContext, url: string, what: string): Promise<string> {
  const ans = await fetchAnswer(ctx, url, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': 'zh-CN,zh;q=0.9', ...(await guestCookieHeader(ctx)) });
  return readPage(ans, what);
}

/** A failure after which an equivalent route may still answer. */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout'));
