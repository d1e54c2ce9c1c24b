import { randomBytes, randomInt } from 'node:crypto';
import { browserFingerprint } from '../../crawl/bytedance/abogus.js';
import { CrawlError, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';

/*
 * Anonymous web use of douyin rests on a few values the site's scripts mint in a browser (cn-platforms.md §1):
 * ttwid (a cookie from ttwid.bytedance.com's register call), msToken (a random token the web API accepts),
 * s_v_web_id / verifyFp (local, from the time) and the browser fingerprint a_bogus embeds. They are kept
 * per account in its sealed guest jar, bound to the jar's User-Agent, and re-minted when douyin refuses them.
 */
const TOKENS_KEY = 'douyin:guest-tokens';
const TTWID_KEY = 'douyin:ttwid';
const TTL_MS = 7 * 24 * 3600_000;
/** After a failed register call, requests go without ttwid for this long before asking again. */
const RETRY_MS = 10 * 60_000;

export const TTWID_REGISTER = 'https://ttwid.bytedance.com/ttwid/union/register/';

export interface GuestTokens {
  msToken: string;
  verifyFp: string;
  fingerprint: string;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random msToken in the web's form (letters, digits, '-' and '_'; 156 of them as TikTokDownloader mints). */
export function randomMsToken(length = 156): string {
  const alphabet = `${BASE62}-_`;
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

/**
 * verifyFp / s_v_web_id: "verify_" + the time in base 36 + "_" + 36 characters laid out like a UUID
 * (underscores at 8, 13, 18, 23; a '4' at 14), as the page's fingerprint script writes it.
 */
export function verifyFp(nowMs = Date.now()): string {
  const chars = BASE62.split('');
  const out: string[] = [];
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) out.push('_');
    else if (i === 14) out.push('4');
    else out.push(chars[i === 19 ? (randomInt(16) & 3) | 8 : randomInt(chars.length)]!);
  }
  return `verify_${nowMs.toString(36)}_${out.join('')}`;
}

export async function guestTokens(ctx: CrawlContext): Promise<GuestTokens> {
  const known = ctx.guest.get<GuestTokens>(TOKENS_KEY);
  if (known) return known;
  const fromSession = /(?:^|;\s*)msToken=([^;]+)/.exec(ctx.session.cookies ?? '')?.[1];
  const fresh: GuestTokens = { msToken: fromSession ?? randomMsToken(), verifyFp: verifyFp(), fingerprint: browserFingerprint() };
  ctx.guest.set(TOKENS_KEY, fresh, TTL_MS);
  return fresh;
}

type Ttwid = { value: string } | { failed: true };

const hasCookie = (cookies: string | undefined, name: string): boolean => !!cookies && new RegExp(`(?:^|;\\s*)${name}=`).test(cookies);

/** The guest cookies sent next to (never instead of) a stored login's. */
export async function guestCookies(ctx: CrawlContext): Promise<string | undefined> {
  const tokens = await guestTokens(ctx);
  const parts: string[] = [];
  if (!hasCookie(ctx.session.cookies, 'ttwid')) {
    let ttwid = ctx.guest.get<Ttwid>(TTWID_KEY);
    if (!ttwid) {
      ttwid = await mintTtwid(ctx);
      ctx.guest.set(TTWID_KEY, ttwid, 'failed' in ttwid ? RETRY_MS : TTL_MS);
    }
    if ('value' in ttwid) parts.push(`ttwid=${ttwid.value}`);
  }
  if (!hasCookie(ctx.session.cookies, 'msToken')) parts.push(`msToken=${tokens.msToken}`);
  if (!hasCookie(ctx.session.cookies, 's_v_web_id')) parts.push(`s_v_web_id=${tokens.verifyFp}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** Forgets the minted state so the next request mints it again; false when there was none to forget. */
export function dropGuest(ctx: CrawlContext): boolean {
  const had = ctx.guest.get(TOKENS_KEY) !== undefined || ctx.guest.get(TTWID_KEY) !== undefined;
  ctx.guest.delete(TOKENS_KEY);
  ctx.guest.delete(TTWID_KEY);
  return had;
}

async function mintTtwid(ctx: CrawlContext): Promise<Ttwid> {
  try {
    const res = await ctx.http.request({
      method: 'POST',
      url: TTWID_REGISTER,
      json: { region: 'cn', aid: 1768, needFid: false, service: 'www.ixigua.com', migrate_info: { ticket: '', source: 'node' }, cbUrlProtocol: 'https', union: true },
    });
    const value = /(?:^|[\n,;]\s*)ttwid=([^;\s,]+)/.exec(res.headers['set-cookie'] ?? '')?.[1];
    if (!value) throw new ParseError(`ttwid register answered HTTP ${res.status} without a ttwid cookie`);
    return { value };
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    // ttwid only lowers the odds of a refusal; the crawl goes on without it.
    if (!isReplayMiss(e)) ctx.warn(`could not mint a douyin ttwid (${e.message}); requests go out without it`);
    return { failed: true };
  }
}
