import { ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { bearer, readAnswer } from './api.js';
import { str } from './parse.js';

/*
 * Anonymous reads (a single tweet by TweetResultByRestId) go with a guest token: POST
 * api.x.com/1.1/guest/activate.json with the web bearer answers {"guest_token": "…"}; calls then send it as
 * x-guest-token and in the gt / guest_id cookies (FxEmbed fetch.ts, twikit guest/client.py, yt-dlp
 * twitter.py). It is kept in the account's guest jar, bound to its User-Agent, and minted again when X
 * refuses it (codes 239, 32, 89 or a bare 401/403 on the guest route).
 */
const TOKEN_KEY = 'twitter:guest-token';
/** Guest tokens have been seen to last about three hours; renewed well before. */
const TTL_MS = 2 * 3600_000;
export const ACTIVATE_URL = 'https://api.x.com/1.1/guest/activate.json';

type Stored = { token: string } | { none: true };

/** The guest token, minted on first use; undefined when replay has no activation recorded. */
export async function guestToken(ctx: CrawlContext): Promise<string | undefined> {
  const known = ctx.guest.get<Stored>(TOKEN_KEY);
  if (known) return 'token' in known ? known.token : undefined;
  try {
    const res = await ctx.http.request({ method: 'POST', url: ACTIVATE_URL, headers: { authorization: `Bearer ${bearer(ctx)}`, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    const { body } = readAnswer(res, { what: 'guest token activation', route: 'guest', op: 'guest/activate', profile: ctx.profile });
    const token = str(body.guest_token);
    if (!token || !/^\d{5,25}$/.test(token)) throw new ParseError('guest/activate.json answered without a guest_token');
    ctx.guest.set<Stored>(TOKEN_KEY, { token }, TTL_MS);
    return token;
  } catch (e) {
    // Recordings seldom hold the activation (it only carries a token): the read goes without one.
    if (isReplayMiss(e)) {
      ctx.guest.set<Stored>(TOKEN_KEY, { none: true }, TTL_MS);
      return undefined;
    }
    throw e;
  }
}

export function guestCookies(token: string): string {
  return `gt=${token}; guest_id=v1%3A${token}`;
}

/** Forgets the token so the next call mints one; false when there was none to forget. */
export function dropGuestToken(ctx: CrawlContext): boolean {
  const known = ctx.guest.get<Stored>(TOKEN_KEY);
  ctx.guest.delete(TOKEN_KEY);
  return !!known && 'token' in known;
}
