import { firstAnswering } from '../../crawl/fallback.js';
import type { HttpResponse } from '../../crawl/http.js';
import { throwForStatus } from '../../crawl/http.js';
import {
  Blocked,
  CrawlError,
  NotFound,
  ParseError,
  RateLimited,
  SessionExpired,
  Timeout,
  UpstreamError,
  isReplayMiss,
} from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { encodePairs, keysFromWbiImg, signQuery, type SignableParams, type WbiKeys } from './wbi.js';

export const API = 'https://api.bilibili.com';
export const WWW = 'https://www.bilibili.com/';

export const ENDPOINTS = {
  nav: `${API}/x/web-interface/nav`,
  spi: `${API}/x/frontend/finger/spi`,
  search: `${API}/x/web-interface/wbi/search/type`,
  searchType: `${API}/x/web-interface/search/type`,
  searchAllWbi: `${API}/x/web-interface/wbi/search/all/v2`,
  searchAll: `${API}/x/web-interface/search/all/v2`,
  arcSearchWbi: `${API}/x/space/wbi/arc/search`,
  arcSearch: `${API}/x/space/arc/search`,
  dynamicsSpace: `${API}/x/polymer/web-dynamic/v1/feed/space`,
  card: `${API}/x/web-interface/card`,
  accInfoWbi: `${API}/x/space/wbi/acc/info`,
  accInfo: `${API}/x/space/acc/info`,
  relationStat: `${API}/x/relation/stat`,
  view: `${API}/x/web-interface/view`,
  viewDetail: `${API}/x/web-interface/view/detail`,
  playurl: `${API}/x/player/playurl`,
  replyMainWbi: `${API}/x/v2/reply/wbi/main`,
  replyMain: `${API}/x/v2/reply/main`,
  reply: `${API}/x/v2/reply`,
  replyHot: `${API}/x/v2/reply/hot`,
  replyReply: `${API}/x/v2/reply/reply`,
  popular: `${API}/x/web-interface/popular`,
  ranking: `${API}/x/web-interface/ranking/v2`,
  rcmd: `${API}/x/web-interface/wbi/index/top/feed/rcmd`,
  /** The same feed before WBI signing. */
  rcmdUnsigned: `${API}/x/web-interface/index/top/feed/rcmd`,
  /** The older home feed (fresh_type/version/ps/fresh_idx), answering the same data.item list. */
  rcmdLegacy: `${API}/x/web-interface/index/top/rcmd`,
  searchSquare: `${API}/x/web-interface/search/square`,
  appTrending: 'https://app.bilibili.com/x/v2/search/trending/ranking',
  hotword: 'https://s.search.bilibili.com/main/hotword',
} as const;

export const SHORT_LINK_HOSTS = ['b23.tv', 'bili2233.cn'];

/*
 * Browser-fingerprint params the web player adds to space/dynamic requests; without them those
 * endpoints answer -352 to most anonymous clients. Fixed, plausible values: base64 (padding stripped)
 * of a WebGL version string and of an ANGLE renderer string, no interaction recorded.
 */
export const DM_PARAMS = {
  dm_img_list: '[]',
  dm_img_str: 'V2ViR0wgMS4wIChPcGVuR0wgRVMgMi4wIENocm9taXVtKQ',
  dm_cover_img_str: 'QU5HTEUgKEludGVsLCBJbnRlbChSKSBVSEQgR3JhcGhpY3MgNjMwIERpcmVjdDNEMTEgdnNfNV8wIHBzXzVfMCwgRDNEMTEpR29vZ2xlIEluYy4gKEludGVsKQ',
  dm_img_inter: '{"ds":[],"wh":[0,0,0],"of":[0,0,0]}',
} as const;

export type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Outcome codes, in one place (bilibili-API-collect docs/misc/errcode.md and the recordings).

type Outcome = (what: string, message: string) => CrawlError;
const blocked: Outcome = (w, m) => new Blocked(`${w}: bilibili's risk control refused the request (${m})`);
const notFound: Outcome = (w, m) => new NotFound(`${w}: bilibili says ${m}`);
const login: Outcome = (w, m) => new SessionExpired(`${w}: bilibili wants a (fresh) login (${m}); store a bilibili profile with SESSDATA cookies`);
const throttled: Outcome = (w, m) => new RateLimited(`${w}: bilibili throttled the crawl (${m})`);

export const CODE_OUTCOMES: ReadonlyMap<number, Outcome> = new Map<number, Outcome>([
  [-352, blocked], // 风控校验失败 (comes with data.v_voucher)
  [-412, blocked], // 请求被拦截
  [-401, blocked], // 未认证 / 非法请求
  [-105, blocked], // 验证码错误
  [-101, login], // 账号未登录
  [-102, login], // 账号被封停
  [-111, login], // csrf 校验失败
  [-658, login], // Token 过期
  [-404, notFound], // 啥都木有
  [-626, notFound], // 用户不存在
  [62002, notFound], // 稿件不可见
  [62004, notFound], // 稿件审核中
  [62012, notFound], // 仅 UP 主自己可见
  [53013, notFound], // 用户隐私设置未公开
  [-799, throttled], // 请求过于频繁
  [-509, throttled], // 超出限制
  [-504, (w, m) => new Timeout(`${w}: bilibili's backend timed out (${m})`)],
]);

/** Reply-area codes: the comments are closed or hidden, which is bilibili saying there is nothing to list. */
export const COMMENTS_CLOSED = new Set([12002, 12061]);

export class ApiCodeError extends UpstreamError {
  readonly apiCode: number;
  constructor(what: string, code: number, message: string) {
    super(`${what}: bilibili answered code ${code}${message ? ` (${message})` : ''}`);
    this.apiCode = code;
  }
}

export function errorForCode(code: number, message: string, what: string): CrawlError {
  const outcome = CODE_OUTCOMES.get(code);
  if (outcome) return outcome(what, message || `code ${code}`);
  return new ApiCodeError(what, code, message);
}

export interface Answer {
  /** The envelope's data object (empty when the endpoint carries its payload at the top level). */
  data: Json;
  raw: Json;
  code: number;
}

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/**
 * bilibili's JSON envelope {code, message, data}. code 0 is success, except a data that carries only a
 * v_voucher: search answers risk control that way with code 0.
 */
export function interpret(body: unknown, what: string, allow: readonly number[] = []): Answer {
  const raw = obj(body);
  if (!raw) throw new ParseError(`${what}: not a JSON object`);
  if (raw.code === undefined) throw new ParseError(`${what}: the answer carries no code`);
  const code = Number(raw.code);
  const message = typeof raw.message === 'string' ? raw.message : typeof raw.msg === 'string' ? raw.msg : '';
  const data = obj(raw.data) ?? {};
  if (code === 0 || allow.includes(code)) {
    if (code === 0 && typeof data.v_voucher === 'string' && Object.keys(data).every((k) => k === 'v_voucher' || k === 'gaia_res_type')) {
      throw new Blocked(`${what}: bilibili answered a risk-control voucher instead of results (v_voucher)`);
    }
    return { data, raw, code };
  }
  if (!Number.isFinite(code)) throw new ParseError(`${what}: code ${String(raw.code)} is not a number`);
  throw errorForCode(code, message, what);
}

const RISK_PAGE = /验证码|安全验证|captcha|geetest|访问频繁|请求过于频繁|风控/i;

/** HTTP-level outcomes shared by every bilibili endpoint. */
export function checkStatus(res: HttpResponse, what: string): void {
  if (res.status === 412 || res.status === 403) throw new Blocked(`${what}: HTTP ${res.status}, bilibili's risk control refused the request`);
  if (res.status === 404) throw new NotFound(`${what}: HTTP 404`);
  throwForStatus(res);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status}`);
}

/** The body of an endpoint that should answer JSON; a captcha page is a block, anything else unreadable an error. */
export function readJson(res: HttpResponse, what: string, warn?: (msg: string) => void): unknown {
  const text = res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const joined = splitEnvelopes(text);
    if (joined) {
      // The frequency gate prepends its own envelope and still answers: the last envelope is the real one.
      const first = joined[0] as Json;
      warn?.(`${what}: bilibili prefixed its answer with a code ${String(first.code)} envelope (${String(first.message ?? '')}); the answer that followed it was used`);
      return joined[joined.length - 1];
    }
    if (RISK_PAGE.test(text)) throw new Blocked(`${what}: bilibili answered a captcha / risk-control page instead of JSON`);
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
}

/**
 * A body made of JSON objects written back to back (`{"code":-509,…}{"code":0,…}`), each an envelope with
 * a code; undefined for anything else.
 */
export function splitEnvelopes(text: string): unknown[] | undefined {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}') {
      if (--depth < 0) return undefined;
      if (depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          return undefined;
        }
      }
    } else if (depth === 0 && !/\s/.test(ch)) return undefined;
  }
  if (depth !== 0 || out.length < 2) return undefined;
  return out.every((o) => obj(o) && (o as Json).code !== undefined) ? out : undefined;
}

// ---------------------------------------------------------------------------------------------
// Guest cookies: bilibili gates search and space endpoints on a buvid3 cookie (-412 without one).

const GUEST_KEY = 'bilibili:guest-cookies';
const GUEST_TTL_MS = 24 * 3600_000;
/** After a failed mint, wait this long before asking again: the request goes out without them meanwhile. */
const GUEST_RETRY_MS = 10 * 60_000;

type Guest = { buvid3: string; buvid4?: string } | { failed: true };

const hasCookie = (cookies: string | undefined, name: string): boolean =>
  !!cookies && new RegExp(`(?:^|;\\s*)${name}=`).test(cookies);

async function guestCookies(ctx: CrawlContext): Promise<string | undefined> {
  if (hasCookie(ctx.session.cookies, 'buvid3')) return undefined;
  // Persisted per account (and bound to its User-Agent), so a restart reuses the minted ids.
  let guest = ctx.guest.get<Guest>(GUEST_KEY);
  if (!guest) {
    guest = await mintGuest(ctx);
    ctx.guest.set(GUEST_KEY, guest, 'failed' in guest ? GUEST_RETRY_MS : GUEST_TTL_MS);
  }
  if ('failed' in guest) return undefined;
  return guest.buvid4 ? `buvid3=${guest.buvid3}; buvid4=${guest.buvid4}` : `buvid3=${guest.buvid3}`;
}

async function mintGuest(ctx: CrawlContext): Promise<Guest> {
  try {
    const res = await ctx.http.request({ url: ENDPOINTS.spi, headers: baseHeaders(WWW) });
    checkStatus(res, 'finger/spi');
    const { data } = interpret(readJson(res, 'finger/spi'), 'finger/spi');
    const buvid3 = typeof data.b_3 === 'string' && data.b_3 ? data.b_3 : undefined;
    if (!buvid3) throw new ParseError('finger/spi: no data.b_3');
    return { buvid3, buvid4: typeof data.b_4 === 'string' && data.b_4 ? data.b_4 : undefined };
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    // The guest cookie only lowers the odds of a -412; the crawl goes on without it.
    if (!isReplayMiss(e)) ctx.warn(`could not mint bilibili guest cookies (${e instanceof CrawlError ? e.code : 'replay'}: ${e.message}); requests go out without buvid3`);
    ctx.log.debug({ err: e }, 'bilibili guest cookies unavailable');
    return { failed: true };
  }
}

export function mergeCookies(session: string | undefined, guest: string | undefined): string | undefined {
  const parts = [session?.trim().replace(/;\s*$/, ''), guest].filter((s): s is string => !!s);
  return parts.length ? parts.join('; ') : undefined;
}

// ---------------------------------------------------------------------------------------------
// WBI keys: from /x/web-interface/nav, which answers them logged in (code 0) and anonymous (-101) alike.

const WBI_KEY = 'bilibili:wbi-keys';
const WBI_TTL_MS = 3600_000;

export async function wbiKeys(ctx: CrawlContext): Promise<WbiKeys> {
  const known = ctx.memo.get<WbiKeys>(WBI_KEY);
  if (known) return known;
  const { data, code } = await getJson(ctx, ENDPOINTS.nav, { what: 'nav (WBI keys)', allow: [-101] });
  if (code === -101 && hasCookie(ctx.session.cookies, 'SESSDATA')) {
    ctx.warn("the profile's bilibili login has lapsed (nav answered -101 账号未登录); crawling anonymously");
  }
  const keys = keysFromWbiImg(data.wbi_img);
  if (!keys) throw new ParseError('nav: data.wbi_img carries no img/sub keys');
  ctx.memo.set(WBI_KEY, keys, WBI_TTL_MS);
  return keys;
}

export const forgetWbiKeys = (ctx: CrawlContext): void => ctx.memo.delete(WBI_KEY);

const nowS = (): number => Math.floor(Date.now() / 1000);

/** After nav failed, later requests of the process skip it this long instead of asking again per page. */
const WBI_FAILED_KEY = 'bilibili:wbi-keys-failed';
const WBI_RETRY_MS = 60_000;

async function signedQuery(ctx: CrawlContext, params: SignableParams): Promise<string> {
  let why = ctx.memo.get<string>(WBI_FAILED_KEY);
  if (why === undefined) {
    try {
      return signQuery(params, await wbiKeys(ctx), nowS());
    } catch (e) {
      if (!isFallbackable(e)) throw e;
      why = (e as Error).message;
      ctx.memo.set(WBI_FAILED_KEY, why, WBI_RETRY_MS);
    }
  }
  // Without keys the request still goes out: bilibili then decides (usually -352/-403), never a silent empty.
  ctx.warn(`WBI keys unavailable (${why}); signed requests were sent unsigned`);
  return plainQuery(params);
}

export function plainQuery(params: SignableParams): string {
  return encodePairs(
    Object.entries(params)
      .filter((e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== null)
      .map(([k, v]) => [k, String(v)] as [string, string]),
  );
}

// ---------------------------------------------------------------------------------------------

export function baseHeaders(referer: string = WWW): Record<string, string> {
  return {
    Accept: 'application/json, text/plain, */*',
    'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8',
    Referer: referer,
    Origin: new URL(referer).origin,
  };
}

export interface GetOptions {
  what: string;
  query?: SignableParams;
  /** WBI-sign the query (wts + w_rid). */
  sign?: boolean;
  referer?: string;
  /** Codes other than 0 that this endpoint answers with a usable body (nav: -101). */
  allow?: readonly number[];
}

/** One GET to a bilibili JSON endpoint: guest cookies, optional WBI signature, outcome mapping. */
export async function getJson(ctx: CrawlContext, url: string, o: GetOptions): Promise<Answer> {
  const query = o.query ?? {};
  const qs = o.sign ? await signedQuery(ctx, query) : plainQuery(query);
  const headers = baseHeaders(o.referer);
  const guest = url === ENDPOINTS.spi ? undefined : await guestCookies(ctx);
  const cookie = mergeCookies(ctx.session.cookies, guest);
  if (cookie) headers.Cookie = cookie;
  const res = await ctx.http.request({ url: qs ? `${url}?${qs}` : url, headers });
  try {
    checkStatus(res, o.what);
    return interpret(readJson(res, o.what, (m) => ctx.warn(m)), o.what, o.allow);
  } catch (e) {
    // Risk control rejected this guest identity: the next request mints a fresh one.
    if (guest && e instanceof CrawlError && e.code === 'blocked') ctx.guest.delete(GUEST_KEY);
    throw e;
  }
}

/** An error after which an equivalent endpoint is worth trying. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
}

/**
 * Tries equivalent routes in order; the next one only after a non-terminal failure. When none can be
 * replayed, the first replay miss is the one reported (it names the preferred URL).
 */
export async function firstOf<T>(routes: Array<() => Promise<T>>): Promise<T> {
  return firstAnswering(routes, isFallbackable);
}
