import { Blocked, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { opsEnvName } from '../../crawl/ops.js';
import type { CrawlContext } from '../types.js';
import { firstMatch, SOURCE, webConfig } from './ops.js';

/*
 * The web GraphQL wants what one page load of www.threads.com hands out: the LSD token (form `lsd` and
 * X-FB-LSD) and the csrftoken cookie (X-CSRFToken), plus the mid/ig_did cookies that come with them
 * (FxEmbed fetchThreadsSession). They are kept in the account's guest jar, bound to its User-Agent, and
 * minted again once when the GraphQL answers a page instead of JSON (the token was refused).
 */

export interface WebSession {
  lsd?: string;
  /** A logged-in page's fb_dtsg. */
  dtsg?: string;
  csrftoken?: string;
  /** Cookies the page set (never the profile's own), as a Cookie header. */
  cookies?: string;
  /** False when no page could be loaded (replay without a page recording): requests go without tokens. */
  minted: boolean;
}

const KEY = 'threads:web-session';
const TTL_MS = 30 * 60_000;
/** No page to load (replay without its recording): not asked again for a while. */
const UNMINTED_TTL_MS = 5 * 60_000;

export const cookieValue = (cookies: string | undefined, name: string): string | undefined =>
  new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookies ?? '')?.[1] || undefined;

/** A stored login: a web sessionid cookie, or an app bearer token (credential `igt`). */
export const hasLogin = (ctx: CrawlContext): boolean => !!cookieValue(ctx.session.cookies, 'sessionid') || !!bearerOf(ctx);

export function bearerOf(ctx: CrawlContext): string | undefined {
  const raw = ctx.session.credentials?.igt?.trim();
  if (!raw) return undefined;
  return /^Bearer /i.test(raw) ? raw : `Bearer ${raw.startsWith('IGT:') ? raw : `IGT:2:${raw}`}`;
}

export const isLoginPath = (url: string): boolean => {
  try {
    return /^\/(?:accounts\/)?login\b/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
};

const CHALLENGE = /\/challenge\/|checkpoint_required|\/checkpoint\/|captcha/i;

/** name=value pairs of the Set-Cookie lines (HttpClient joins several with newlines); deletions dropped. */
export function setCookies(res: HttpResponse): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (res.headers['set-cookie'] ?? '').split('\n')) {
    const m = /^\s*([^=;\s]+)=([^;]*)/.exec(line);
    if (!m) continue;
    const value = m[2]!.trim();
    if (!value || value === '""' || value === 'deleted') continue;
    out.set(m[1]!, value);
  }
  return out;
}

/** What a loaded page says about the session: a login wall, a challenge, a throttle, or nothing. */
export function checkPage(ctx: CrawlContext, res: HttpResponse, what: string): void {
  if (res.status === 429) throw new RateLimited(`${what}: HTTP 429 from threads`);
  if (isLoginPath(res.url)) {
    throw new SessionExpired(
      ctx.session.cookies
        ? `${what}: threads sent the stored login to its login page; log the "${ctx.profile}" threads profile in again`
        : `${what}: threads sends anonymous visitors to its login page; store a threads login profile ("${ctx.profile}")`,
    );
  }
  if (CHALLENGE.test(res.url)) throw new Blocked(`${what}: threads answered with a challenge page (${new URL(res.url).pathname})`);
  if (res.status >= 500) throw new UpstreamError(`${what}: HTTP ${res.status} from threads`);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status} from threads`);
}

async function mint(ctx: CrawlContext): Promise<WebSession> {
  const web = webConfig(ctx);
  let res: HttpResponse;
  try {
    res = await ctx.http.request({
      url: web.session_page,
      headers: {
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'accept-language': 'en-US,en;q=0.9',
        'sec-fetch-dest': 'document',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-site': 'none',
        'sec-fetch-user': '?1',
        'upgrade-insecure-requests': '1',
      },
    });
  } catch (e) {
    // Recordings without the page still answer the queries (the 2023 ones were made without it).
    if (isReplayMiss(e)) return { minted: false };
    throw e;
  }
  checkPage(ctx, res, 'threads session page');
  const html = res.text();
  const set = setCookies(res);
  const lsd = firstMatch(html, web.lsd_patterns);
  const dtsg = firstMatch(html, web.dtsg_patterns);
  const csrftoken = set.get('csrftoken') ?? cookieValue(ctx.session.cookies, 'csrftoken');
  if (!lsd && !dtsg) {
    if (CHALLENGE.test(html)) throw new Blocked('threads session page: threads answered with a challenge instead of its page');
    throw new UpstreamError(
      `threads session page ${web.session_page} carried no LSD token (patterns web.lsd_patterns); the page changed: patch web.lsd_patterns in the file named by ${opsEnvName(SOURCE)}`,
    );
  }
  const cookies = [...set].map(([k, v]) => `${k}=${v}`).join('; ');
  return { lsd, dtsg, csrftoken, cookies: cookies || undefined, minted: true };
}

export async function webSession(ctx: CrawlContext): Promise<WebSession> {
  const known = ctx.guest.get<WebSession>(KEY);
  if (known) return known;
  const fresh = await mint(ctx);
  ctx.guest.set(KEY, fresh, fresh.minted ? TTL_MS : UNMINTED_TTL_MS);
  return fresh;
}

/** Forgets the session so the next request mints it again; false when there was none to forget. */
export function dropWebSession(ctx: CrawlContext): boolean {
  const had = ctx.guest.get<WebSession>(KEY)?.minted === true;
  ctx.guest.delete(KEY);
  return had;
}
