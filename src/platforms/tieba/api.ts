import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { SignatureRefused, signed } from '../../crawl/signing.js';
import type { CrawlContext, PageSigning } from '../types.js';
import { bodyText } from './charset.js';
import { dropGuest, guestCookie, hasLogin, keepGuest } from './guest.js';
import { encodePairs, SALTS, withSign, type Pair } from './sign.js';

export const WWW = 'https://tieba.baidu.com';
export const REFERER = `${WWW}/`;

/**
 * Every endpoint (cn-platforms.md §7; MC = NanmiCoder/MediaCrawler media_platform/tieba/client.py, AIOT =
 * lumina37/aiotieba src/aiotieba/api). The HTML pages and the /home/get and hottopic JSON answer anonymously
 * and unsigned; the PC JSON (/c/…, /mo/q/search) wants a logged-in profile, its tbs, and the md5 sign.
 */
export const ENDPOINTS = {
  /** Forum page, 50 threads a page by pn=0,50,100… (HTML, Bigpipe pagelets). */
  forum: `${WWW}/f`,
  /** Thread page /p/{tid}?pn= (HTML; 30 floors a page). */
  thread: `${WWW}/p/`,
  /** A floor's replies (楼中楼) as an HTML fragment: tid, pid, fid, pn (10 a page). */
  floorReplies: `${WWW}/p/comment`,
  /** Post search (HTML; often GBK): qw, rn, pn, sm (sort), only_thread. */
  search: `${WWW}/f/search/res`,
  /** A user's card as JSON {no, error, data}: ?id=<portrait> or ?un=<name> (AIOT get_uinfo_panel). */
  userPanel: `${WWW}/home/get/panel`,
  /** A user's threads as JSON {no, data: {thread_list, has_more}}: un, pn (MC, older client.py). */
  userThreads: `${WWW}/home/get/getthread`,
  /** The hot-topic board as JSON data.bang_topic.topic_list (imsyy/DailyHotApi src/routes/tieba.ts). */
  hotTopics: `${WWW}/hottopic/browse/topicList`,
  /** {tbs, is_login}: the anti-CSRF token the PC JSON posts carry, and a cheap who-am-I. */
  tbs: `${WWW}/dc/common/tbs`,
  /** PC JSON (signed, logged in): a thread's floors (MC `_get_pc_page_data`). */
  pcThread: `${WWW}/c/f/pb/page_pc`,
  /** PC JSON (signed, logged in): search cards (MC `get_notes_by_keyword`). */
  pcSearch: `${WWW}/mo/q/search/multsearch`,
  /** PC JSON (signed, logged in): a user's profile (MC `get_creator_info_by_url`). */
  pcUser: `${WWW}/c/u/pc/homeSidebarRight`,
} as const;

export type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place: every block / expired / not-found signal and what it becomes.

/** Baidu's security check: a redirect to wappass.baidu.com or its "百度安全验证" page. */
const VERIFY_PAGE = /<title>\s*百度安全验证\s*<\/title>|wappass\.baidu\.com\/static\/captcha|passport\.baidu\.com\/static\/passpc-security/;
/** A thread that is gone: tieba's error page wording. */
export const THREAD_GONE = /该贴已被删除|贴子已被删除|该贴子已被删除|贴子不存在|该贴不存在|该贴已被系统删除/;
/** A forum that is gone or closed. */
export const FORUM_GONE = /本吧暂不开放|该吧不存在|吧不存在|尚未建立|贴吧已被封禁|此吧已被封禁/;

interface Answer {
  status: number;
  text: string;
  location: string;
}

export interface OutcomeRule {
  signal: string;
  test: (a: Answer) => boolean;
  outcome: (what: string) => CrawlError;
}

/** Checked in order on every page and JSON answer before it is read. */
export const ANSWER_RULES: readonly OutcomeRule[] = [
  { signal: 'HTTP 429', test: (a) => a.status === 429, outcome: (w) => new RateLimited(`${w}: tieba answered HTTP 429`) },
  {
    signal: 'redirect to wappass.baidu.com (security check)',
    test: (a) => /^https?:\/\/wappass\.baidu\.com\//i.test(a.location),
    outcome: (w) => new Blocked(`${w}: tieba sent the request to Baidu's security check (wappass)`),
  },
  {
    signal: 'redirect to the passport login',
    test: (a) => /^https?:\/\/passport\.baidu\.com\/.*login/i.test(a.location),
    outcome: (w) => new SessionExpired(`${w}: tieba wants a login for this (it redirected to passport.baidu.com); store a tieba profile with fresh BDUSS`),
  },
  { signal: 'HTTP 403', test: (a) => a.status === 403, outcome: (w) => new Blocked(`${w}: tieba refused the request (HTTP 403)`) },
  { signal: 'HTTP 404', test: (a) => a.status === 404, outcome: (w) => new NotFound(`${w}: tieba answered HTTP 404`) },
  { signal: 'HTTP 5xx', test: (a) => a.status >= 500, outcome: (w) => new UpstreamError(`${w}: tieba answered an HTTP server error`) },
  { signal: 'other HTTP 4xx', test: (a) => a.status >= 400, outcome: (w) => new UpstreamError(`${w}: tieba answered an HTTP client error`) },
  {
    signal: 'empty 200 or "blocked" (MC client.py: account blocked)',
    test: (a) => a.status < 300 && (a.text.trim() === '' || a.text.trim() === 'blocked'),
    outcome: (w) => new Blocked(`${w}: tieba answered an empty page (how it turns away a blocked account or IP)`),
  },
  { signal: 'security check page (百度安全验证)', test: (a) => VERIFY_PAGE.test(a.text), outcome: (w) => new Blocked(`${w}: tieba answered with Baidu's security check (百度安全验证)`) },
];

export function checkAnswer(a: Answer, what: string): void {
  for (const rule of ANSWER_RULES) if (rule.test(a)) throw rule.outcome(what);
}

export interface JsonRule {
  signal: string;
  test: (code: string, msg: string, json: Json) => boolean;
  outcome: (what: string, msg: string) => CrawlError;
}

const infoOf = (json: Json): Json => (json.info && typeof json.info === 'object' ? (json.info as Json) : {});

/** A JSON answer's non-zero error_code / no / errno, by what it says. */
export const JSON_RULES: readonly JsonRule[] = [
  {
    signal: 'info.needlogin = 1, or error_code 1 with 用户未登录',
    test: (code, msg, json) => String(infoOf(json).needlogin ?? '') === '1' || (code === '1' && /未登录|登录失败|need ?login/i.test(msg)),
    outcome: (w, m) => new SessionExpired(`${w}: tieba says the login is missing or failed (${m || 'needlogin'}); store a tieba profile with fresh BDUSS`),
  },
  { signal: '删除 / 不存在 / 已注销 (deleted, no such thread, forum or user)', test: (_c, m) => /删除|不存在|已注销|已被封禁|not exist/i.test(m), outcome: (w, m) => new NotFound(`${w}: tieba says ${m}`) },
  { signal: '频繁 / 过快 (too many requests)', test: (_c, m) => /频繁|过快|稍后再试|too (?:many|fast)/i.test(m), outcome: (w, m) => new RateLimited(`${w}: tieba throttled the crawl (${m})`) },
  { signal: '验证 / 异常 / 风控 (risk control)', test: (_c, m) => /验证|异常|风控|blocked/i.test(m), outcome: (w, m) => new Blocked(`${w}: tieba's risk control answered (${m})`) },
];

/** Reads a JSON answer: blocks first, then the error code by what it says. */
export function readJson(a: Answer, what: string): Json {
  checkAnswer(a, what);
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    throw new ParseError(`${what}: expected JSON, got ${a.text.trim().startsWith('<') ? 'an HTML page' : 'something else'} (${a.text.length} characters)`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${what}: not a JSON object`);
  const json = body as Json;
  const raw = json.error_code ?? json.no ?? json.errno ?? json.err_no ?? 0;
  const code = String(raw ?? 0);
  const msg = String(json.error_msg ?? json.error ?? json.errmsg ?? json.err_msg ?? '').trim();
  if (code !== '0' && code !== '' && code !== 'null') {
    for (const rule of JSON_RULES) if (rule.test(code, msg, json)) throw rule.outcome(what, msg);
    throw new UpstreamError(`${what}: tieba answered error ${code}${msg ? ` (${msg})` : ''}`);
  }
  if (String(infoOf(json).needlogin ?? '') === '1') throw JSON_RULES[0]!.outcome(what, msg);
  return json;
}

const answerOf = (res: HttpResponse, text: string): Answer => ({ status: res.status, text, location: res.headers['location'] ? new URL(res.headers['location'], res.url).toString() : '' });

/** Any tieba JSON answer, decoded by its declared charset and read by the rules above. */
export const readResponse = (res: HttpResponse, what: string): Json => readJson(answerOf(res, res.status >= 300 && res.status < 400 ? '' : bodyText(res)), what);

// ---------------------------------------------------------------------------------------------
// Unsigned GETs (pages and /home/get JSON), with the guest BAIDUID.

export interface Got {
  res: HttpResponse;
  text: string;
}

const MAX_HOPS = 4;

async function getOnce(ctx: CrawlContext, url: string, what: string, referer: string): Promise<Got> {
  let target = url;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const cookie = guestCookie(ctx);
    const res = await ctx.http.request({
      url: target,
      followRedirects: false,
      headers: { referer, 'accept-language': 'zh-CN,zh;q=0.9', ...(cookie ? { cookie } : {}) },
    });
    keepGuest(ctx, res);
    const text = res.status >= 300 && res.status < 400 ? '' : bodyText(res);
    const answer = answerOf(res, text);
    if (res.status >= 300 && res.status < 400 && answer.location) {
      checkAnswer(answer, what);
      const next = new URL(answer.location);
      // Only tieba's own pages are followed (http→https, a canonical path); anything else is reported.
      if (next.hostname !== 'tieba.baidu.com') throw new UpstreamError(`${what}: tieba redirected off-site (${next.host})`);
      target = next.toString();
      continue;
    }
    checkAnswer(answer, what);
    return { res, text };
  }
  throw new UpstreamError(`${what}: too many redirects`);
}

/** A tieba page or unsigned JSON; a block with a guest cookie in use is retried once with a fresh one. */
export async function tiebaGet(ctx: CrawlContext, url: string, what: string, referer = REFERER): Promise<Got> {
  try {
    return await getOnce(ctx, url, what, referer);
  } catch (e) {
    if (!(e instanceof Blocked) || ctx.session.cookies || !dropGuest(ctx)) throw e;
    ctx.warn('tieba turned the guest cookie (BAIDUID) away; the request was retried with a fresh one');
    return getOnce(ctx, url, what, referer);
  }
}

export async function tiebaJson(ctx: CrawlContext, url: string, what: string, referer = REFERER): Promise<Json> {
  const got = await tiebaGet(ctx, url, what, referer);
  return readJson(answerOf(got.res, got.text), what);
}

/** The query string in the given order, encoded once. */
export const query = (pairs: ReadonlyArray<readonly [string, string | number]>): string => encodePairs(pairs.map(([k, v]) => [k, String(v)] as const));

// ---------------------------------------------------------------------------------------------
// The PC JSON: logged in, tbs, md5 sign with the PC salt.

const TBS_TTL_MS = 10 * 60_000;

/** The login's tbs from /dc/common/tbs; is_login 0 means the stored BDUSS is no longer a session. */
export async function loginTbs(ctx: CrawlContext): Promise<string> {
  const key = `tieba:tbs:${ctx.profile}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const json = await tiebaJson(ctx, ENDPOINTS.tbs, 'login check (tbs)');
  if (Number(json.is_login) !== 1) throw new SessionExpired('tieba says the stored login is not logged in (is_login 0); store a tieba profile with fresh BDUSS');
  const tbs = typeof json.tbs === 'string' ? json.tbs : '';
  if (!tbs) throw new ParseError('login check (tbs): no tbs in the answer');
  ctx.memo.set(key, tbs, TBS_TTL_MS);
  return tbs;
}

export interface PcCall {
  /** Endpoint name for CRAWLER_SIGN_MODE (tieba.<endpoint>) and messages. */
  endpoint: string;
  url: string;
  method: 'GET' | 'POST';
  params: Pair[];
  what: string;
  referer?: string;
}

/**
 * The page route: the profile's logged-in tieba page sends the request (natively signed, since the salt is
 * published) with fetch(), its own cookies and its browser's TLS, as MC does (client.py
 * `_fetch_json_by_browser`). Used when tieba refuses our own request (an empty 200, a security check).
 */
const PAGE_FETCH = `fetch(args[0], { method: args[1], credentials: 'include', headers: args[2] ? { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8', Accept: 'application/json, text/plain, */*' } : { Accept: 'application/json, text/plain, */*' }, body: args[2] || undefined }).then((r) => r.text().then((text) => ({ status: r.status, text })))`;

/** Blocks of a native signed request are refusals the page may get past (signing.ts auto mode). */
function asRefusal(e: unknown): unknown {
  return e instanceof Blocked && !(e instanceof SignatureRefused) ? new SignatureRefused(e.message) : e;
}

export async function pcCall(ctx: CrawlContext, call: PcCall): Promise<Json> {
  if (!hasLogin(ctx)) throw new SessionExpired(`${call.what}: tieba's PC API needs a logged-in profile (BDUSS)`);
  const pairs = withSign([...call.params, ['subapp_type', 'pc'], ['_client_type', '20']], SALTS.pc);
  const encoded = encodePairs(pairs);
  const url = call.method === 'GET' ? `${call.url}?${encoded}` : call.url;
  const body = call.method === 'POST' ? encoded : undefined;
  return signed(ctx, call.endpoint, {
    native: async () => {
      try {
        const res = await ctx.http.request({
          method: call.method,
          url,
          body,
          followRedirects: false,
          headers: {
            accept: 'application/json, text/plain, */*',
            referer: call.referer ?? REFERER,
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' } : {}),
          },
        });
        keepGuest(ctx, res);
        return readResponse(res, call.what);
      } catch (e) {
        throw asRefusal(e);
      }
    },
    browser: async (page: PageSigning) => {
      const got = await page.sign<{ status?: unknown; text?: unknown }>({ pageUrl: REFERER, expression: PAGE_FETCH, args: [url, call.method, body ?? null] });
      if (!got || typeof got.status !== 'number' || typeof got.text !== 'string') throw new UpstreamError(`${call.what}: the tieba page's fetch returned no answer`);
      return readJson({ status: got.status, text: got.text, location: '' }, call.what);
    },
  });
}

/** A failure after which an equivalent route may still answer. */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout'));

/**
 * The logged-in PC route first when the profile has a login, else (and after an outage or block of it) the
 * anonymous route. Falling back from a login to anonymous pages is said in the warnings, never silent; an
 * expired login is not fallen back from (it is the profile's to fix).
 */
export async function loginFirst<T>(ctx: CrawlContext, what: string, pc: (() => Promise<T>) | undefined, anonymous: () => Promise<T>): Promise<T> {
  if (!pc || !hasLogin(ctx)) return anonymous();
  try {
    return await pc();
  } catch (e) {
    if (!isFallbackable(e)) throw e;
    if (!isReplayMiss(e)) ctx.warn(`${what}: the logged-in PC API failed (${e instanceof Error ? e.message : String(e)}); answered from tieba's anonymous pages instead`);
    try {
      return await anonymous();
    } catch (again) {
      // The first failure is the one that explains the most when both routes fail alike.
      throw isReplayMiss(again) && !isReplayMiss(e) ? e : again;
    }
  }
}
