import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';

/*
 * BAIDUID is Baidu's anonymous visitor cookie: every tieba page sets it on a first visit, and pages answered
 * without one are likelier to end on the security check (wappass). It is minted the way a browser gets it,
 * from the Set-Cookie of whatever tieba answered, kept in the account's guest jar (bound to the jar's
 * User-Agent, which every request of the context carries), sent on every later request unless the
 * profile's own cookies carry one, and forgotten when tieba answers it with a block, so the retry gets a
 * fresh one. BDUSS (+ STOKEN) is the login; it only ever comes from a stored profile.
 */
const KEY = 'tieba:baiduid';
const TTL_MS = 30 * 24 * 3600_000;

export const hasCookie = (cookies: string | undefined, name: string): boolean => !!cookies && new RegExp(`(?:^|;\\s*)${name}=[^;]`).test(cookies);

/** A stored login: BDUSS is Baidu's session cookie. */
export const hasLogin = (ctx: CrawlContext): boolean => hasCookie(ctx.session.cookies, 'BDUSS');

export function guestCookie(ctx: CrawlContext): string | undefined {
  if (hasCookie(ctx.session.cookies, 'BAIDUID')) return undefined;
  const id = ctx.guest.get<string>(KEY);
  return id ? `BAIDUID=${id}` : undefined;
}

export function keepGuest(ctx: CrawlContext, res: Pick<HttpResponse, 'headers'>): void {
  if (hasCookie(ctx.session.cookies, 'BAIDUID')) return;
  const id = /(?:^|[\n,]\s*)BAIDUID=([^;\s,]+)/.exec(res.headers['set-cookie'] ?? '')?.[1];
  if (id && id !== ctx.guest.get<string>(KEY)) ctx.guest.set(KEY, id, TTL_MS);
}

/** Forgets the guest cookie; false when there was none (a retry would change nothing). */
export function dropGuest(ctx: CrawlContext): boolean {
  if (ctx.guest.get<string>(KEY) === undefined) return false;
  ctx.guest.delete(KEY);
  return true;
}
