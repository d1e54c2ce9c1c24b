import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { SignatureRefused } from '../../crawl/signing.js';
import type { CrawlContext } from '../types.js';
import { parseJson } from './json.js';
import { forgetTtwid, guestCookie } from './ttwid.js';

export const WWW = 'https://www.toutiao.com';
export const M_SITE = 'https://m.toutiao.com';

/** Every endpoint this adapter calls, with the public source its shape was established from. */
export const ENDPOINTS = {
  /** Web hot board, unsigned: data[] {ClusterIdStr, Title, HotValue, Url, Image, LabelUri} (imsyy/DailyHotApi src/routes/toutiao.ts, ourongxing/newsnow server/sources/toutiao.ts). */
  hotWeb: `${WWW}/hot-event/hot-board/`,
  /** App hot board, unsigned: data[].content is a JSON string (lonnyzhang423/toutiao-hot-hub toutiao.py; fixtures/toutiao). */
  hotApp: 'https://i-lq.snssdk.com/api/feed/hotboard_online/v1/',
  /** Guest ttwid (yt-dlp yt_dlp/extractor/toutiao.py _real_initialize). */
  ttwidRegister: 'https://ttwid.bytedance.com/ttwid/union/register/',
  /** A creator's posts, _signature-signed on the web (search index 71249200963, 59167119737, 66250831631). */
  userFeed: `${WWW}/api/pc/list/user/feed`,
  /** Follower/following/like counts, POST token=…, _signature-signed (search index 1379566495, 71249200963). */
  fansStat: `${WWW}/api/pc/user/fans_stat`,
  /** Top-level comments, unsigned (NanmiCoder/MediaCrawler jrtt client; search index 58672554702, 61100496583). */
  comments: `${WWW}/article/v4/tab_comments/`,
  /** Search result page: cards as <script data-druid-card-data-id> JSON (search index 71297596170, 41607675475). */
  search: 'https://so.toutiao.com/search',
} as const;

/** The phone site's pages; their RENDER_DATA root carries articleInfo (search index 71297596170). */
export const mobilePageUrl = {
  micro: (id: string) => `${M_SITE}/w/${id}/`,
  article: (id: string) => `${M_SITE}/article/${id}/`,
};

/** The phone pages answer their server-rendered data only to a phone browser (a desktop agent is sent to www). */
export const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

// ---------------------------------------------------------------------------------------------
// Outcomes, in one table. Each signal is what toutiao answered; what it means depends on whether the
// request was signed (a refusal the page's own signer may get past) and whether a login was sent.

export type Signal =
  /** Sent to sso.toutiao.com, or a JSON "need login". */
  | 'login_wall'
  /**
   * The JSVMP page (~72 KB) that sets __ac_nonce and runs byted_acrawler.sign("", __ac_nonce) in the browser
   * before reloading (search index 69523762076, 71297596170).
   */
  | 'challenge'
  /** A captcha / verify page (pc_captcha, verify_data). */
  | 'captcha'
  /** HTTP 200 with nothing in it. */
  | 'empty_body'
  | 'http_403'
  | 'http_404'
  | 'http_429'
  | 'http_5xx';

export interface OutcomeContext {
  what: string;
  /** The request carries (or should carry) a _signature. */
  signed: boolean;
  /** The profile sent a login (sessionid cookie). */
  loggedIn: boolean;
  retryAfterS?: number;
}

export const OUTCOMES: Readonly<Record<Signal, (o: OutcomeContext) => CrawlError>> = {
  login_wall: (o) =>
    o.loggedIn
      ? new SessionExpired(`${o.what}: toutiao wants a login again (sent to sso.toutiao.com); re-login the toutiao profile`)
      : new Blocked(`${o.what}: toutiao put a login wall in front of an anonymous client (sso.toutiao.com)`),
  challenge: (o) =>
    o.signed
      ? new SignatureRefused(`${o.what}: toutiao answered its JSVMP challenge page instead of data`)
      : new Blocked(`${o.what}: toutiao answered its JSVMP challenge page (__ac_nonce) even with a fresh ttwid`),
  captcha: (o) => (o.signed ? new SignatureRefused(`${o.what}: toutiao answered a verify page`) : new Blocked(`${o.what}: toutiao answered a captcha / verify page`)),
  empty_body: (o) =>
    o.signed ? new SignatureRefused(`${o.what}: toutiao answered an empty 200 (the signature was not accepted)`) : new Blocked(`${o.what}: toutiao answered an empty 200`),
  http_403: (o) => new Blocked(`${o.what}: HTTP 403 from toutiao`),
  http_404: (o) => new NotFound(`${o.what}: toutiao says it does not exist (HTTP 404)`),
  http_429: (o) => new RateLimited(`${o.what}: HTTP 429 from toutiao`, o.retryAfterS),
  http_5xx: (o) => new UpstreamError(`${o.what}: toutiao answered HTTP 5xx`),
};

const CHALLENGE = /__ac_nonce|byted_acrawler\.sign\(\s*["']{2}\s*,/;
// pc_captcha: the search page's verify box (search index 66250831631); verify_data: the slider page (28492780436).
const CAPTCHA = /id=["']pc_captcha["']|const verify_data\s*=/;
const NEED_LOGIN = /need[ _]login|请先登录|未登录/i;

export const isLoginHost = (url: string): boolean => {
  try {
    return /(^|\.)sso\.toutiao\.com$/i.test(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** What an answer says before its content is read; undefined when it looks like an ordinary answer. */
export function detectSignal(res: HttpResponse): Signal | undefined {
  if (isLoginHost(res.url) || res.redirects.some(isLoginHost) || (res.status >= 300 && res.status < 400 && isLoginHost(res.headers['location'] ?? ''))) {
    return 'login_wall';
  }
  if (res.status === 429) return 'http_429';
  if (res.status >= 500) return 'http_5xx';
  if (res.status === 403) return 'http_403';
  if (res.status === 404) return 'http_404';
  const text = res.text();
  if (res.status === 200 && !text.trim()) return 'empty_body';
  if (/^\s*[{[]/.test(text)) {
    // A JSON refusal: {"message":"need login"} and the like.
    const message = /"(?:message|msg|description)"\s*:\s*"([^"]{0,80})"/.exec(text)?.[1];
    return message && NEED_LOGIN.test(message) ? 'login_wall' : undefined;
  }
  if (/id=["']RENDER_DATA["']|data-druid-card-data-id|s-result-json/.test(text)) return undefined;
  if (CAPTCHA.test(text)) return 'captcha';
  if (CHALLENGE.test(text) || /(^|\n)__ac_nonce=/.test(res.headers['set-cookie'] ?? '')) return 'challenge';
  return undefined;
}

const hasLogin = (ctx: CrawlContext): boolean => /(?:^|;\s*)(?:sessionid|sid_tt)=/.test(ctx.session.cookies ?? '');

export function outcome(signal: Signal, ctx: CrawlContext, what: string, signed: boolean, res?: HttpResponse): CrawlError {
  const ra = Number(res?.headers['retry-after']);
  return OUTCOMES[signal]({ what, signed, loggedIn: hasLogin(ctx), retryAfterS: Number.isFinite(ra) ? ra : undefined });
}

/** Throws the mapped error for a signal; an unmapped status ≥ 400 is an upstream error. */
export function check(res: HttpResponse, ctx: CrawlContext, what: string, signed = false): void {
  const signal = detectSignal(res);
  if (signal) throw outcome(signal, ctx, what, signed, res);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status} from ${new URL(res.url).host}`);
}

/** The body as JSON (big ids kept exact); a page that is not JSON is a ParseError. */
export function readJson(res: HttpResponse, what: string): unknown {
  try {
    return parseJson(res.text());
  } catch {
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
}

// ---------------------------------------------------------------------------------------------

/** referer null: none (the app endpoints are not called from a page). */
export function baseHeaders(referer: string | null = `${WWW}/`, accept = 'application/json, text/plain, */*'): Record<string, string> {
  const h: Record<string, string> = { Accept: accept, 'Accept-Language': 'zh-CN,zh;q=0.9' };
  if (referer) h.Referer = referer;
  return h;
}

export const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export interface PageRequest {
  what: string;
  url: string;
  referer?: string | null;
  accept?: string;
  method?: 'GET' | 'POST';
  form?: Record<string, string>;
  /** Send the guest ttwid (minted on first use). */
  guest?: boolean;
  /** A _signature'd request: refusals are SignatureRefused. */
  signed?: boolean;
  /** Request headers that replace the defaults (the phone User-Agent). */
  headers?: Record<string, string>;
}

/**
 * One request with the guest ttwid and outcome mapping. The challenge page means toutiao did not accept
 * this ttwid: a fresh one is minted and the request sent once more before it counts as a block.
 */
export async function fetchChecked(ctx: CrawlContext, r: PageRequest): Promise<HttpResponse> {
  const send = async (): Promise<HttpResponse> => {
    const headers: Record<string, string> = { ...baseHeaders(r.referer, r.accept), ...r.headers };
    const cookie = r.guest ? await guestCookie(ctx) : undefined;
    if (cookie) headers.Cookie = cookie;
    return ctx.http.request({ method: r.method, url: r.url, headers, form: r.form });
  };
  let res = await send();
  if (r.guest && detectSignal(res) === 'challenge') {
    forgetTtwid(ctx);
    ctx.log.debug({ url: r.url }, 'toutiao challenge page; minting a fresh ttwid');
    res = await send();
  }
  check(res, ctx, r.what, r.signed);
  return res;
}

/** An error after which an equivalent route is worth trying (an unreadable or refused answer, a missing recording). */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked'));
}
