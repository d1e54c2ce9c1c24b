import { Blocked, Cancelled, RateLimited, UpstreamError } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';

export const WWW_ORIGIN = 'https://www.reddit.com';
export const OAUTH_ORIGIN = 'https://oauth.reddit.com';
export const TOKEN_URL = `${WWW_ORIGIN}/api/v1/access_token`;

/**
 * Reddit's API rules ask for a unique, descriptive User-Agent naming the app and a contact account, and
 * throttle generic (browser or library default) agents hard. A profile may store its own as `user_agent`.
 */
export function userAgent(ctx: CrawlContext): string {
  const c = ctx.session.credentials ?? {};
  if (c.user_agent?.trim()) return c.user_agent.trim();
  const by = c.username?.trim() ? ` (by /u/${c.username.trim()})` : ' (self-hosted social-crawler)';
  return `nodejs:social-crawler:0.1.0${by}`;
}

/** Pages reddit serves instead of JSON when its edge refuses a client (network-security block, bot check). */
const BLOCK_PAGE = /blocked by network security|whoa there,? pardner|are you a (?:robot|human)|captcha|prove your humanity|Please wait for verification/i;

export const isJsonType = (res: HttpResponse): boolean => /json/i.test(res.headers['content-type'] ?? '');

export const hostPath = (res: HttpResponse): string => {
  const u = new URL(res.url);
  return `${u.host}${u.pathname}`;
};

/** Seconds in a numeric header, or undefined. Reddit sends x-ratelimit-* as decimals ("598.0"). */
export function headerSeconds(res: HttpResponse, name: string): number | undefined {
  const v = Number.parseFloat(res.headers[name] ?? '');
  return Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** Outcomes shared by every reddit endpoint, the token endpoint included: throttling, outages, edge blocks. */
export function checkCommon(res: HttpResponse, what: string): void {
  if (res.status === 429) {
    const wait = headerSeconds(res, 'retry-after') ?? headerSeconds(res, 'x-ratelimit-reset');
    throw new RateLimited(`${what}: reddit answered 429 Too Many Requests (${hostPath(res)})`, wait === undefined ? undefined : Math.ceil(wait));
  }
  if (res.status >= 500) throw new UpstreamError(`${what}: HTTP ${res.status} from ${hostPath(res)}`);
  if (!isJsonType(res) && (res.status === 403 || BLOCK_PAGE.test(res.text().slice(0, 20_000)))) {
    throw new Blocked(`${what}: reddit's edge refused the request (HTTP ${res.status} ${res.headers['content-type'] ?? 'page'} instead of JSON)`);
  }
}

/*
 * Rate limits. Every OAuth (and most www .json) answers carry x-ratelimit-remaining / -reset (seconds to the
 * window's end) / -used. When the budget is spent, the next request of this profile waits for the window when
 * that is short, and otherwise fails as rate_limited so a walk keeps what it has. The window is kept in the
 * account's persisted state (ctx.guest), so the account's next task sees it on whichever process runs it.
 */
const MAX_WAIT_MS = 10_000;
/** OAuth budgets belong to the token (so to the profile), anonymous ones to the address: kept apart per host. */
const rlKey = (ctx: CrawlContext, host: string): string => `reddit:ratelimit:${ctx.profile}:${host}`;

export async function awaitBudget(ctx: CrawlContext, host: string, now = Date.now()): Promise<void> {
  const until = ctx.guest.get<number>(rlKey(ctx, host));
  if (until === undefined || until <= now) return;
  const wait = until - now;
  if (wait > MAX_WAIT_MS) {
    throw new RateLimited(`reddit's rate-limit window is spent for this profile; it resets in ${Math.ceil(wait / 1000)} s`, Math.ceil(wait / 1000));
  }
  ctx.warn(`waited ${Math.ceil(wait / 1000)} s for reddit's rate-limit window to reset`);
  await sleep(wait, ctx.signal);
}

export function noteBudget(ctx: CrawlContext, res: HttpResponse, now = Date.now()): void {
  const remaining = headerSeconds(res, 'x-ratelimit-remaining');
  if (remaining === undefined || remaining > 1) return;
  const reset = headerSeconds(res, 'x-ratelimit-reset') ?? 60;
  ctx.guest.set(rlKey(ctx, new URL(res.url).host), now + reset * 1000, reset * 1000);
  ctx.warn(`reddit's rate-limit budget is nearly spent (x-ratelimit-remaining ${remaining}); it resets in ${Math.ceil(reset)} s`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
