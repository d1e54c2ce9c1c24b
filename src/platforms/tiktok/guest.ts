import { randomInt } from 'node:crypto';
import { CrawlError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { WEB } from './refs.js';

/*
 * The anonymous identity web API calls carry: msToken (random, 156 characters of [0-9A-Za-z], as TDL's
 * fake msToken for TikTok), a web device_id (19 digits in the range yt-dlp draws from) and the ttwid cookie
 * minted by POST /ttwid/check/ (TDL ttWid.py, aid 1988). Kept in ctx.guest: persisted per account and bound
 * to its User-Agent, which every request of the context sends. A profile's own msToken / ttwid cookies win.
 */

export interface Guest {
  msToken: string;
  deviceId: string;
  ttwid?: string;
}

const KEY = 'tiktok:guest';
const TTL_MS = 7 * 24 * 3600_000;
/** Without a ttwid the identity is kept only this long, so the mint is tried again later. */
const NO_TTWID_TTL_MS = 10 * 60_000;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomMsToken(length = 156): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** 7250000000000000000 ≤ id < 7325099899999994577, drawn without floating point. */
export function randomDeviceId(): string {
  const span = 7325099899999994577n - 7250000000000000000n;
  let r = 0n;
  for (let i = 0; i < 4; i++) r = (r << 16n) | BigInt(randomInt(65536));
  return (7250000000000000000n + (r % span)).toString();
}

export function cookieValue(cookies: string | undefined, name: string): string | undefined {
  if (!cookies) return undefined;
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookies);
  return m?.[1]?.trim() || undefined;
}

async function mintTtwid(ctx: CrawlContext): Promise<string | undefined> {
  try {
    const res = await ctx.http.request({
      method: 'POST',
      url: `${WEB}/ttwid/check/`,
      headers: { Accept: 'application/json, text/plain, */*', Referer: `${WEB}/`, Origin: WEB },
      json: { aid: 1988, service: 'www.tiktok.com', union: false, unionHost: '', needFid: false, fid: '', migrate_priority: 0 },
    });
    const m = /(?:^|[\n,]\s*)ttwid=([^;,\s]+)/.exec(res.headers['set-cookie'] ?? '');
    if (m) return m[1];
    ctx.warn(`TikTok's ttwid/check answered HTTP ${res.status} without a ttwid cookie; requests go out without one`);
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    // The cookie only lowers the odds of a refusal; the crawl goes on without it.
    if (!isReplayMiss(e)) ctx.warn(`could not mint a TikTok ttwid cookie (${(e as CrawlError).code}: ${(e as CrawlError).message}); requests go out without one`);
  }
  return undefined;
}

/** This account's guest identity (minted on first use), with the profile's own msToken when it has one. */
export async function guestIdentity(ctx: CrawlContext): Promise<Guest> {
  let guest = ctx.guest.get<Guest>(KEY);
  if (!guest) {
    guest = { msToken: randomMsToken(), deviceId: randomDeviceId() };
    const ttwid = cookieValue(ctx.session.cookies, 'ttwid') ? undefined : await mintTtwid(ctx);
    if (ttwid) guest.ttwid = ttwid;
    ctx.guest.set(KEY, guest, ttwid || cookieValue(ctx.session.cookies, 'ttwid') ? TTL_MS : NO_TTWID_TTL_MS);
  }
  const own = cookieValue(ctx.session.cookies, 'msToken');
  return own ? { ...guest, msToken: own } : guest;
}

/** Drops a refused guest identity so the next call mints a fresh one; false when the profile's own token was refused. */
export function forgetGuest(ctx: CrawlContext): boolean {
  if (cookieValue(ctx.session.cookies, 'msToken')) return false;
  ctx.guest.delete(KEY);
  return true;
}

/** Guest cookies for a request; the HttpClient adds the profile's cookies, which win on a clash. */
export function guestCookie(ctx: CrawlContext, guest: Guest): string | undefined {
  const parts: string[] = [];
  if (guest.ttwid && !cookieValue(ctx.session.cookies, 'ttwid')) parts.push(`ttwid=${guest.ttwid}`);
  if (!cookieValue(ctx.session.cookies, 'msToken')) parts.push(`msToken=${guest.msToken}`);
  return parts.length ? parts.join('; ') : undefined;
}
