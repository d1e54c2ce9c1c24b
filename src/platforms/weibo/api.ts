import { firstAnswering } from '../../crawl/fallback.js';
import type { HttpResponse, Query } from '../../crawl/http.js';
import { throwForStatus } from '../../crawl/http.js';
import {
  Blocked,
  CrawlError,
  NotFound,
  ParseError,
  RateLimited,
  SessionExpired,
  UpstreamError,
  isReplayMiss,
} from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { forgetVisitorCookies, mintVisitorCookies, storedVisitorCookies } from './visitor.js';

export const M_ORIGIN = 'https://m.weibo.cn';
export const S_ORIGIN = 'https://s.weibo.com';
/** weibo.com, the desktop site: its ajax API is the second route after m.weibo.cn. */
export const PC_ORIGIN = 'https://weibo.com';

export const ENDPOINTS = {
  getIndex: `${M_ORIGIN}/api/container/getIndex`,
  show: `${M_ORIGIN}/statuses/show`,
  extend: `${M_ORIGIN}/statuses/extend`,
  hotflow: `${M_ORIGIN}/comments/hotflow`,
  hotFlowChild: `${M_ORIGIN}/comments/hotFlowChild`,
  detailPage: (id: string) => `${M_ORIGIN}/detail/${encodeURIComponent(id)}`,
  topSummary: `${S_ORIGIN}/top/summary`,
} as const;

/** The desktop site's ajax endpoints (weibo.com/ajax/...). */
export const PC = {
  mymblog: `${PC_ORIGIN}/ajax/statuses/mymblog`,
  profileInfo: `${PC_ORIGIN}/ajax/profile/info`,
  show: `${PC_ORIGIN}/ajax/statuses/show`,
  longtext: `${PC_ORIGIN}/ajax/statuses/longtext`,
  buildComments: `${PC_ORIGIN}/ajax/statuses/buildComments`,
  hotSearch: `${PC_ORIGIN}/ajax/side/hotSearch`,
  topicBand: `${PC_ORIGIN}/ajax/statuses/topic_band`,
} as const;

/** Container ids of m.weibo.cn's getIndex. */
export const CONTAINERS = {
  search: (q: string) => `100103type=1&q=${q}`,
  userSearch: (name: string) => `100103type=3&q=${name}&t=0`,
  timeline: (uid: string) => `107603${uid}`,
  profile: (uid: string) => `100505${uid}`,
  // Sent pre-escaped, exactly as the recorded anonymous client did (hence %253D on the wire): weibo answers it.
  realtimehot: '106003type%3D25%26t%3D3%26disable_hot%3D1%26filter_type%3Drealtimehot',
  /** The same board as other clients name it (escaped once on the wire, or the short form): replay only. */
  realtimehotAliases: ['106003type=25&t=3&disable_hot=1&filter_type=realtimehot', '106003type=25&filter_type=realtimehot'],
  /** Spellings of the same keyword search seen in clients and in the board's own links: replay only. */
  searchAliases: (q: string) => [`100103type=1&q=${q}&t=0`, `100103type=1&t=10&q=${q}`],
  hotTopics: '231648_-_4',
  hotPosts: '102803',
} as const;

export const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** What m.weibo.cn's own XHRs send; without them some endpoints answer HTML instead of JSON. */
export function xhrHeaders(referer = `${M_ORIGIN}/`): Record<string, string> {
  return {
    'User-Agent': MOBILE_UA,
    Accept: 'application/json, text/plain, */*',
    Referer: referer,
    'X-Requested-With': 'XMLHttpRequest',
    'MWeibo-Pwa': '1',
  };
}

export const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** What weibo.com's own XHRs send. */
export function pcHeaders(referer = `${PC_ORIGIN}/`): Record<string, string> {
  return {
    'User-Agent': DESKTOP_UA,
    Accept: 'application/json, text/plain, */*',
    Referer: referer,
    'X-Requested-With': 'XMLHttpRequest',
  };
}

export function pageHeaders(referer = `${M_ORIGIN}/`): Record<string, string> {
  return {
    'User-Agent': MOBILE_UA,
    Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    Referer: referer,
  };
}

const PASSPORT = /(^|\.)passport\.weibo\.(com|cn)$/i;
const FOLLOWABLE = /(^|\.)weibo\.(com|cn)$/i;
const MAX_HOPS = 3;

const expiredMessage = (where: string, how: string): string =>
  `${where} ${how}: weibo wants visitor cookies or a login for this page (store a weibo profile with cookies); this is not an empty result`;

function sessionExpired(where: string, how: string): SessionExpired {
  return new SessionExpired(expiredMessage(where, how));
}

/** The Sina Visitor System wall (not the login wall): visitor cookies may get past it. */
export class VisitorWall extends SessionExpired {
  constructor(
    readonly where: string,
    readonly how: string,
  ) {
    super(expiredMessage(where, how));
  }
}

/** passport's visitor pages (/visitor/visitor, /visitor/genvisitor…), as opposed to its sign-in pages. */
const isVisitorUrl = (u: URL): boolean => /^\/visitor\//i.test(u.pathname);
const REDIRECTED = 'redirected to passport.weibo.com';
const VISITOR = "answered with the 'Sina Visitor System' page (passport visitor wall)";

/**
 * GET with redirects followed by hand: a hop to passport (visitor wall / login) is recognised from its
 * Location before anything is requested there.
 */
export async function get(ctx: CrawlContext, url: string, query: Query | undefined, headers: Record<string, string>): Promise<HttpResponse> {
  let res = await ctx.http.request({ url, query, headers, followRedirects: false });
  for (let hop = 0; res.status >= 300 && res.status < 400; hop++) {
    const from = new URL(res.url).host;
    const location = res.headers['location'];
    if (!location) throw new UpstreamError(`HTTP ${res.status} without a Location from ${from}`);
    const next = new URL(location, res.url);
    if (PASSPORT.test(next.hostname)) throw isVisitorUrl(next) ? new VisitorWall(from, REDIRECTED) : sessionExpired(from, REDIRECTED);
    if (hop >= MAX_HOPS || !FOLLOWABLE.test(next.hostname)) throw new UpstreamError(`unexpected redirect from ${from} to ${next.host}`);
    res = await ctx.http.request({ url: next.toString(), headers, followRedirects: false });
  }
  return res;
}

const VISITOR_PAGE = /<title>\s*Sina Visitor System\s*<\/title>|\/visitor\/genvisitor/i;
const RISK_PAGE = /验证码|安全验证|captcha|geetest|请求过于频繁|访问过于频繁|访问频次过高/i;

export const isVisitorPage = (text: string): boolean => VISITOR_PAGE.test(text);

/** HTTP-level outcomes shared by every weibo endpoint. */
export function checkStatus(res: HttpResponse): void {
  const host = new URL(res.url).host;
  const u = new URL(res.url);
  if (PASSPORT.test(u.hostname)) throw isVisitorUrl(u) ? new VisitorWall(host, REDIRECTED) : sessionExpired(host, REDIRECTED);
  // 432 is weibo's own risk-control status (seen on getIndex for cookieless or throttled clients).
  if (res.status === 432 || res.status === 418 || res.status === 403) {
    throw new Blocked(`HTTP ${res.status} from ${host}: weibo's risk control refused the request`);
  }
  if (res.status === 404) throw new NotFound(`HTTP 404 from ${host}${new URL(res.url).pathname}`);
  throwForStatus(res);
  if (res.status >= 400) throw new UpstreamError(`HTTP ${res.status} from ${host}`);
}

/** The body of a page that should be HTML; a visitor wall or a risk page is never content. */
export function readHtml(res: HttpResponse): string {
  checkStatus(res);
  const text = res.text();
  if (isVisitorPage(text)) throw new VisitorWall(new URL(res.url).host, VISITOR);
  if (RISK_PAGE.test(text) && !/\$render_data|class="list_[ab]|td-02/.test(text)) {
    throw new Blocked(`${new URL(res.url).host} answered a captcha / risk-control page`);
  }
  return text;
}

/** The body of an endpoint that should answer JSON; anything else is an error, never an empty result. */
export function readJson(res: HttpResponse): unknown {
  checkStatus(res);
  const text = res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const u = new URL(res.url);
    if (isVisitorPage(text)) throw new VisitorWall(u.host, VISITOR);
    if (RISK_PAGE.test(text)) throw new Blocked(`${u.host} answered a captcha / risk-control page instead of JSON`);
    throw new ParseError(`expected JSON from ${u.host}${u.pathname}, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
}

export type Envelope = { kind: 'ok'; data: Record<string, unknown>; raw: Record<string, unknown> } | { kind: 'empty'; message: string };

const NOT_FOUND_MSG = /不存在|已被删除|已删除|被作者删除|暂无查看权限|暂无权限|无查看权限|没有权限|不可见|抱歉，此微博/;
const NOT_FOUND_CODES = new Set(['20101', '20112', '20003']);
const THROTTLE_MSG = /频繁|稍后再试|too many/i;
const EMPTY_MSG = /还没有内容|还没有|暂无|没有更多|快来发表/;

/**
 * Weibo's outcome codes, in one place. `ok:1` is success; `{"ok":0,"msg":"这里还没有内容"}` (or ok 0 with
 * empty cards) is weibo honestly saying there is nothing; `ok:-100` is its login demand.
 */
export function interpret(body: unknown, what: string): Envelope {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${what}: not a JSON object`);
  const raw = body as Record<string, unknown>;
  const ok = Number(raw.ok);
  // m.weibo.cn says msg, weibo.com's ajax API says message.
  const msg = typeof raw.msg === 'string' ? raw.msg : typeof raw.message === 'string' ? raw.message : '';
  const data = raw.data && typeof raw.data === 'object' && !Array.isArray(raw.data) ? (raw.data as Record<string, unknown>) : undefined;
  if (ok === 1) return { kind: 'ok', data: data ?? {}, raw };
  if (ok === -100) throw new SessionExpired(`${what}: weibo wants a login (ok:-100)`);
  const code = String(raw.errno ?? raw.errcode ?? raw.error_code ?? '');
  if (NOT_FOUND_CODES.has(code) || NOT_FOUND_MSG.test(msg)) throw new NotFound(`${what}: weibo says ${msg || `error ${code}`}`);
  if (THROTTLE_MSG.test(msg)) throw new RateLimited(`${what}: weibo says ${msg}`);
  if (EMPTY_MSG.test(msg)) return { kind: 'empty', message: msg };
  if (ok === 0 && !msg && data && Array.isArray(data.cards) && data.cards.length === 0) return { kind: 'empty', message: 'no cards' };
  const why = msg ? ` (${msg})` : code ? ` (error ${code})` : '';
  if (raw.ok === undefined || raw.ok === null) throw new ParseError(`${what}: the answer carries no ok field${why}`);
  throw new UpstreamError(`${what}: weibo answered ok:${typeof raw.ok === 'object' ? JSON.stringify(raw.ok) : String(raw.ok)}${why}`);
}

export async function getJson(ctx: CrawlContext, url: string, query: Query | undefined, what: string, referer?: string): Promise<Envelope> {
  const res = await get(ctx, url, query, xhrHeaders(referer));
  return interpret(readJson(res), what);
}

/** The realtime hot-search container (getIndex), asked under its other spellings only when a replay lacks the first. */
export function realtimehotBoard(ctx: CrawlContext): Promise<Envelope> {
  return firstRecorded(
    [CONTAINERS.realtimehot, ...CONTAINERS.realtimehotAliases].map(
      (containerid) => () => getJson(ctx, ENDPOINTS.getIndex, { containerid, luicode: '10000011', lfid: '231583' }, 'hot search board'),
    ),
  );
}

export async function getPcJson(ctx: CrawlContext, url: string, query: Query | undefined, what: string, referer?: string): Promise<Envelope> {
  return interpret(await withVisitor(ctx, url, query, pcHeaders(referer), readJson), what);
}

export async function getHtml(ctx: CrawlContext, url: string, query: Query | undefined, referer?: string): Promise<string> {
  return withVisitor(ctx, url, query, pageHeaders(referer), readHtml);
}

/** Hosts behind the Sina Visitor System; m.weibo.cn answers anonymously and never gets visitor cookies. */
const VISITOR_HOSTS = /^(www\.)?weibo\.com$|^s\.weibo\.com$/i;

const hasCookie = (cookies: string | undefined, name: string): boolean => !!cookies && new RegExp(`(?:^|;\\s*)${name}=`).test(cookies);

/**
 * A weibo.com / s.weibo.com request with the account's visitor cookies (SUB/SUBP from the guest jar; the
 * profile's own cookies win, merged by the http client). On the visitor wall: the stored pair is dropped,
 * a fresh one minted once, and the request repeated once; when minting fails or the wall stays, the wall's
 * honest session_expired stands. A profile with its own SUB (a login) never mints.
 */
export async function withVisitor<T>(
  ctx: CrawlContext,
  url: string,
  query: Query | undefined,
  headers: Record<string, string>,
  read: (res: HttpResponse) => T,
): Promise<T> {
  // ctx.guest is absent only in hand-built contexts; then the request goes out as before.
  if (!VISITOR_HOSTS.test(new URL(url).hostname) || !ctx.guest || hasCookie(ctx.session.cookies, 'SUB')) {
    return read(await get(ctx, url, query, headers));
  }
  const desktop = new URL(url).hostname.toLowerCase() !== 's.weibo.com';
  let cookie = storedVisitorCookies(ctx);
  for (let minted = false; ; minted = true) {
    // The pair is bound to the agent it was minted with (the jar's): weibo.com's ajax calls go out with it.
    // s.weibo.com keeps its mobile agent, whose markup the board parsers read.
    const sent = cookie ? { ...headers, Cookie: cookie, ...(desktop ? { 'User-Agent': ctx.guest.userAgent } : {}) } : headers;
    let wall: VisitorWall;
    try {
      return read(await get(ctx, url, query, sent));
    } catch (e) {
      if (!(e instanceof VisitorWall)) throw e;
      wall = e;
    }
    if (minted) throw new SessionExpired(`${expiredMessage(wall.where, wall.how)} (even with freshly minted visitor cookies)`);
    if (cookie) forgetVisitorCookies(ctx);
    const got = await mintVisitorCookies(ctx);
    if ('failed' in got) throw new SessionExpired(`${expiredMessage(wall.where, wall.how)} (could not mint visitor cookies: ${got.failed})`);
    cookie = got.cookie;
  }
}

/** An error after which a second route (HTML page instead of API, or the reverse) is worth trying. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
}

type Route<T> = () => Promise<T | undefined>;

/**
 * Each route in turn: the next one when a route failed non-terminally (see isFallbackable) or answered
 * undefined (found nothing where another route may have it); the last route's answer stands.
 */
export function withFallback<T>(...routes: [...Array<Route<T>>, () => Promise<T>]): Promise<T> {
  return firstAnswering<T>(routes, isFallbackable);
}

/**
 * Replay only: the same request with the id in another accepted form (bid instead of mid) when the
 * first form has no recording. Live, the first form always gets an answer and no second is sent.
 */
export function firstRecorded<T>(variants: Array<() => Promise<T>>): Promise<T> {
  return firstAnswering(variants, isReplayMiss);
}
