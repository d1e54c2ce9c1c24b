import { randomBytes } from 'node:crypto';
import type { CrawlContext } from '../types.js';

/*
 * The resource API wants a csrftoken cookie on every call and, on a form POST, the same value in
 * X-CSRFToken (double submit). gallery-dl mints a random one for anonymous reads (pinterest.py@86047cf67a
 * PinterestAPI.__init__); the site's own are 32 hex digits. A stored login brings its own, which wins.
 */
const TOKEN_KEY = 'pinterest:csrftoken';
const TTL_MS = 30 * 24 * 3600_000;

export const sessionCsrf = (cookies: string | undefined): string | undefined => /(?:^|;\s*)csrftoken=([^;\s]+)/.exec(cookies ?? '')?.[1];

export interface Csrf {
  token: string;
  /** The cookie to send next to the profile's (absent when the profile carries its own token). */
  cookie?: string;
  minted: boolean;
}

export function csrf(ctx: CrawlContext): Csrf {
  const own = sessionCsrf(ctx.session.cookies);
  if (own) return { token: own, minted: false };
  let token = ctx.guest.get<string>(TOKEN_KEY);
  if (!token) {
    token = randomBytes(16).toString('hex');
    ctx.guest.set(TOKEN_KEY, token, TTL_MS);
  }
  return { token, cookie: `csrftoken=${token}`, minted: true };
}

/** Forgets the minted token so the next call mints another; false when there was none. */
export function dropGuestCsrf(ctx: CrawlContext): boolean {
  const had = ctx.guest.get(TOKEN_KEY) !== undefined;
  ctx.guest.delete(TOKEN_KEY);
  return had;
}
