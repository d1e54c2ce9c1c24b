import { Cancelled, CrawlError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext, GuestJar } from '../types.js';
import { obj, parseJson } from './json.js';

/*
 * The guest `ttwid` cookie. Without one the article, video and profile pages answer the JSVMP challenge
 * page instead of their RENDER_DATA. yt-dlp (yt_dlp/extractor/toutiao.py `_real_initialize`) mints it with
 *
 *   POST https://ttwid.bytedance.com/ttwid/union/register/
 *   {"aid":24,"needFid":false,"region":"cn","service":"www.toutiao.com","union":true}
 *
 * and takes the ttwid Set-Cookie of that answer onto .toutiao.com. The answer is
 * {"status_code":0,"message":"union register success","redirect_url":"…/ttwid/union/register/callback/?…"};
 * some clients get the cookie from that callback instead (search index 71249200963, 4650637196), so the
 * callback is followed when the register answer set none. Kept per account, bound to its User-Agent.
 */

export const TTWID_KEY = 'toutiao:ttwid';
const TTWID_TTL_MS = 7 * 24 * 3600_000;
const MINT_FAILED_KEY = 'toutiao:ttwid-mint-failed';
const MINT_RETRY_MS = 10 * 60_000;

export const REGISTER_URL = 'https://ttwid.bytedance.com/ttwid/union/register/';
export const REGISTER_BODY = { aid: 24, needFid: false, region: 'cn', service: 'www.toutiao.com', union: true } as const;

class MintError extends Error {}

/** `ttwid=…` out of Set-Cookie lines (the client joins several with "\n"). */
export function ttwidFromSetCookie(setCookie: string | undefined): string | undefined {
  for (const line of (setCookie ?? '').split('\n')) {
    const m = /^\s*ttwid=([^;]+)/.exec(line);
    if (m && m[1] && m[1] !== 'deleted') return m[1];
  }
  return undefined;
}

const hasCookie = (cookies: string | undefined, name: string): boolean => !!cookies && new RegExp(`(?:^|;\\s*)${name}=`).test(cookies);

const inFlight = new WeakMap<GuestJar, Promise<string>>();

/** The Cookie header part this account adds to toutiao pages: its ttwid (minted on first use), or none. */
export async function guestCookie(ctx: CrawlContext): Promise<string | undefined> {
  if (hasCookie(ctx.session.cookies, 'ttwid')) return undefined;
  const kept = ctx.guest.get<string>(TTWID_KEY);
  if (kept) return `ttwid=${kept}`;
  const failed = ctx.memo.get<string>(MINT_FAILED_KEY);
  if (failed) return undefined;
  let pending = inFlight.get(ctx.guest);
  if (!pending) {
    pending = mint(ctx).finally(() => inFlight.delete(ctx.guest));
    inFlight.set(ctx.guest, pending);
  }
  try {
    return `ttwid=${await pending}`;
  } catch (e) {
    if (e instanceof Cancelled) throw e;
    if (!(e instanceof MintError || e instanceof CrawlError || isReplayMiss(e))) throw e;
    // The page request goes out without it; toutiao then answers the challenge page, which is reported as a block.
    ctx.memo.set(MINT_FAILED_KEY, e.message, MINT_RETRY_MS);
    if (!isReplayMiss(e)) ctx.warn(`could not mint a toutiao guest ttwid (${e.message}); pages were asked without one`);
    return undefined;
  }
}

export function forgetTtwid(ctx: CrawlContext): void {
  ctx.guest.delete(TTWID_KEY);
  ctx.memo.delete(MINT_FAILED_KEY);
}

function registerAnswer(res: HttpResponse): { redirect?: string } {
  if (res.status !== 200) throw new MintError(`ttwid register answered HTTP ${res.status}`);
  let body: Record<string, unknown> | undefined;
  try {
    body = obj(parseJson(res.text()));
  } catch {
    throw new MintError('ttwid register did not answer JSON');
  }
  const code = body?.status_code;
  if (code !== undefined && Number(code) !== 0) throw new MintError(`ttwid register answered status_code ${String(code)} (${String(body?.message ?? '')})`);
  return { redirect: typeof body?.redirect_url === 'string' ? body.redirect_url : undefined };
}

/** Only toutiao's own callback is followed: the cookie must not be collected from anywhere else. */
const isToutiaoCallback = (u: string): boolean => {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' && /(^|\.)toutiao\.com$/i.test(url.hostname) && url.pathname.startsWith('/ttwid/union/register/callback/');
  } catch {
    return false;
  }
};

async function mint(ctx: CrawlContext): Promise<string> {
  const headers = { Accept: 'application/json, text/plain, */*', Origin: 'https://www.toutiao.com', Referer: 'https://www.toutiao.com/' };
  const res = await ctx.http.request({ method: 'POST', url: REGISTER_URL, json: REGISTER_BODY, headers, followRedirects: false });
  const { redirect } = registerAnswer(res);
  let ttwid = ttwidFromSetCookie(res.headers['set-cookie']);
  if (!ttwid && redirect && isToutiaoCallback(redirect)) {
    const cb = await ctx.http.request({ url: redirect, headers, followRedirects: false });
    ttwid = ttwidFromSetCookie(cb.headers['set-cookie']);
  }
  if (!ttwid) throw new MintError('ttwid register set no ttwid cookie');
  ctx.guest.set(TTWID_KEY, ttwid, TTWID_TTL_MS);
  return ttwid;
}
