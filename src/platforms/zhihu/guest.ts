import { CrawlError, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';

/*
 * d_c0 is zhihu's device cookie and the signer's input. A login profile brings its own; a guest gets one
 * from POST https://www.zhihu.com/udid, which answers with Set-Cookie d_c0 (and a few companions): the
 * route zhihu's sign-in page takes, used by the QR-login projects (zkqiang/zhihu-login, zhihu-obsidian)
 * and guest API clients that note it "is not subject to risk control". It is kept per account in the
 * sealed guest jar, bound to the jar's User-Agent, refreshed weekly and re-minted when a signature is refused.
 */
export const UDID_URL = 'https://www.zhihu.com/udid';
const KEY = 'zhihu:guest-device';
const TTL_MS = 7 * 24 * 3600_000;
/** After a failed mint, requests go without a guest d_c0 for this long before asking again. */
const RETRY_MS = 10 * 60_000;

type Minted = { dc0: string; cookie: string } | { failed: true };

export interface Device {
  /** The d_c0 value exactly as the Cookie header carries it (quotes included), or none. */
  dc0?: string;
  /** Guest cookies to send next to (never instead of) the profile's. */
  cookie?: string;
}

export function cookieValue(cookies: string | undefined, name: string): string | undefined {
  if (!cookies) return undefined;
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookies);
  const v = m?.[1]?.trim();
  return v ? v : undefined;
}

/** name=value pairs of a Set-Cookie header (several joined by newlines); deleted ones dropped. */
export function setCookiePairs(header: string | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of (header ?? '').split('\n')) {
    const m = /^\s*([^=;\s]+)=([^;]*)/.exec(line);
    if (m && m[2]!.trim() && m[2]!.trim() !== 'deleted' && m[2]!.trim() !== '""') out.push([m[1]!, m[2]!.trim()]);
  }
  return out;
}

export async function device(ctx: CrawlContext): Promise<Device> {
  const own = cookieValue(ctx.session.cookies, 'd_c0');
  if (own) return { dc0: own };
  let minted = ctx.guest.get<Minted>(KEY);
  if (!minted) {
    minted = await mint(ctx);
    ctx.guest.set(KEY, minted, 'failed' in minted ? RETRY_MS : TTL_MS);
  }
  return 'failed' in minted ? {} : { dc0: minted.dc0, cookie: minted.cookie };
}

/** Forgets the minted device so the next request mints another; false when there was none (or a login's). */
export function dropGuest(ctx: CrawlContext): boolean {
  if (cookieValue(ctx.session.cookies, 'd_c0')) return false;
  const had = ctx.guest.get<Minted>(KEY);
  ctx.guest.delete(KEY);
  return !!had && !('failed' in had);
}

async function mint(ctx: CrawlContext): Promise<Minted> {
  try {
    const res = await ctx.http.request({
      method: 'POST',
      url: UDID_URL,
      headers: { referer: 'https://www.zhihu.com/', origin: 'https://www.zhihu.com', 'x-requested-with': 'fetch', accept: '*/*' },
      body: '',
    });
    const pairs = setCookiePairs(res.headers['set-cookie']);
    const dc0 = pairs.find(([k]) => k === 'd_c0')?.[1];
    if (!dc0) throw new ParseError(`zhihu's udid answered HTTP ${res.status} without a d_c0 cookie`);
    return { dc0, cookie: pairs.map(([k, v]) => `${k}=${v}`).join('; ') };
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    // Without d_c0 requests go unsigned; zhihu then refuses them (10003) and auto mode tries the page.
    if (!isReplayMiss(e)) ctx.warn(`could not mint a zhihu d_c0 (${e.message}); signed requests go out without one`);
    return { failed: true };
  }
}
