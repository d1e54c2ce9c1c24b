import { Blocked, CrawlError, InvalidInput, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { signed, SignatureRefused } from '../../crawl/signing.js';
import type { CrawlContext, PageSigning } from '../types.js';
import { deviceOf, dropGuest, hasLogin } from './guest.js';
import { b3TraceId, md5Of, signString, signXs, signXsCommon, xrayTraceId, xsEnvelope } from './sign.js';
import { initialState, type Json } from './state.js';

export type { Json };
export const EDITH = 'https://edith.xiaohongshu.com';
export const WWW = 'https://www.xiaohongshu.com';

/** The web API's paths (cn-platforms.md §3, MediaCrawler xhs/client.py, Spider_XHS apis/xhs_pc_apis.py). */
export const ENDPOINTS = {
  searchNotes: '/api/sns/web/v1/search/notes',
  searchUsers: '/api/sns/web/v1/search/usersearch',
  feed: '/api/sns/web/v1/feed',
  comments: '/api/sns/web/v2/comment/page',
  replies: '/api/sns/web/v2/comment/sub/page',
  posts: '/api/sns/web/v1/user_posted',
  homefeed: '/api/sns/web/v1/homefeed',
  selfInfo: '/api/sns/web/v1/user/selfinfo',
} as const;

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place (cn-platforms.md §3, the fixture README, MediaCrawler, ReaJason/xhs issues).

/**
 * The note's xsec_token was missing, stale or not this note's: the platform says "访问链接异常" (300017),
 * "当前笔记暂时无法浏览" (300031) or sends a note page home. A block for the fallback chain; with no token
 * at all the caller is told to pass the note's URL from a search or posts result.
 */
export class XsecRefused extends Blocked {}

type Outcome = (what: string, msg: string, hadToken: boolean) => CrawlError;
const LOGIN_HINT = 'store a xiaohongshu profile with a fresh login (its web_session and a1 cookies)';

/** Business codes of the JSON answers ({code, success, msg}) that are not success. */
export const CODE_OUTCOMES: ReadonlyMap<number, Outcome> = new Map<number, Outcome>([
  [-100, (w, m) => new SessionExpired(`${w}: xiaohongshu says the login expired (${m || '-100 登录已过期'}); ${LOGIN_HINT}`)],
  [-101, (w, m) => new SessionExpired(`${w}: xiaohongshu sees no login (${m || '-101 无登录信息'}); ${LOGIN_HINT}`)],
  [-104, (w, m) => new SessionExpired(`${w}: xiaohongshu refuses this account the call (${m || '-104 no permission'}); ${LOGIN_HINT}`)],
  // "当前账号存在异常，请切换账号后重试": retrying the same account does not help; a human must replace it,
  // which is what session_expired asks for on /v1/profiles (a block would keep the profile in rotation).
  [300011, (w, m) => new SessionExpired(`${w}: xiaohongshu restricted this account (${m || '300011 账号异常'}); log in with another account`)],
  [300012, (w, m) => new Blocked(`${w}: xiaohongshu blocked this IP (${m || '300012 网络连接异常'})`)],
  [300013, (w, m) => new RateLimited(`${w}: xiaohongshu throttled the crawl (${m || '300013 访问频次异常'})`)],
  // "浏览器异常，请尝试关闭/卸载风险插件或重启试试": what the platform answered when its x-s changed (ReaJason/xhs#15, #19).
  [300015, (w, m) => new SignatureRefused(`${w}: xiaohongshu refused the request signature (${m || '300015 浏览器异常'})`)],
  [300017, (w, m, t) => new XsecRefused(`${w}: xiaohongshu refused the ${t ? 'xsec_token' : 'call without an xsec_token'} (${m || '300017 访问链接异常'})`)],
  [300031, (w, m, t) => (t ? new NotFound(`${w}: xiaohongshu says the note cannot be viewed (${m || '300031'})`) : new XsecRefused(`${w}: xiaohongshu shows this note only with its xsec_token (${m || '300031 当前笔记暂时无法浏览'})`))],
  [-510000, (w, m) => new NotFound(`${w}: xiaohongshu says the note is gone (${m || '-510000'})`)],
  [-510001, (w, m) => new NotFound(`${w}: xiaohongshu says the note is unavailable (${m || '-510001 笔记状态异常'})`)],
  // {code:-1, success:false} is what a refused signature answered (ReaJason/xhs#65).
  [-1, (w, m) => new SignatureRefused(`${w}: xiaohongshu answered code -1${m ? ` (${m})` : ''}, the way it refuses a signature`)],
]);

/** Success answers: code 0, or 1000 (user search). */
const OK_CODES = new Set([0, 1000]);

/** HTTP-level checks of an API answer. */
export function checkApiHttp(res: HttpResponse, what: string): void {
  const verifyType = res.headers['verifytype'];
  if (res.status === 461 || res.status === 471 || verifyType) {
    throw new Blocked(`${what}: xiaohongshu answered a captcha (HTTP ${res.status}, Verifytype ${verifyType ?? '?'}, Verifyuuid ${res.headers['verifyuuid'] ?? '?'})`);
  }
  // 406 is what unsigned or badly signed calls get (sigcli PR #56; Cloxl/xhshow#104).
  if (res.status === 406) throw new SignatureRefused(`${what}: xiaohongshu refused the request signature (HTTP 406)`);
  if (res.status === 429) {
    const ra = Number(res.headers['retry-after']);
    throw new RateLimited(`${what}: HTTP 429`, Number.isFinite(ra) ? ra : undefined);
  }
  if (res.status === 401 || res.status === 403) throw new Blocked(`${what}: HTTP ${res.status}, xiaohongshu refused the request`);
  if (res.status === 404) throw new NotFound(`${what}: HTTP 404`);
  if (res.status >= 300) throw new UpstreamError(`${what}: HTTP ${res.status}`);
}

/** An API answer: HTTP checks, then the envelope {code, success, msg, data}; returns data. */
export function readApi(res: HttpResponse, what: string, hadToken = false): Json {
  checkApiHttp(res, what);
  const text = res.text().trim();
  if (!text) throw new SignatureRefused(`${what}: xiaohongshu answered an empty 200 (the signature or the cookies were refused)`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (/captcha|验证|website-login/i.test(text)) throw new Blocked(`${what}: xiaohongshu answered a verification page instead of JSON`);
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${text.length} characters)`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${what}: not a JSON object`);
  const json = body as Json;
  const code = json.code === undefined ? 0 : Number(json.code);
  const msg = typeof json.msg === 'string' ? json.msg : typeof json.message === 'string' ? json.message : '';
  if (json.success === true || (json.success === undefined && OK_CODES.has(code))) {
    const data = json.data;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Json) : {};
  }
  const outcome = CODE_OUTCOMES.get(code);
  if (outcome) throw outcome(what, msg, hadToken);
  throw new UpstreamError(`${what}: xiaohongshu answered code ${String(json.code)}${msg ? ` (${msg})` : ''}`);
}

// ---------------------------------------------------------------------------------------------
// Pages: the note page, the profile page and the explore page, unsigned, read from __INITIAL_STATE__.

/** Where a page redirect leads: a captcha, the error page (with its code), a 404 page, the login, home. */
export function classifyRedirect(location: string, what: string, hadToken: boolean): CrawlError {
  let url: URL;
  try {
    url = new URL(location, WWW);
  } catch {
    return new UpstreamError(`${what}: redirected to an unreadable location`);
  }
  const path = url.pathname;
  const code = Number(url.searchParams.get('error_code') ?? url.searchParams.get('verifyBiz') ?? NaN);
  const msg = url.searchParams.get('error_msg') ?? '';
  if (/\/website-login\/captcha/.test(path) || url.searchParams.has('verifyUuid')) {
    return new Blocked(`${what}: xiaohongshu sent the page to a captcha (verifyType ${url.searchParams.get('verifyType') ?? '?'}, verifyUuid ${url.searchParams.get('verifyUuid') ?? '?'})`);
  }
  if (/\/website-login\/error|\/404/.test(path)) {
    const outcome = Number.isFinite(code) ? CODE_OUTCOMES.get(code) : undefined;
    if (outcome) return outcome(what, msg, hadToken);
    if (/\/404/.test(path)) return hadToken ? new NotFound(`${what}: xiaohongshu answered its 404 page${msg ? ` (${msg})` : ''}`) : new XsecRefused(`${what}: xiaohongshu answered its 404 page to a link without xsec_token`);
    return new Blocked(`${what}: xiaohongshu sent the page to its error page${Number.isFinite(code) ? ` (error_code ${code}${msg ? `, ${msg}` : ''})` : ''}`);
  }
  if (/\/login/.test(path)) return new SessionExpired(`${what}: xiaohongshu sent the page to its login; ${LOGIN_HINT}`);
  if (path === '/' || path === '/explore') {
    return hadToken ? new Blocked(`${what}: xiaohongshu sent the page home`) : new XsecRefused(`${what}: xiaohongshu sent a link without xsec_token home`);
  }
  return new UpstreamError(`${what}: unexpected redirect to ${url.host}${path}`);
}

const VERIFY_HTML = /website-login\/captcha|verifyUuid|请完成验证|安全验证|Security Verification/i;

/** An unsigned GET of a site page; its __INITIAL_STATE__ with snake_case keys. */
export async function pageState(ctx: CrawlContext, url: string, what: string, hadToken: boolean): Promise<Json> {
  const device = deviceOf(ctx);
  const res = await ctx.http.request({
    url,
    followRedirects: false,
    headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'zh-CN,zh;q=0.9', referer: `${WWW}/`, ...(device.cookie ? { cookie: device.cookie } : {}) },
  });
  const location = res.headers['location'];
  if (res.status >= 300 && res.status < 400 && location) throw classifyRedirect(location, what, hadToken);
  if (res.status === 461 || res.status === 471) throw new Blocked(`${what}: xiaohongshu answered a captcha (HTTP ${res.status})`);
  if (res.status === 429) throw new RateLimited(`${what}: HTTP 429`);
  if (res.status === 401 || res.status === 403) throw new Blocked(`${what}: HTTP ${res.status}, xiaohongshu refused the page`);
  if (res.status === 404) throw hadToken ? new NotFound(`${what}: HTTP 404`) : new XsecRefused(`${what}: HTTP 404 to a link without xsec_token`);
  if (res.status >= 300) throw new UpstreamError(`${what}: HTTP ${res.status}`);
  const html = res.text();
  const state = initialState(html);
  if (state) return state;
  if (VERIFY_HTML.test(html)) throw new Blocked(`${what}: xiaohongshu answered a verification page`);
  throw new ParseError(`${what}: the page carries no readable window.__INITIAL_STATE__`);
}

// ---------------------------------------------------------------------------------------------
// The signed API.

export interface ApiCall {
  /** Endpoint name for CRAWLER_SIGN_MODE (xiaohongshu.<endpoint>) and messages. */
  endpoint: string;
  path: string;
  /** GET: query params in order; POST: the JSON body. */
  query?: Array<[string, string | number]>;
  body?: unknown;
  what: string;
  /** Whether the call carries the note's xsec_token (decides how 300017/300031 read). */
  hadToken?: boolean;
}

/**
 * The query exactly as signed and sent: each value percent-encoded except ',' (the published signer leaves
 * commas and only escapes '=', which this agrees with for the ids, cursors and tokens these calls carry).
 */
export function encodeQuery(pairs: Array<[string, string | number]>): string {
  return pairs.map(([k, v]) => `${k}=${encodeURIComponent(String(v)).replace(/%2C/gi, ',')}`).join('&');
}

/*
 * The page's own signer. The web bundle defines window._webmsxyw(url, data) → {"X-s", "X-t"} (MediaCrawler's
 * playwright route, media_platform/xhs/client.py `_pre_headers`); newer bundles expose window.mnsv2(signString,
 * md5) → the x3 value only (MediaCrawler media_platform/xhs/playwright_sign.py). The expression tries both and
 * hands back the page's own a1 cookie and localStorage b1, so the request goes out with the device the
 * signature embeds.
 */
const PAGE_SIGN_EXPRESSION = `(async () => {
  const [url, data, signText, md5] = args;
  const a1 = (document.cookie.match(/(?:^|;\\s*)a1=([^;]+)/) || [])[1] || '';
  const b1 = (window.localStorage && window.localStorage.getItem('b1')) || '';
  if (typeof window._webmsxyw === 'function') {
    const r = await window._webmsxyw(url, data === null ? undefined : data);
    return { xs: r && (r['X-s'] || r['x-s']), xt: r && String(r['X-t'] || r['x-t'] || ''), a1, b1 };
  }
  if (typeof window.mnsv2 === 'function') return { x3: await window.mnsv2(signText, md5), a1, b1 };
  throw new Error('no xiaohongshu signer (window._webmsxyw or window.mnsv2) on the page');
})()`;

interface PageSigned {
  xs?: string;
  xt?: string;
  x3?: string;
  a1?: string;
  b1?: string;
}

interface Prepared {
  url: string;
  body?: string;
  signText: string;
}

function prepare(call: ApiCall): Prepared {
  const query = call.query ? encodeQuery(call.query) : undefined;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return { url: `${EDITH}${call.path}${query ? `?${query}` : ''}`, body, signText: signString(call.path, query, body) };
}

async function send(ctx: CrawlContext, call: ApiCall, p: Prepared, headers: { xs: string; xt: string; common: string }, cookie: string | undefined): Promise<Json> {
  const res = await ctx.http.request({
    method: p.body === undefined ? 'GET' : 'POST',
    url: p.url,
    body: p.body,
    headers: {
      accept: 'application/json, text/plain, */*',
      'accept-language': 'zh-CN,zh;q=0.9',
      origin: WWW,
      referer: `${WWW}/`,
      ...(p.body === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' }),
      'x-s': headers.xs,
      'x-t': headers.xt,
      'x-s-common': headers.common,
      'x-b3-traceid': b3TraceId(),
      'x-xray-traceid': xrayTraceId(Number(headers.xt) || Date.now()),
      ...(cookie ? { cookie } : {}),
    },
  });
  return readApi(res, call.what, call.hadToken ?? false);
}

function needLogin(ctx: CrawlContext, what: string): void {
  if (hasLogin(ctx)) return;
  throw new SessionExpired(`${what}: xiaohongshu's web API answers only a logged-in session and this crawl has none; ${LOGIN_HINT}`);
}

/** One signed call of the web API (login required), the minted device re-minted once when refused. */
export async function api(ctx: CrawlContext, call: ApiCall): Promise<Json> {
  needLogin(ctx, call.what);
  const p = prepare(call);
  const attempt = (): Promise<Json> =>
    signed(ctx, call.endpoint, {
      native: () => {
        const device = deviceOf(ctx);
        const now = Date.now();
        const xs = signXs(p.signText, device.a1, now);
        return send(ctx, call, p, { xs, xt: String(now), common: signXsCommon(device.a1, device.b1) }, device.cookie);
      },
      browser: async (page: PageSigning) => {
        const path = p.url.slice(EDITH.length);
        const got = await page.sign<PageSigned>({ pageUrl: `${WWW}/explore`, expression: PAGE_SIGN_EXPRESSION, args: [path, call.body ?? null, p.signText, md5Of(p.signText)] });
        const device = deviceOf(ctx);
        const a1 = got?.a1 || device.a1;
        const b1 = got?.b1 || device.b1;
        const xt = got?.xt || String(Date.now());
        const xs = got?.xs || (got?.x3 ? xsEnvelope(got.x3) : undefined);
        if (!xs) throw new UpstreamError(`${call.what}: the page's signer returned no x-s`);
        // The signature embeds the page's a1: without a stored one, the request carries the page's.
        const cookie = device.minted && got?.a1 ? withA1(device.cookie, got.a1) : device.cookie;
        return send(ctx, call, p, { xs, xt, common: signXsCommon(a1, b1) }, cookie);
      },
    });
  const device = deviceOf(ctx);
  if (device.minted) {
    ctx.warn('the stored xiaohongshu login has no a1 cookie; a minted one goes out with it, which xiaohongshu may not accept (store the profile with all its cookies)');
  }
  try {
    return await attempt();
  } catch (e) {
    // A minted device that the platform refuses is minted again, once.
    if (!(e instanceof SignatureRefused) || !device.minted || !dropGuest(ctx)) throw e;
    ctx.warn('xiaohongshu refused the minted device (a1); it was minted again');
    return attempt();
  }
}

function withA1(cookie: string | undefined, a1: string): string {
  const rest = (cookie ?? '').split(';').map((p) => p.trim()).filter((p) => p && !p.startsWith('a1='));
  return [`a1=${a1}`, ...rest].join('; ');
}

/** A failure after which an equivalent route may still answer. */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout' || e.code === 'session_expired'));

/** After every route failed on a link without xsec_token: tell the caller what would work. */
export function explainMissingToken(e: unknown, hadToken: boolean, what: string): unknown {
  if (!(e instanceof XsecRefused) || hadToken) return e;
  return new InvalidInput(`${what}: xiaohongshu shows this note only with its xsec_token; pass the note's URL as a search, posts or recommended result gives it (…/explore/<id>?xsec_token=…), or its xhslink.com share link (${e.message})`);
}
