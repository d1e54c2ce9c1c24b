import { UpstreamError } from '../../crawl/errors.js';
import { xBogus } from '../../crawl/bytedance/xbogus.js';
import type { PageSigning } from '../types.js';
import type { Guest } from './guest.js';
import { obj } from './parse.js';
import { WEB } from './refs.js';

/*
 * Signing of www.tiktok.com/api/* requests (cn-platforms.md §2):
 *  - native: X-Bogus from the shared port (src/crawl/bytedance/xbogus.ts, the EVIL/F2 flavour both use for
 *    TikTok too) over exactly the query bytes sent. X-Gnarly is not computed natively: its only pure
 *    implementation (TDL xGnarly.py) is a time-seeded ChaCha-style PRNG with no vector to check a port
 *    against, so a port could not be shown faithful. Requests go without it; TikTok's refusals (empty 200,
 *    verify page) then fall back to the page in auto mode.
 *  - browser: window.byted_acrawler.frontierSign(url), TikTok's own signer on its pages (TikTok-Api
 *    tiktok.py generate_x_bogus evaluates exactly this), answers {"X-Bogus": …} and, where the page's
 *    build includes it, "X-Gnarly"; both are appended as given.
 */

export type Pairs = Array<[string, string]>;

/** Our own ordered encoding: built once, signed as is, sent as is (never re-encoded by the client). */
export function encodeQuery(pairs: Pairs): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** navigator.platform and the os param as a browser with this User-Agent reports them. */
function platformOf(ua: string): { platform: string; os: string } {
  if (/Macintosh|Mac OS X/.test(ua)) return { platform: 'MacIntel', os: 'mac' };
  if (/Linux/.test(ua) && !/Android/.test(ua)) return { platform: 'Linux x86_64', os: 'linux' };
  return { platform: 'Win32', os: 'windows' };
}

/**
 * The web client's common params (TikTok-Api's session params, yt-dlp's _build_web_query), then the
 * endpoint's own, then msToken last, as the page sends them.
 */
export function webParams(userAgent: string, guest: Guest, fromPage: string, own: Pairs): Pairs {
  const { platform, os } = platformOf(userAgent);
  return [
    ['aid', '1988'],
    ['app_language', 'en'],
    ['app_name', 'tiktok_web'],
    ['browser_language', 'en-US'],
    ['browser_name', 'Mozilla'],
    ['browser_online', 'true'],
    ['browser_platform', platform],
    ['browser_version', userAgent.replace(/^Mozilla\//, '')],
    ['channel', 'tiktok_web'],
    ['cookie_enabled', 'true'],
    ['device_id', guest.deviceId],
    ['device_platform', 'web_pc'],
    ['focus_state', 'true'],
    ['from_page', fromPage],
    ['history_len', '2'],
    ['is_fullscreen', 'false'],
    ['is_page_visible', 'true'],
    ['language', 'en'],
    ['os', os],
    ['priority_region', ''],
    ['referer', ''],
    ['region', 'US'],
    ['screen_height', '1080'],
    ['screen_width', '1920'],
    ['tz_name', 'UTC'],
    ['webcast_language', 'en'],
    ...own,
    ['msToken', guest.msToken],
  ];
}

export const bogusOf = (query: string, userAgent: string): string => xBogus(query, userAgent);

/** A signature value as TikTok's signer emits it: printable, no spaces, bounded. */
const SIGNATURE = /^[\x21-\x7e]{8,1024}$/;

/** Runs frontierSign in the profile's page; the answer's X-Bogus / X-Gnarly become the signature params. */
export async function pageSignature(signer: PageSigning, url: string): Promise<Pairs> {
  const answer = obj(await signer.sign<unknown>({ pageUrl: `${WEB}/`, fn: 'byted_acrawler.frontierSign', args: [url] }));
  const out: Pairs = [];
  for (const name of ['X-Bogus', 'X-Gnarly']) {
    const v = answer?.[name];
    if (typeof v === 'string' && SIGNATURE.test(v)) out.push([name, v]);
  }
  if (!out.length) throw new UpstreamError("TikTok's in-page signer (byted_acrawler.frontierSign) returned neither X-Bogus nor X-Gnarly");
  return out;
}
