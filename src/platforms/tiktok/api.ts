import { Blocked, CrawlError, NotFound, ParseError, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import { firstAnswering } from '../../crawl/fallback.js';
import type { HttpResponse } from '../../crawl/http.js';
import { throwForStatus } from '../../crawl/http.js';
import { SignatureRefused, signed } from '../../crawl/signing.js';
import type { CrawlContext, PageSigning } from '../types.js';
import { guestIdentity, forgetGuest, guestCookie, type Guest } from './guest.js';
import { obj, str, type Json } from './parse.js';
import { WEB } from './refs.js';
import { bogusOf, encodeQuery, pageSignature, webParams, type Pairs } from './sign.js';

export const M_WEB = 'https://m.tiktok.com';

/** Web API paths (www.tiktok.com; the 2020 web client sent the same paths to m.tiktok.com). */
export const ENDPOINTS = {
  searchGeneral: '/api/search/general/full/',
  searchItem: '/api/search/item/full/',
  searchUser: '/api/search/user/full/',
  itemDetail: '/api/item/detail/',
  userDetail: '/api/user/detail/',
  postList: '/api/post/item_list/',
  commentList: '/api/comment/list/',
  commentReplies: '/api/comment/list/reply/',
  recommend: '/api/recommend/item_list/',
} as const;

// ---------------------------------------------------------------------------------------------
// Outcome codes, in one place. Web answers carry statusCode (camelCase lists, user and item detail) or
// status_code (search, comments); the page's webapp.* scopes carry statusCode too.

type Outcome = (what: string, code: number, message: string) => CrawlError;
const note = (code: number, message: string): string => `statusCode ${code}${message ? `, "${message}"` : ''}`;
const blocked: Outcome = (w, c, m) => new Blocked(`${w}: TikTok refused this client (${note(c, m)})`);
const notFound: Outcome = (w, c, m) => new NotFound(`${w}: TikTok says it does not exist or is not visible (${note(c, m)})`);
const privatePost: Outcome = (w, c, m) => new NotFound(`${w}: the post is private (${note(c, m)}); only its audience may see it`);
const privateAccount: Outcome = (w, c, m) =>
  new NotFound(`${w}: the account is private (${note(c, m)}); TikTok answers this with and without a login, so it is not a login problem`);
const login: Outcome = (w, c, m) => new SessionExpired(`${w}: TikTok wants a (fresh) login (${note(c, m)}); store a tiktok profile with its sessionid cookie`);
const refused: Outcome = (w, c, m) => new SignatureRefused(`${w}: TikTok answered an empty ${note(c, m)}, its answer to a signature it did not accept`);

export const STATUS_OUTCOMES: ReadonlyMap<number, Outcome> = new Map<number, Outcome>([
  [10000, blocked], // captcha wall (TikTok-Api #403)
  [10204, blocked], // IP address blocked (yt-dlp tiktok.py)
  [8, login], // {"status_code":8,"status_msg":"Login expired"} (cn-platforms.md §2)
  [10102, login], // "not login" (TikTok-Api #403)
  [10201, notFound], // invalid entity (TikTok-Api #403)
  [10202, notFound], // page / user not found (TikTok-Api #403, drawrowfly/tiktok-scraper #404)
  [10221, notFound], // invalid profile: banned or deleted (TikTok-Api #403)
  [10216, privatePost], // private post (yt-dlp tiktok.py)
  [10222, privateAccount], // private account (yt-dlp tiktok.py, yt-dlp #14585)
  [-1, refused], // {statusCode:-1, userInfo:{}} to an unaccepted signature (carcabot/tiktok-signature #129)
]);

export class StatusCodeError extends UpstreamError {
  readonly statusCode: number;
  constructor(what: string, code: number, message: string) {
    super(`${what}: TikTok answered ${note(code, message)}`);
    this.statusCode = code;
  }
}

export function errorForStatus(code: number, message: string, what: string): CrawlError {
  return STATUS_OUTCOMES.get(code)?.(what, code, message) ?? new StatusCodeError(what, code, message);
}

/** The code an answer carries (statusCode or status_code); undefined when it carries none. */
export function statusOf(body: Json): { code?: number; message: string } {
  const raw = body.statusCode ?? body.status_code;
  const code = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
  const message = str(body.statusMsg) ?? str(body.status_msg) ?? str(body.message) ?? '';
  return { code, message };
}

/** A verify / captcha page where JSON was expected: TikTok's risk control, often after a bad signature. */
const VERIFY_PAGE = /captcha|verify-bar|secsdk|_wafchallengeid|wafchallenge|Please wait\.\.\./i;

const loginPath = (url: string): boolean => {
  try {
    return /^\/login(?:\/|$)/.test(new URL(url).pathname);
  } catch {
    return false;
  }
};

/** HTTP-level outcomes shared by pages and API answers. */
export function checkHttp(res: HttpResponse, what: string, page = false): void {
  if (loginPath(res.url) || (res.status >= 300 && res.status < 400 && loginPath(new URL(res.headers.location ?? '/', res.url).toString()))) {
    throw new SessionExpired(`${what}: TikTok redirected to its login page; store a tiktok profile with its sessionid cookie`);
  }
  if (res.status === 403) throw new Blocked(`${what}: HTTP 403, TikTok refused this client`);
  if (res.status === 404 && page) throw new NotFound(`${what}: HTTP 404`);
  throwForStatus(res);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status}`);
  if (res.status >= 300) throw new UpstreamError(`${what}: HTTP ${res.status} redirect to ${res.headers.location ?? 'nowhere'}`);
}

/** A web API answer: an empty or verify body is a refused signature; a non-zero code is mapped above. */
export function readAnswer(res: HttpResponse, what: string, allow: readonly number[] = []): Json {
  checkHttp(res, what);
  const body = res.text();
  if (!body.trim()) {
    throw new SignatureRefused(`${what}: TikTok answered HTTP ${res.status} with an empty body (how it refuses a signature or a flagged client)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    if (VERIFY_PAGE.test(body)) throw new SignatureRefused(`${what}: TikTok answered a verification page instead of JSON`);
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
  const json = obj(parsed);
  if (!json) throw new ParseError(`${what}: the answer is not a JSON object`);
  const { code, message } = statusOf(json);
  if (code === undefined || code === 0 || allow.includes(code)) return json;
  if (code === -1 && !isEmptyAnswer(json)) throw new StatusCodeError(what, code, message);
  throw errorForStatus(code, message, what);
}

/** {statusCode:-1, userInfo:{}}: nothing besides the code and empty containers. */
function isEmptyAnswer(json: Json): boolean {
  return Object.entries(json).every(([k, v]) => /^(?:status_?code|status_?msg|extra|log_?pb)$/i.test(k) || v === null || (typeof v === 'object' && Object.keys(v as object).length === 0));
}

// ---------------------------------------------------------------------------------------------
// Requests

export function baseHeaders(referer: string, accept = 'application/json, text/plain, */*'): Record<string, string> {
  return { Accept: accept, 'Accept-Language': 'en-US,en;q=0.9', Referer: referer };
}

export interface WebCall {
  /** Key for CRAWLER_SIGN_MODE (tiktok.<endpoint>). */
  endpoint: string;
  path: string;
  /** The endpoint's own params, in the order the web client sends them. */
  params: Pairs;
  /** The page the request is made from (Referer, from_page). */
  referer: string;
  fromPage: string;
  what: string;
  /** Default www.tiktok.com. */
  origin?: string;
  /** Codes other than 0 whose answer is still wanted (a private account's user detail: 10222). */
  allow?: readonly number[];
}

async function send(ctx: CrawlContext, call: WebCall, guest: Guest, signature: Pairs, query: string): Promise<Json> {
  const suffix = signature.length ? `&${encodeQuery(signature)}` : '';
  const headers = baseHeaders(call.referer);
  const cookie = guestCookie(ctx, guest);
  if (cookie) headers.Cookie = cookie;
  const res = await ctx.http.request({ url: `${call.origin ?? WEB}${call.path}?${query}${suffix}`, headers });
  return readAnswer(res, call.what, call.allow);
}

/** Our X-Bogus port over exactly the query bytes sent; a refusal re-mints the guest identity once. */
async function nativeCall(ctx: CrawlContext, call: WebCall, retried = false): Promise<Json> {
  const guest = await guestIdentity(ctx);
  const query = encodeQuery(webParams(ctx.guest.userAgent, guest, call.fromPage, call.params));
  try {
    return await send(ctx, call, guest, [['X-Bogus', bogusOf(query, ctx.guest.userAgent)]], query);
  } catch (e) {
    if (e instanceof SignatureRefused && !retried && forgetGuest(ctx)) return nativeCall(ctx, call, true);
    throw e;
  }
}

/** The page's own signer computes X-Bogus and X-Gnarly for the same URL; the request itself goes out from here. */
async function pageCall(ctx: CrawlContext, signer: PageSigning, call: WebCall): Promise<Json> {
  const guest = await guestIdentity(ctx);
  const query = encodeQuery(webParams(ctx.guest.userAgent, guest, call.fromPage, call.params));
  const signature = await pageSignature(signer, `${call.origin ?? WEB}${call.path}?${query}`);
  return send(ctx, call, guest, signature, query);
}

/** One signed web API call in the configured sign mode (native X-Bogus, the page's frontierSign, or auto). */
export function webApi(ctx: CrawlContext, call: WebCall): Promise<Json> {
  return signed(ctx, call.endpoint, { native: () => nativeCall(ctx, call), browser: (page) => pageCall(ctx, page, call) });
}

/** An error after which an equivalent route is worth trying (an outage, an unreadable answer, a missing recording, a WAF page). */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || e instanceof PageChallenge || (e instanceof CrawlError && e.code === 'upstream_error');
}

export function firstOf<T>(routes: ReadonlyArray<() => Promise<T | undefined>>): Promise<T> {
  return firstAnswering(routes, isFallbackable);
}

// ---------------------------------------------------------------------------------------------
// Pages: the rehydration JSON needs no signature.

/** A WAF / JS challenge page instead of the content: a block of the page route only, the API may still answer. */
export class PageChallenge extends Blocked {}

const UNIVERSAL = /<script[^>]+\bid=["']__UNIVERSAL_DATA_FOR_REHYDRATION__["'][^>]*>([\s\S]*?)<\/script>/i;
/** Markers of TikTok's WAF / verify interstitial (a normal page loads its captcha SDK too, so "captcha" alone is not one). */
const CHALLENGE_PAGE = /_wafchallengeid|slardarwaf|captcha_verify_action|verifycenter/i;

/** __UNIVERSAL_DATA_FOR_REHYDRATION__.__DEFAULT_SCOPE__ of a page, or why there is none. */
export function rehydrationScope(html: string, what: string, setCookie = ''): Json {
  const m = UNIVERSAL.exec(html);
  if (!m) {
    if (CHALLENGE_PAGE.test(html) || /(?:^|[\n,]\s*)_wafchallengeid=/.test(setCookie)) {
      throw new PageChallenge(`${what}: TikTok answered a challenge page (WAF) instead of the content`);
    }
    throw new ParseError(`${what}: the page carries no __UNIVERSAL_DATA_FOR_REHYDRATION__ data`);
  }
  let data: unknown;
  try {
    data = JSON.parse(m[1]);
  } catch {
    throw new ParseError(`${what}: the page's rehydration data is not JSON`);
  }
  const scope = obj(obj(data)?.__DEFAULT_SCOPE__);
  if (!scope) throw new ParseError(`${what}: the rehydration data has no __DEFAULT_SCOPE__`);
  return scope;
}

/** GET a www.tiktok.com page and return its rehydration scope. */
export async function fetchPage(ctx: CrawlContext, url: string, what: string): Promise<Json> {
  const res = await ctx.http.request({ url, headers: baseHeaders(`${WEB}/`, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8') });
  checkHttp(res, what, true);
  const html = res.text();
  if (!html.trim()) throw new Blocked(`${what}: TikTok answered HTTP ${res.status} with an empty page`);
  return rehydrationScope(html, what, res.headers['set-cookie']);
}

/**
 * One webapp.* scope: its statusCode mapped like an API code; 0 (or none) returns the scope. With
 * `allow`, those codes return the scope too (a private account's profile card is still public).
 */
export function scopeSection(scope: Json, key: string, what: string, allow: readonly number[] = []): Json {
  const section = obj(scope[key]);
  if (!section) throw new ParseError(`${what}: the page carries no ${key} data`);
  const { code, message } = statusOf(section);
  if (code === undefined || code === 0 || allow.includes(code)) return section;
  // -1 names a refused signature on the API; a page is not signed, so there it is just an unknown failure.
  if (code === -1) throw new StatusCodeError(what, code, message);
  throw errorForStatus(code, message, what);
}
