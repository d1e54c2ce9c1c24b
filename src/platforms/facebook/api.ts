import { Blocked, CrawlError, InvalidInput, isReplayMiss, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { readAsync, title, uncomment, type AsyncAnswer } from './markup.js';
import { isFacebookHost, postUrl, type PageRef, type PostRef } from './refs.js';

export const M = 'https://m.facebook.com';
export const WWW = 'https://www.facebook.com';

type Resolved = Exclude<PostRef, { kind: 'short' }>;

/*
 * Every route is a page load: the m.facebook.com pages the public scrapers read (kevinzg/facebook-scraper's
 * recorded routes) and, for detail, the www page as the second route (yt-dlp reads www pages). No GraphQL
 * operation is used, so this adapter keeps no operation data.
 */
export const ROUTES = {
  pagePosts: (page: string): string => `${M}/${encodeURIComponent(page)}/posts/`,
  profile: (id: string): string => `${M}/profile.php?id=${id}`,
  group: (group: string): string => `${M}/groups/${encodeURIComponent(group)}/`,
  search: (words: string): string => `${M}/search/posts/?q=${encodeURIComponent(words)}`,
  /** facebook-scraper's is_logged_in: the settings page answers only a logged-in session. */
  settings: `${M}/settings`,
  /** A "see more" href of the m. site (timeline pages, comment pages), always on m.facebook.com. */
  more: (path: string): string => `${M}${path}`,
  post(ref: Resolved): string {
    switch (ref.kind) {
      case 'post':
        return ref.page ? `${M}/${encodeURIComponent(ref.page)}/posts/${ref.id}` : `${M}/${ref.id}`;
      case 'story':
        return `${M}/story.php?story_fbid=${ref.id}&id=${ref.owner}`;
      case 'video':
        return ref.page ? `${M}/${encodeURIComponent(ref.page)}/videos/${ref.id}/` : `${M}/watch/?v=${ref.id}`;
      case 'photo':
        return ref.path ? `${M}${ref.path}` : `${M}/photo.php?fbid=${ref.id}`;
      case 'group':
        return `${M}/groups/${encodeURIComponent(ref.group)}/permalink/${ref.id}/`;
    }
  },
  www: (ref: Resolved): string => postUrl(ref),
  timeline(ref: PageRef): string {
    return ref.kind === 'page' ? ROUTES.pagePosts(ref.page) : ref.kind === 'profile' ? ROUTES.profile(ref.id) : ROUTES.group(ref.group);
  },
} as const;

/** The profile holds a logged-in facebook session (c_user names the account, xs is its secret). */
export const hasLogin = (ctx: CrawlContext): boolean => /(?:^|;\s*)c_user=\d+/.test(ctx.session.cookies ?? '');

/** A login wall: a login to add (anonymous), or the stored one lapsed. Never a guess at the content. */
export function loginNeeded(ctx: CrawlContext, what: string): SessionExpired {
  if (hasLogin(ctx)) {
    return new SessionExpired(`${what}: facebook sent the stored login "${ctx.profile}" to its login page: its c_user/xs cookies lapsed; log the facebook profile "${ctx.profile}" in again`);
  }
  return new SessionExpired(
    `${what}: facebook shows this only to a logged-in viewer; add a facebook login profile (POST /v1/profiles with platform "facebook", name "${ctx.profile}" and the c_user and xs cookies of a logged-in browser, or log it in with POST /v1/profiles/facebook/${ctx.profile}/login), then retry`,
  );
}

export interface FbPage {
  status: number;
  /** The URL that answered, after the redirects followed. */
  url: string;
  redirects: string[];
  /** The body with facebook's comment-wrapped sections unwrapped. */
  html: string;
  /** An async (`for (;;);`) answer, read. */
  async?: AsyncAnswer;
  title?: string;
}

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place (global-platforms.md §4; fixtures/facebook/README.md): what each answer means.

const path = (u: string): string => {
  try {
    return new URL(u).pathname.toLowerCase();
  } catch {
    return '';
  }
};

const NOT_FOUND_TITLES = ['page not found', 'content not found'];
const TEMP_BAN_TITLES = ['you’re temporarily blocked', "you're temporarily blocked", "you can't use this feature at the moment", "you can't use this feature right now", 'you can’t use this feature at the moment', 'you can’t use this feature right now'];
const LOGIN_TITLES = ['log in to facebook | facebook', 'log into facebook | facebook', 'log in to facebook', 'log into facebook'];
const LOGIN_MARKERS = ['>You must log in to continue', 'id="login_form"', 'id="loginbutton"'];
const UNAVAILABLE = [">This content isn't available at the moment<", ">This content isn't available right now<", '"title":"This content isn\'t available right now"', '>This content isn’t available right now<'];

const isLoginPath = (p: string): boolean => /^\/(?:login(?:\.php)?|login\/|log_in)/.test(p) || p.startsWith('/login/');
const isCheckpointPath = (p: string): boolean => p.startsWith('/checkpoint');

interface Signal {
  name: string;
  /** Hard signals hold whatever else the page carries; soft ones only when no post was found on it. */
  soft?: boolean;
  test(page: FbPage): boolean;
  outcome(ctx: CrawlContext, what: string, page: FbPage): CrawlError;
}

export const SIGNALS: readonly Signal[] = [
  { name: 'login redirect', test: (p) => [p.url, ...p.redirects].some((u) => isLoginPath(path(u))), outcome: (ctx, what) => loginNeeded(ctx, what) },
  {
    name: 'checkpoint',
    test: (p) => isCheckpointPath(path(p.url)),
    // A checkpoint on a login is the account's problem (a human must clear it); on an anonymous visit it is a bot check.
    outcome: (ctx, what, p) =>
      hasLogin(ctx)
        ? new SessionExpired(`${what}: facebook put the login "${ctx.profile}" behind a checkpoint${/We suspended your account/i.test(p.html) ? ' (it says the account is suspended)' : ''}; a human must clear it in a browser, then log the profile in again`)
        : new Blocked(`${what}: facebook answered with a checkpoint page (bot check)`),
  },
  { name: 'consent page', test: (p) => path(p.url).includes('/cookie/consent'), outcome: (_ctx, what) => new Blocked(`${what}: facebook answered its cookie-consent page instead of the content`) },
  { name: 'not found title', test: (p) => NOT_FOUND_TITLES.includes((p.title ?? '').toLowerCase()), outcome: (_ctx, what, p) => new NotFound(`${what}: facebook says "${p.title}"`) },
  { name: 'temporary block', test: (p) => TEMP_BAN_TITLES.includes((p.title ?? '').toLowerCase()), outcome: (_ctx, what, p) => new Blocked(`${what}: facebook says "${p.title}" (a temporary block)`) },
  {
    name: 'account disabled',
    test: (p) => />your account has been disabled</i.test(p.html) || />We saw unusual activity on your account\./.test(p.html),
    outcome: (ctx, what) => new SessionExpired(`${what}: facebook disabled or locked the account of the login "${ctx.profile}"; a human must act on it before the profile is logged in again`),
  },
  { name: 'login title', test: (p) => LOGIN_TITLES.includes((p.title ?? '').toLowerCase()), outcome: (ctx, what) => loginNeeded(ctx, what) },
  {
    name: 'async error',
    test: (p) => !!p.async?.error,
    outcome: (ctx, what, p) => {
      const e = p.async!.error!;
      const text = `${e.summary} ${e.description}`.trim();
      if (/log ?in|logged in/i.test(text)) return loginNeeded(ctx, what);
      if (/temporarily blocked|can.t use this feature|too fast/i.test(text)) return new Blocked(`${what}: facebook says "${text}"`);
      return new UpstreamError(`${what}: facebook answered error ${e.code}${text ? ` (${text})` : ''}`);
    },
  },
  { name: 'login form', soft: true, test: (p) => LOGIN_MARKERS.some((m) => p.html.includes(m)), outcome: (ctx, what) => loginNeeded(ctx, what) },
  {
    name: 'content unavailable',
    soft: true,
    test: (p) => UNAVAILABLE.some((m) => p.html.includes(m)),
    // gallery-dl: this is what an anonymous visitor sees of content that needs an authenticated profile;
    // with a login it means the content is gone or not shared with that account.
    outcome: (ctx, what) =>
      hasLogin(ctx) ? new NotFound(`${what}: facebook says this content isn't available (deleted, or not shared with the login "${ctx.profile}")`) : loginNeeded(ctx, `${what} (facebook says "This content isn't available" to anonymous viewers)`),
  },
  { name: 'comet error root', soft: true, test: (p) => p.html.includes('{"__dr":"CometErrorRoot.react"}'), outcome: (_ctx, what) => new Blocked(`${what}: facebook answered its error root (temporarily blocked from viewing)`) },
];

export function checkHttp(res: HttpResponse, what: string): void {
  if (res.status === 429) {
    const after = Number(res.headers['retry-after']);
    throw new RateLimited(`${what}: facebook answered HTTP 429`, Number.isFinite(after) && after > 0 ? after : undefined);
  }
  if (res.status === 404) throw new NotFound(`${what}: HTTP 404`);
  if (res.status === 403) throw new Blocked(`${what}: HTTP 403, facebook refused the request`);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status}`);
}

/** Hard signals: thrown whatever else the page carries. */
export function checkPage(ctx: CrawlContext, page: FbPage, what: string): void {
  for (const s of SIGNALS) if (!s.soft && s.test(page)) throw s.outcome(ctx, what, page);
}

/** Why a page carries no post: the first soft (or hard) signal that holds, else an unreadable answer. */
export function explainMissing(ctx: CrawlContext, page: FbPage, what: string, detail: string): never {
  for (const s of SIGNALS) if (s.test(page)) throw s.outcome(ctx, what, page);
  throw new ParseError(`${what}: ${detail} (${page.url})`);
}

const MAX_HOPS = 5;

/**
 * One page load. Redirects are followed here, hop by hop, so a redirect to the login page or a checkpoint
 * is read as what it means without loading that page, and none leaves facebook.com.
 */
export async function getPage(ctx: CrawlContext, url: string, what: string): Promise<FbPage> {
  const redirects: string[] = [];
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await ctx.http.request({
      url: current,
      followRedirects: false,
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': 'en-US,en;q=0.5' },
    });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, current);
      redirects.push(current);
      const page: FbPage = { status: res.status, url: next.toString(), redirects, html: '' };
      if (!isFacebookHost(next.hostname)) throw new UpstreamError(`${what}: facebook redirected off facebook.com (${next.host})`);
      const p = next.pathname.toLowerCase();
      if (isLoginPath(p) || isCheckpointPath(p) || p.includes('/cookie/consent')) checkPage(ctx, page, what);
      if (hop + 1 >= MAX_HOPS) throw new UpstreamError(`${what}: too many redirects`);
      current = next.toString();
      continue;
    }
    checkHttp(res, what);
    const text = res.text();
    const async = readAsync(text);
    const html = uncomment(async ? async.html : text);
    const page: FbPage = { status: res.status, url: current, redirects, html, async, title: async ? undefined : title(html) };
    checkPage(ctx, page, what);
    return page;
  }
}

/** A "see more" path handed back as a cursor: it must stay a path on the m. site, on one of these routes. */
export function morePath(cursor: string, allowed: RegExp, what: string): string {
  let url: URL;
  try {
    url = new URL(cursor, M);
  } catch {
    throw new InvalidInput(`params.cursor: not a facebook ${what} cursor`);
  }
  if (!cursor.startsWith('/') || cursor.startsWith('//') || url.origin !== M || !allowed.test(url.pathname)) throw new InvalidInput(`params.cursor: not a facebook ${what} cursor`);
  return url.pathname + url.search;
}

/** A failure after which the www page may still answer. */
export const isFallbackable = (ctx: CrawlContext) => (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'timeout' || e.code === 'blocked' || (e.code === 'session_expired' && !hasLogin(ctx))));
