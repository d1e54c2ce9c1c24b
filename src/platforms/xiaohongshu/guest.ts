import { randomInt } from 'node:crypto';
import type { CrawlContext } from '../types.js';
import { crc32, md5Of, randomB1 } from './sign.js';

/*
 * The device cookies the site's own script writes on a first visit, minted here the same way and kept in the
 * account's guest jar (bound to its User-Agent):
 *   a1     hex(ms time) + 30 random [a-z0-9] + platform code "5" + "0" + "000", then the decimal CRC32 of all
 *          that appended, cut to 52 characters (the site's JS as xhshow-go's cookie_gen.go and several
 *          crawlers describe it; two a1 values published in public cookie samples check out against it)
 *   webId  md5(a1) (same sources; both published samples pair a1 and webId this way)
 *   b1     the fingerprint x-s-common carries; the page keeps it in localStorage, so it is kept too
 * A stored login brings its own a1 (the one its web_session was issued to), which then wins.
 */
const GUEST_KEY = 'xhs:guest';
const TTL_MS = 30 * 24 * 3600_000;
const A1_CHARS = 'abcdefghijklmnopqrstuvwxyz1234567890';
/** The platform code the web client writes for a desktop browser. */
const PLATFORM_CODE = '5';

export interface Guest {
  a1: string;
  webId: string;
  b1: string;
}

export function mintA1(nowMs = Date.now(), random = (n: number) => randomInt(n)): string {
  let tail = '';
  for (let i = 0; i < 30; i++) tail += A1_CHARS[random(A1_CHARS.length)];
  const text = `${nowMs.toString(16)}${tail}${PLATFORM_CODE}0000`;
  return `${text}${crc32(text)}`.slice(0, 52);
}

export const webIdOf = (a1: string): string => md5Of(a1);

export function cookieOf(cookies: string | undefined, name: string): string | undefined {
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookies ?? '');
  return m?.[1]?.trim() || undefined;
}

export function guest(ctx: CrawlContext): Guest {
  const known = ctx.guest.get<Guest>(GUEST_KEY);
  if (known) return known;
  const a1 = mintA1();
  const fresh: Guest = { a1, webId: webIdOf(a1), b1: randomB1() };
  ctx.guest.set(GUEST_KEY, fresh, TTL_MS);
  return fresh;
}

/** Forgets the minted device so the next request mints another; false when there was none. */
export function dropGuest(ctx: CrawlContext): boolean {
  const had = ctx.guest.get(GUEST_KEY) !== undefined;
  ctx.guest.delete(GUEST_KEY);
  return had;
}

export const hasLogin = (ctx: CrawlContext): boolean => !!cookieOf(ctx.session.cookies, 'web_session');

/** The a1 the request goes out with: the login's own, else the minted one. */
export function deviceOf(ctx: CrawlContext): { a1: string; b1: string; minted: boolean; cookie?: string } {
  const g = guest(ctx);
  const own = cookieOf(ctx.session.cookies, 'a1');
  const parts: string[] = [];
  if (!own) parts.push(`a1=${g.a1}`);
  if (!cookieOf(ctx.session.cookies, 'webId')) parts.push(`webId=${own ? webIdOf(own) : g.webId}`);
  if (!cookieOf(ctx.session.cookies, 'xsecappid')) parts.push('xsecappid=xhs-pc-web');
  return { a1: own ?? g.a1, b1: g.b1, minted: !own, cookie: parts.length ? parts.join('; ') : undefined };
}
