import { aBogus } from '../../crawl/bytedance/abogus.js';
import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { signed, SignatureRefused } from '../../crawl/signing.js';
import type { CrawlContext, PageSigning } from '../types.js';
import { guestCookies, guestTokens, dropGuest } from './guest.js';

export const WWW = 'https://www.douyin.com';
export const APP = 'https://aweme.snssdk.com';

export const ENDPOINTS = {
  search: `${WWW}/aweme/v1/web/general/search/single/`,
  detail: `${WWW}/aweme/v1/web/aweme/detail/`,
  comments: `${WWW}/aweme/v1/web/comment/list/`,
  replies: `${WWW}/aweme/v1/web/comment/list/reply/`,
  profile: `${WWW}/aweme/v1/web/user/profile/other/`,
  posts: `${WWW}/aweme/v1/web/aweme/post/`,
  feed: `${WWW}/aweme/v1/web/tab/feed/`,
  hotWeb: `${WWW}/aweme/v1/web/hot/search/list/`,
  /** Who-am-I of a logged-in web session. */
  selfInfo: `${WWW}/aweme/v1/web/query/user/`,
  /** Share pages and the retired share API: no signature. */
  sharePage: 'https://www.iesdouyin.com/share/video/',
  sharePostsLegacy: 'https://www.iesdouyin.com/web/api/v2/aweme/post/',
  shareUserLegacy: 'https://www.iesdouyin.com/web/api/v2/user/info/',
  /** The app's boards (anonymous, unsigned, okhttp UA). */
  hotApp: `${APP}/aweme/v1/hot/search/list/`,
  starBoard: `${APP}/aweme/v1/hotsearch/star/billboard/`,
  brandCategories: `${APP}/aweme/v1/hotsearch/brand/category/`,
  brandBoard: `${APP}/aweme/v1/hotsearch/brand/billboard/`,
  musicChart: `${APP}/aweme/v1/chart/music/list/`,
  liveBoard: 'https://webcast.amemv.com/webcast/ranklist/hot/',
} as const;

export const SHORT_LINK_HOSTS = ['v.douyin.com', 'v.iesdouyin.com'];
/** The music chart the app opens on (热歌榜). */
export const MUSIC_CHART_ID = '6853972723954146568';

export type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place (cn-platforms.md §1 and the fixture README).

/** status_code values of the web API that are not "ok". */
const STATUS_OUTCOMES: ReadonlyMap<number, (what: string, msg: string) => CrawlError> = new Map([
  [8, (w: string, m: string) => new SessionExpired(`${w}: douyin says the login expired (${m || 'status_code 8'}); store a douyin profile with fresh cookies`)],
  [2053, (w: string, m: string) => new NotFound(`${w}: douyin says ${m || 'the post is gone (2053)'}`)],
  [2190008, (w: string, m: string) => new SessionExpired(`${w}: douyin wants a login for this (${m || '2190008'})`)],
  [2483, (w: string, m: string) => new RateLimited(`${w}: douyin throttled the crawl (${m || '2483'})`)],
]);

const VERIFY_PAGE = /验证码|captcha|verify\.snssdk|bdturing|安全验证|请完成验证|访问过于频繁/i;

/** HTTP-level checks common to every douyin request. */
export function checkHttp(res: HttpResponse, what: string): void {
  if (res.status === 429) throw new RateLimited(`${what}: HTTP 429`);
  if (res.status === 403) throw new Blocked(`${what}: HTTP 403, douyin refused the request`);
  if (res.status === 404) throw new NotFound(`${what}: HTTP 404`);
  if (res.status >= 500) throw new UpstreamError(`${what}: HTTP ${res.status}`);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status}`);
  // A captcha is announced in a header on otherwise empty or stub answers.
  if (res.headers['x-vc-bdturing-parameters'] || res.headers['bdturing-verify']) throw new Blocked(`${what}: douyin answered with a captcha (bdturing verify)`);
  const location = res.headers['location'] ?? '';
  if (res.status >= 300 && /login|passport|sso/i.test(location)) throw new SessionExpired(`${what}: douyin redirected to its login (${location})`);
}

/**
 * The web API's answer: an empty 200 is douyin refusing the signature or the session (the recorded block);
 * a verify page is a captcha; status_code != 0 is mapped; the search soft block is a captcha too.
 */
export function readWebJson(res: HttpResponse, what: string): Json {
  checkHttp(res, what);
  const text = res.text().trim();
  if (!text || text === 'blocked') throw new SignatureRefused(`${what}: douyin answered an empty 200 (the signature or the guest cookies were refused)`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (VERIFY_PAGE.test(text)) throw new Blocked(`${what}: douyin answered a verification page instead of JSON`);
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${text.length} characters)`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${what}: not a JSON object`);
  const json = body as Json;
  const code = json.status_code === undefined ? 0 : Number(json.status_code);
  const msg = typeof json.status_msg === 'string' ? json.status_msg : '';
  if (code !== 0) {
    const outcome = STATUS_OUTCOMES.get(code);
    if (outcome) throw outcome(what, msg);
    throw new UpstreamError(`${what}: douyin answered status_code ${String(json.status_code)}${msg ? ` (${msg})` : ''}`);
  }
  const nil = json.search_nil_info as Json | undefined;
  if (nil && typeof nil === 'object' && /verify/i.test(String(nil.search_nil_type ?? ''))) {
    throw new Blocked(`${what}: douyin's search asks for verification (search_nil_type ${String(nil.search_nil_type)})`);
  }
  return json;
}

// ---------------------------------------------------------------------------------------------
// The web query: the browser's own parameters, then the endpoint's, built once and signed as sent.

function browserVersion(ua: string): string {
  return /(?:Chrome|Edg)\/([\d.]+)/.exec(ua)?.[1] ?? '124.0.0.0';
}

export function webQuery(ua: string, own: Record<string, string | number | undefined>, msToken?: string): string {
  const version = browserVersion(ua);
  const pairs: Array<[string, string]> = [
    ['device_platform', 'webapp'],
    ['aid', '6383'],
    ['channel', 'channel_pc_web'],
  ];
  for (const [k, v] of Object.entries(own)) if (v !== undefined) pairs.push([k, String(v)]);
  pairs.push(
    ['update_version_code', '170400'],
    ['pc_client_type', '1'],
    ['version_code', '190500'],
    ['version_name', '19.5.0'],
    ['cookie_enabled', 'true'],
    ['screen_width', '1920'],
    ['screen_height', '1080'],
    ['browser_language', 'zh-CN'],
    ['browser_platform', 'Win32'],
    ['browser_name', /Edg\//.test(ua) ? 'Edge' : 'Chrome'],
    ['browser_version', version],
    ['browser_online', 'true'],
    ['engine_name', 'Blink'],
    ['engine_version', version],
    ['os_name', 'Windows'],
    ['os_version', '10'],
    ['cpu_core_num', '8'],
    ['device_memory', '8'],
    ['platform', 'PC'],
    ['downlink', '10'],
    ['effective_type', '4g'],
    ['round_trip_time', '50'],
  );
  if (msToken) pairs.push(['msToken', msToken]);
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export interface WebGet {
  /** Endpoint name for CRAWLER_SIGN_MODE (douyin.<endpoint>) and messages. */
  endpoint: string;
  url: string;
  params: Record<string, string | number | undefined>;
  what: string;
  referer?: string;
}

/*
 * The page's own signer: douyin's web bundle keeps a_bogus in its bdms module; MediaCrawler's older
 * browser route called `window.bdms.init._v[2].p[42].apply(null, [0, 1, 8, query, '', ua])` in a
 * logged-in page (MC media_platform/douyin/help.py). The expression is configuration in spirit: when
 * the bundle moves, CRAWLER_SIGN_MODE=douyin=native keeps the port alone in charge.
 */
const PAGE_SIGN_EXPRESSION = `(() => { const [query, ua] = args; const f = window.bdms && window.bdms.init && window.bdms.init._v && window.bdms.init._v[2] && window.bdms.init._v[2].p && window.bdms.init._v[2].p[42]; if (typeof f !== 'function') throw new Error('bdms signer not found on the page'); return f.apply(null, [0, 1, 8, query, '', ua]); })()`;

async function send(ctx: CrawlContext, req: WebGet, query: string, signature: string): Promise<Json> {
  const cookie = await guestCookies(ctx);
  const res = await ctx.http.request({
    url: `${req.url}?${query}&a_bogus=${encodeURIComponent(signature)}`,
    headers: {
      accept: 'application/json, text/plain, */*',
      'accept-language': 'zh-CN,zh;q=0.9',
      referer: req.referer ?? `${WWW}/`,
      ...(cookie ? { cookie } : {}),
    },
  });
  return readWebJson(res, req.what);
}

/** One signed GET of the web API, with the guest state minted on first use and re-minted once on refusal. */
export async function webGet(ctx: CrawlContext, req: WebGet): Promise<Json> {
  const attempt = async (): Promise<Json> => {
    const tokens = await guestTokens(ctx);
    const ua = ctx.guest.userAgent;
    const query = webQuery(ua, req.params, tokens.msToken);
    return signed(ctx, req.endpoint, {
      native: () => send(ctx, req, query, aBogus({ query, userAgent: ua, fingerprint: tokens.fingerprint })),
      browser: async (page: PageSigning) => {
        const sig = await page.sign<string>({ pageUrl: `${WWW}/`, expression: PAGE_SIGN_EXPRESSION, args: [query, ua] });
        if (typeof sig !== 'string' || !sig) throw new UpstreamError(`${req.what}: the page's signer returned no a_bogus`);
        return send(ctx, req, query, sig);
      },
    });
  };
  try {
    return await attempt();
  } catch (e) {
    // Guest cookies rot: a refusal with minted state re-mints it once before giving up.
    if (!(e instanceof SignatureRefused) || ctx.session.cookies || !dropGuest(ctx)) throw e;
    ctx.warn('douyin refused the guest cookies; they were minted again');
    return attempt();
  }
}

/** The app's anonymous boards: okhttp UA, android params, no signature. */
export async function appGet(ctx: CrawlContext, url: string, params: Record<string, string>, what: string): Promise<Json> {
  const q = new URLSearchParams({ device_platform: 'android', version_name: '13.2.0', version_code: '130200', aid: '1128', ...params });
  const res = await ctx.http.request({ url: `${url}?${q.toString()}`, headers: { 'user-agent': 'okhttp3' } });
  return readWebJson(res, what);
}

/** GET of an unsigned page or share API on iesdouyin.com. */
export async function shareGet(ctx: CrawlContext, url: string, what: string): Promise<HttpResponse> {
  const res = await ctx.http.request({ url, headers: { referer: 'https://www.iesdouyin.com/' } });
  checkHttp(res, what);
  return res;
}

/** A failure after which an equivalent route may still answer. */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout'));
