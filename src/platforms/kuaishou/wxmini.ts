import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { checkResult, checkStatus, ENDPOINTS, readJson, type Json } from './api.js';

/*
 * The Kuaishou WeChat mini-program's REST API (wxmini-api.uyouqu.com/rest/wd/…; recorded 2020 in
 * fixtures/kuaishou/*-wxmini-*.har, unsigned then, cookie-authenticated with the mini-program's own
 * session: clientid, kpn=WECHAT_SMALL_APP, did=wxo_…, session_key, kuaishou.wechat.app_st). That session
 * is not a web login, and the two share cookie names (did), so a profile carries it apart from its web
 * cookies, as credentials:
 *   wxmini_cookie      the mini-program's Cookie header (required for these routes)
 *   wxmini_user_id     its account id, sent as thirdPartyUserId by the recommend feed (optional)
 *   wxmini_user_agent  the WeChat client's User-Agent (optional)
 * The host is kept out of the adapter's `hosts`, so the web cookie jar never reaches it.
 */

const REFERER = 'https://servicewechat.com/wx79a83b1a1e8a7978/231/page-frame.html';

export interface MiniSession {
  cookie: string;
  userId?: string;
  userAgent?: string;
}

export function miniSession(ctx: CrawlContext): MiniSession | undefined {
  const c = ctx.session.credentials ?? {};
  const cookie = (c.wxmini_cookie ?? '').trim();
  if (!cookie) return undefined;
  return { cookie, userId: c.wxmini_user_id?.trim() || undefined, userAgent: c.wxmini_user_agent?.trim() || undefined };
}

export function requireMiniSession(ctx: CrawlContext, what: string): MiniSession {
  const s = miniSession(ctx);
  if (!s) {
    throw new SessionExpired(
      `${what} needs a kuaishou profile carrying a WeChat mini-program session: profile "${ctx.profile}" has no credentials.wxmini_cookie (the web has no unsigned equivalent)`,
    );
  }
  return s;
}

/** One POST to the mini-program API with the profile's mini-program session. */
export async function wxPost(ctx: CrawlContext, session: MiniSession, url: string, body: Json, what: string): Promise<Json> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Referer: REFERER, Cookie: session.cookie };
  if (session.userAgent) headers['User-Agent'] = session.userAgent;
  const res = await ctx.http.request({ method: 'POST', url, headers, body: JSON.stringify(body) });
  checkStatus(res, what);
  return checkResult(readJson(res, what), what);
}

export const wxSearchFeed = (ctx: CrawlContext, s: MiniSession, keyword: string, pcursor: string, ussid: string) =>
  wxPost(ctx, s, ENDPOINTS.wxSearchFeed, { keyword, pcursor, ussid }, `mini-program video search "${keyword}"`);

export const wxSearchUser = (ctx: CrawlContext, s: MiniSession, keyword: string) =>
  wxPost(ctx, s, ENDPOINTS.wxSearchUser, { keyword, pcursor: '', ussid: '' }, `mini-program user search "${keyword}"`);

export const wxUserProfile = (ctx: CrawlContext, s: MiniSession, eid: string) => wxPost(ctx, s, ENDPOINTS.wxUserProfile, { eid }, `mini-program profile of ${eid}`);

/** The recommend feed's request as the mini-program sends it (KsRecommendRequest in the recording). */
export function wxRecommend(ctx: CrawlContext, s: MiniSession): Promise<Json> {
  const body: Json = { count: 8, portal: 1, pageType: 2, sourceFrom: 2 };
  if (s.userId) body.thirdPartyUserId = s.userId;
  body.extraRequestInfo = JSON.stringify({ scene: 1001 });
  return wxPost(ctx, s, ENDPOINTS.wxRecommend, body, 'mini-program recommend feed');
}
