import { randomBytes } from 'node:crypto';
import { firstAnswering } from '../../crawl/fallback.js';
import type { HttpResponse } from '../../crawl/http.js';
import { throwForStatus } from '../../crawl/http.js';
import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import { SignatureRefused } from '../../crawl/signing.js';
import type { CrawlContext } from '../types.js';
import { WWW } from './refs.js';
import type { Json } from './state.js';

export { WWW };
export type { Json };

const MOBILE = 'https://v.m.chenzhongtech.com';
const WXMINI = 'https://wxmini-api.uyouqu.com';

/** Every endpoint the adapter calls (cn-platforms.md §4). */
export const ENDPOINTS = {
  /** Web GraphQL, unsigned: visionSearchPhoto, visionVideoDetail, visionProfile, visionProfilePhotoList, comments. */
  graphql: `${WWW}/graphql`,
  /** Home page: window.__APOLLO_STATE__ carries the hot board (visionHotRank). */
  home: `${WWW}/?isHome=1`,
  /** Guest `did` cookie source. */
  root: `${WWW}/`,
  /** REST comments, unsigned (MediaCrawler kuaishou/client.py get_video_comments / get_video_sub_comments). */
  commentList: `${WWW}/rest/v/photo/comment/list`,
  commentSublist: `${WWW}/rest/v/photo/comment/sublist`,
  /** REST lists that need __NS_hxfalcon (unsigned → result 50). */
  profileFeed: `${WWW}/rest/v/profile/feed`,
  searchFeed: `${WWW}/rest/v/search/feed`,
  /** Mobile share page (window.INIT_STATE) and its detail call. */
  mobilePhotoInfo: `${MOBILE}/rest/wd/photo/info`,
  /** WeChat mini-program API (2020; cookie-authenticated with a mini-program session). */
  wxSearchFeed: `${WXMINI}/rest/wd/search/feed`,
  wxSearchUser: `${WXMINI}/rest/wd/search/user`,
  wxUserProfile: `${WXMINI}/rest/wd/wechatApp/user/profile`,
  wxRecommend: `${WXMINI}/rest/wd/feed/recommend`,
} as const;

// ---------------------------------------------------------------------------------------------
// Outcome codes, in one place. Kuaishou's REST answers and GraphQL operation objects carry `result`;
// 1 is success (MediaCrawler kuaishou/client.py; fixtures/kuaishou/README.md; issues cited below).

type Outcome = (what: string, message: string) => CrawlError;

export const RESULT_OUTCOMES: ReadonlyMap<number, Outcome> = new Map<number, Outcome>([
  // Server-side throttling; MediaCrawler backs off 5/10/20 s (client.py request_rest_v2_signed).
  [2, (w, m) => new RateLimited(`${w}: kuaishou throttled the crawl (result 2${m ? `: ${m}` : ''})`)],
  // 签名验证失败: a signed API called without (or with a refused) __NS_hxfalcon (parse-video #45).
  [50, (w, m) => new SignatureRefused(`${w}: kuaishou refused the request signature (result 50${m ? `: ${m}` : ''})`)],
  // [2001] antispam need captcha (parse-video #36, stealer #96/#112).
  [2001, (w, m) => new Blocked(`${w}: kuaishou demands a captcha (result 2001${m ? `: ${m}` : ''})`)],
  // 参数格式错误: our request's shape is wrong (stealer #109) — the platform changed, not the caller's input.
  [21, (w, m) => new UpstreamError(`${w}: kuaishou rejected the request parameters (result 21${m ? `: ${m}` : ''}); the API may have changed`)],
]);

const LOGIN_WORDS = /请(?:先)?登录|未登录|登录后|need(?:s)? login|not logged in|login required|unauthori[sz]ed/i;
const NOT_FOUND_WORDS = /不存在|已删除|已被删除|not (?:be )?found|does not exist|deleted/i;
const CAPTCHA_WORDS = /captcha|验证码|请验证|安全验证|滑块|antispam/i;

const message = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A `result` envelope (REST answer or GraphQL operation object): the object itself on success. */
export function checkResult(body: Json, what: string): Json {
  const msg = message(body.error_msg) || message(body.message) || message(body.msg);
  // A captcha config is a block whatever the code says.
  if (body.captchaConfig !== undefined || body.captcha !== undefined) throw new Blocked(`${what}: kuaishou demands a captcha${body.result !== undefined ? ` (result ${String(body.result)})` : ''}`);
  if (body.result === undefined || body.result === null) return body;
  const code = Number(body.result);
  if (code === 1) return body;
  const outcome = Number.isInteger(code) ? RESULT_OUTCOMES.get(code) : undefined;
  if (outcome) throw outcome(what, msg);
  if (LOGIN_WORDS.test(msg)) throw new SessionExpired(`${what}: kuaishou wants a (fresh) login (result ${String(body.result)}: ${msg}); store a kuaishou profile with a web login`);
  if (NOT_FOUND_WORDS.test(msg)) throw new NotFound(`${what}: kuaishou says ${msg} (result ${String(body.result)})`);
  if (CAPTCHA_WORDS.test(msg)) throw new Blocked(`${what}: kuaishou answered result ${String(body.result)} (${msg})`);
  throw new UpstreamError(`${what}: kuaishou answered result ${String(body.result)}${msg ? ` (${msg})` : ''}`);
}

/** A GraphQL answer: `data[operation]`, or the mapped outcome of a top-level `errors` array. */
export function checkGraphql(body: Json, operation: string, what: string): Json {
  const errors = Array.isArray(body.errors) ? body.errors : [];
  if (errors.length) {
    const text = errors
      .map((e) => (e && typeof e === 'object' ? message((e as Json).message) : String(e)))
      .filter(Boolean)
      .join('; ')
      .slice(0, 300);
    if (CAPTCHA_WORDS.test(text)) throw new Blocked(`${what}: kuaishou's GraphQL answered a verification demand (${text})`);
    if (LOGIN_WORDS.test(text)) throw new SessionExpired(`${what}: kuaishou's GraphQL wants a (fresh) login (${text}); store a kuaishou profile with a web login`);
    if (NOT_FOUND_WORDS.test(text)) throw new NotFound(`${what}: kuaishou says ${text}`);
    throw new UpstreamError(`${what}: kuaishou's GraphQL answered errors (${text || 'no message'})`);
  }
  const data = body.data && typeof body.data === 'object' ? (body.data as Json) : undefined;
  const op = data?.[operation];
  if (!op || typeof op !== 'object' || Array.isArray(op)) throw new UpstreamError(`${what}: kuaishou's GraphQL answered no ${operation}`);
  return checkResult(op as Json, what);
}

const LOGIN_PAGE = /(?:^|\.)passport\.kuaishou\.com$|(?:^|\.)id\.kuaishou\.com$/i;
const CAPTCHA_HOST = /(?:^|\.)captcha\.zt\.kuaishou\.com$/i;

/** HTTP-level outcomes shared by every kuaishou request: where the request ended up, and its status. */
export function checkStatus(res: HttpResponse, what: string): void {
  const final = new URL(res.url);
  if (CAPTCHA_HOST.test(final.hostname) || /\/rest\/infra\/captcha/.test(final.pathname)) throw new Blocked(`${what}: kuaishou redirected to its captcha (${final.host})`);
  if (LOGIN_PAGE.test(final.hostname) || /\/(?:account\/)?login(?:[/?]|$)/i.test(final.pathname)) {
    throw new SessionExpired(`${what}: kuaishou redirected to its login page (${final.host}${final.pathname}); store a kuaishou profile with a (fresh) web login`);
  }
  if (res.status === 403) throw new Blocked(`${what}: HTTP 403, kuaishou refused the request`);
  if (res.status === 404) throw new NotFound(`${what}: HTTP 404`);
  throwForStatus(res);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status}`);
}

/** The JSON body of an API answer; a verification page is a block, an empty body on a signed route a refused signature. */
export function readJson(res: HttpResponse, what: string, signed = false): Json {
  const text = res.text();
  if (!text.trim()) {
    if (signed) throw new SignatureRefused(`${what}: kuaishou answered an empty body to the signed request`);
    throw new ParseError(`${what}: empty answer`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (CAPTCHA_WORDS.test(text)) throw new Blocked(`${what}: kuaishou answered a verification page instead of JSON`);
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${what}: not a JSON object`);
  return body as Json;
}

/** An HTML page; a verification page instead of the expected page is a block. */
export function readPage(res: HttpResponse, what: string, expect: RegExp): string {
  const html = res.text();
  if (!expect.test(html) && CAPTCHA_WORDS.test(html)) throw new Blocked(`${what}: kuaishou answered a verification page`);
  return html;
}

// ---------------------------------------------------------------------------------------------
// Guest identity: the web keys anonymous sessions on a `did` cookie (web_<32 hex>) and its `didv`
// (first-visit ms), set on the first visit to www.kuaishou.com (stealer #109, video-parse-tools #8).

export const GUEST_KEY = 'kuaishou:guest';
const GUEST_TTL_MS = 30 * 24 * 3600_000;

interface Guest {
  did: string;
  didv: string;
}

export const hasCookie = (cookies: string | undefined, name: string): boolean => !!cookies && new RegExp(`(?:^|;\\s*)${name.replace(/\./g, '\\.')}=`).test(cookies);

/** The login cookies of a web session (kuaishou.server.web_st and its companions). */
export const hasWebLogin = (ctx: CrawlContext): boolean => hasCookie(ctx.session.cookies, 'kuaishou.server.web_st') || hasCookie(ctx.session.cookies, 'kuaishou.server.web_ph');

function cookieValue(setCookie: string | undefined, name: string): string | undefined {
  if (!setCookie) return undefined;
  for (const line of setCookie.split('\n')) {
    const m = new RegExp(`(?:^|[;,]\\s*)${name}=([^;,\\s]+)`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** Keeps the guest ids a kuaishou page sets, when the jar has none yet. */
export function rememberGuest(ctx: CrawlContext, res: HttpResponse): void {
  if (hasCookie(ctx.session.cookies, 'did') || ctx.guest.get<Guest>(GUEST_KEY)) return;
  const did = cookieValue(res.headers['set-cookie'], 'did');
  if (did) ctx.guest.set(GUEST_KEY, { did, didv: cookieValue(res.headers['set-cookie'], 'didv') ?? String(Date.now()) }, GUEST_TTL_MS);
}

function localGuest(): Guest {
  return { did: `web_${randomBytes(16).toString('hex')}`, didv: String(Date.now()) };
}

async function mintGuest(ctx: CrawlContext): Promise<Guest> {
  try {
    const res = await ctx.http.request({ url: ENDPOINTS.root, headers: pageHeaders(), followRedirects: false });
    const did = cookieValue(res.headers['set-cookie'], 'did');
    if (did) return { did, didv: cookieValue(res.headers['set-cookie'], 'didv') ?? String(Date.now()) };
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    ctx.log.debug({ err: e }, 'kuaishou guest page unavailable');
  }
  // The site's own script mints the same shape when the first answer sets none.
  return localGuest();
}

/** The guest cookie for an anonymous (or did-less) profile; undefined when the profile brings its own did. */
export async function guestCookie(ctx: CrawlContext): Promise<string | undefined> {
  if (hasCookie(ctx.session.cookies, 'did')) return undefined;
  let guest = ctx.guest.get<Guest>(GUEST_KEY);
  if (!guest) {
    guest = await mintGuest(ctx);
    ctx.guest.set(GUEST_KEY, guest, GUEST_TTL_MS);
  }
  return `did=${guest.did}; didv=${guest.didv}`;
}

/**
 * One request with the guest identity; when kuaishou blocks that identity (captcha), a fresh one is
 * minted and the request goes out once more.
 */
export async function asGuest<T>(ctx: CrawlContext, send: (cookie: string | undefined) => Promise<T>): Promise<T> {
  const cookie = await guestCookie(ctx);
  try {
    return await send(cookie);
  } catch (e) {
    if (!cookie || !(e instanceof Blocked) || e instanceof SignatureRefused) throw e;
    ctx.guest.delete(GUEST_KEY);
    ctx.warn(`kuaishou blocked the guest identity (${e.message}); retried once with a fresh one`);
    return send(await guestCookie(ctx));
  }
}

// ---------------------------------------------------------------------------------------------

export function pageHeaders(referer?: string): Record<string, string> {
  return {
    Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8',
    ...(referer ? { Referer: referer } : {}),
  };
}

export function apiHeaders(referer: string, origin = WWW): Record<string, string> {
  return {
    Accept: '*/*',
    'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8',
    'Content-Type': 'application/json',
    Origin: origin,
    Referer: referer,
  };
}

/** POST a JSON body to a kuaishou REST endpoint (result envelope), as the guest when anonymous. */
export async function postRest(ctx: CrawlContext, url: string, body: Json, o: { what: string; referer: string; origin?: string }): Promise<Json> {
  return asGuest(ctx, async (cookie) => {
    const headers = apiHeaders(o.referer, o.origin);
    if (cookie) headers.Cookie = cookie;
    const res = await ctx.http.request({ method: 'POST', url, headers, body: JSON.stringify(body) });
    checkStatus(res, o.what);
    return checkResult(readJson(res, o.what), o.what);
  });
}

/** GET a kuaishou page (HTML) as the guest when anonymous; keeps the guest ids it sets. */
export async function getPage(ctx: CrawlContext, url: string, o: { what: string; expect: RegExp; referer?: string }): Promise<string> {
  const headers = pageHeaders(o.referer);
  const res = await ctx.http.request({ url, headers });
  rememberGuest(ctx, res);
  checkStatus(res, o.what);
  return readPage(res, o.what, o.expect);
}

// ---------------------------------------------------------------------------------------------

/** An error after which an equivalent route is worth trying: an outage, an unreadable answer, a missing recording. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
}

/** Tries equivalent routes in order (see crawl/fallback.ts); undefined from a route means "not here, try on". */
export async function firstOf<T>(routes: Array<() => Promise<T | undefined>>): Promise<T> {
  return firstAnswering(routes, isFallbackable);
}
