import { CrawlError, InvalidInput, NotFound, ParseError, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse, Query } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { type Bearer, NO_USER_LOGIN, bearer, canActAsUser, forget, hasCredentials } from './auth.js';
import { OAUTH_ORIGIN, WWW_ORIGIN, awaitBudget, checkCommon, hostPath, isJsonType, noteBudget, userAgent } from './http.js';

/*
 * Every reddit read goes through read(): the same resource is offered by oauth.reddit.com (with a bearer
 * token) and by the public www.reddit.com/<path>.json. With stored credentials oauth comes first, without
 * them the anonymous .json does, and the other host is the fallback when the first answers something
 * non-terminal (an outage, an unreadable body) or has no recording in replay. Several equivalent paths
 * (say /r/all/search and /search) are tried in the order given, the recorded one first.
 */

export interface Variant {
  path: string;
  query?: Query;
}

export interface ReadCall {
  /** For messages: "search \"cats\"", "r/pics hot". */
  what: string;
  variants: Variant[];
  /** Sent with every variant. */
  query?: Query;
  /** Sent as a POST form to oauth.reddit.com (morechildren); the anonymous route sends it as GET query. */
  form?: Record<string, string>;
  /** Needs a logged-in user's token: no anonymous route. */
  user?: boolean;
}

type Attempt = () => Promise<unknown>;

/** The "me" profile needs a logged-in user; without one reddit cannot be asked at all. */
export function requireUser(ctx: CrawlContext, what: string): void {
  if (!canActAsUser(ctx)) throw new SessionExpired(`${what}: ${NO_USER_LOGIN}`);
}

/** Writes need some token; with only app credentials reddit itself says no, and that answer is mapped below. */
export function requireCredentials(ctx: CrawlContext, what: string): void {
  if (!hasCredentials(ctx)) throw new SessionExpired(`${what}: ${NO_USER_LOGIN}`);
}

export async function read(ctx: CrawlContext, call: ReadCall): Promise<unknown> {
  if (call.user) requireUser(ctx, call.what);
  const authed = hasCredentials(ctx);
  const attempts: Attempt[] = [];
  for (const v of call.variants) {
    const oauth = () => viaOauth(ctx, call, v);
    const www = () => viaWww(ctx, call, v);
    if (call.user) attempts.push(oauth);
    else attempts.push(...(authed ? [oauth, www] : [www, oauth]));
  }
  return firstAnswer(attempts);
}

/** An error after which the next route is worth trying: an outage, an unreadable answer, or no recording. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
}

/**
 * Runs attempts in order until one answers. A terminal answer (not found, blocked, session, rate limit)
 * ends the chain at once. When every route failed non-terminally, the first real platform error wins over
 * replay misses, and the first replay miss is reported when nothing was recorded at all.
 */
export async function firstAnswer<T>(attempts: Array<() => Promise<T>>): Promise<T> {
  const failures: unknown[] = [];
  for (const attempt of attempts) {
    try {
      return await attempt();
    } catch (e) {
      if (!isFallbackable(e)) throw e;
      failures.push(e);
    }
  }
  throw failures.find((e) => !isReplayMiss(e)) ?? failures[0] ?? new UpstreamError('no route to reddit was tried');
}

async function viaOauth(ctx: CrawlContext, call: ReadCall, v: Variant): Promise<unknown> {
  let auth = await bearer(ctx);
  const send = (b: Bearer | undefined) =>
    exchange(ctx, {
      method: call.form ? 'POST' : 'GET',
      url: `${OAUTH_ORIGIN}${v.path}`,
      query: { ...call.query, ...v.query },
      form: call.form,
      bearer: b,
    });
  let res = await send(auth);
  // A token we minted can be revoked or expire early; one fresh token is worth a second read.
  if (res.status === 401 && auth && forget(ctx, auth)) {
    auth = await bearer(ctx);
    res = await send(auth);
  }
  return readJson(res, call.what, auth !== undefined);
}

async function viaWww(ctx: CrawlContext, call: ReadCall, v: Variant): Promise<unknown> {
  const path = `${v.path.replace(/\/+$/, '')}.json`;
  const res = await exchange(ctx, { method: 'GET', url: `${WWW_ORIGIN}${path}`, query: { ...call.query, ...v.query, ...call.form } });
  return readJson(res, call.what, false);
}

interface Exchange {
  method: 'GET' | 'POST';
  url: string;
  query?: Query;
  form?: Record<string, string>;
  bearer?: Bearer;
}

const MAX_HOPS = 2;

/** One request with reddit's headers and rate-limit bookkeeping; redirects are judged before being followed. */
export async function exchange(ctx: CrawlContext, x: Exchange): Promise<HttpResponse> {
  const headers: Record<string, string> = { 'User-Agent': userAgent(ctx), Accept: 'application/json' };
  if (x.bearer) headers.Authorization = `bearer ${x.bearer.token}`;
  let url = x.url;
  let query = x.query;
  for (let hop = 0; ; hop++) {
    await awaitBudget(ctx, new URL(url).host);
    const res = await ctx.http.request({ method: x.method, url, query, headers, form: x.form, followRedirects: false });
    noteBudget(ctx, res);
    if (res.status < 300 || res.status >= 400) return res;
    const location = res.headers['location'];
    if (!location) throw new UpstreamError(`HTTP ${res.status} without a Location from ${hostPath(res)}`);
    const next = new URL(location, res.url);
    judgeRedirect(res, next);
    if (hop >= MAX_HOPS || x.method !== 'GET') throw new UpstreamError(`unexpected redirect from ${hostPath(res)} to ${next.host}${next.pathname}`);
    url = next.toString();
    query = undefined;
  }
}

/** Where reddit sends a client it will not serve: each destination names the outcome. */
function judgeRedirect(res: HttpResponse, next: URL): void {
  const from = hostPath(res);
  if (/^\/subreddits\/search/.test(next.pathname)) throw new NotFound(`${from}: reddit has no such subreddit (redirected to the subreddit search)`);
  if (/^\/(login|register|account\/login)\b/.test(next.pathname)) throw new SessionExpired(`${from}: reddit wants a login for this (redirected to ${next.pathname})`);
  if (/^\/over18\b/.test(next.pathname)) {
    throw new SessionExpired(`${from}: reddit shows this over-18 content only to a logged-in account that has opted in (redirected to /over18)`);
  }
  if (!/(^|\.)reddit\.com$/i.test(next.hostname)) throw new UpstreamError(`${from}: redirected off reddit to ${next.host}`);
}

/** Reddit's error bodies: {"message": "Forbidden", "error": 403, "reason": "private"}. */
function errorReason(res: HttpResponse): string | undefined {
  try {
    const body = JSON.parse(res.text()) as Record<string, unknown>;
    return typeof body.reason === 'string' ? body.reason : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reddit's read outcomes, in one place.
 * - 401 (www-authenticate: error="invalid_token"): the token lapsed or was revoked → session_expired.
 * - 403 as JSON: the community is private, quarantined (needs the account's opt-in), gold-only or the
 *   account is suspended. Retrying does not help and the login is not the problem, so it is reported as
 *   not_found ("not visible to this account"), never as blocked. A 403 whose www-authenticate says
 *   insufficient_scope is the token's fault → session_expired. A 403 page that is not JSON is reddit's
 *   network-security block → blocked.
 * - 404 → not_found; 429 → rate_limited with x-ratelimit-reset; 5xx → upstream_error.
 * - 200 with an empty Listing is an honest empty, decided by the callers.
 */
export function readJson(res: HttpResponse, what: string, authed: boolean): unknown {
  const where = hostPath(res);
  checkCommon(res, what);
  const challenge = res.headers['www-authenticate'] ?? '';
  if (res.status === 401) {
    throw new SessionExpired(
      authed
        ? `${what}: reddit rejected the bearer token (HTTP 401${/invalid_token/.test(challenge) ? ', invalid_token' : ''} from ${where}); re-authorize the reddit profile`
        : `${what}: reddit wants credentials for ${where} (HTTP 401) and this profile stores none`,
    );
  }
  if (res.status === 403) {
    if (/insufficient_scope/.test(challenge)) throw new SessionExpired(`${what}: the stored reddit token lacks the scope for ${where} (insufficient_scope)`);
    const reason = errorReason(res);
    const why =
      reason === 'quarantined'
        ? 'the community is quarantined and the account has not opted in'
        : reason === 'private'
          ? 'the community is private'
          : reason === 'gold_only'
            ? 'the community is for premium members only'
            : reason === 'suspended'
              ? 'the account is suspended'
              : 'private, quarantined (needs an opt-in by the logged-in account) or banned';
    throw new NotFound(`${what}: reddit answered 403 Forbidden for ${where}: ${why}; not visible to this account`);
  }
  if (res.status === 404) {
    const reason = errorReason(res);
    throw new NotFound(`${what}: reddit answered 404 for ${where}${reason ? ` (${reason})` : ''}`);
  }
  if (res.status === 400) throw new InvalidInput(`${what}: reddit refused the request as malformed (HTTP 400 from ${where})`);
  if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status} from ${where}`);
  const text = res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ParseError(`${what}: expected JSON from ${where}, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
}

/** The answer of a write endpoint: a JSON body reddit produced, whatever its status; reddit's refusals are judged by write.ts. */
export async function write(ctx: CrawlContext, path: string, form: Record<string, string>, what: string): Promise<{ status: number; body: unknown; where: string }> {
  requireCredentials(ctx, what);
  const auth = await bearer(ctx);
  // One attempt, never retried: a 401 here means reddit did nothing, and the caller decides what next.
  const res = await exchange(ctx, { method: 'POST', url: `${OAUTH_ORIGIN}${path}`, query: { raw_json: 1 }, form, bearer: auth });
  const where = hostPath(res);
  checkCommon(res, what);
  if ((res.status === 401 || res.status === 403) && auth && !auth.user) {
    throw new SessionExpired(`${what}: reddit refused an app-only token (HTTP ${res.status}); ${NO_USER_LOGIN}`);
  }
  if (res.status === 401) throw new SessionExpired(`${what}: reddit rejected the bearer token (HTTP 401 from ${where}); re-authorize the reddit profile`);
  const challenge = res.headers['www-authenticate'] ?? '';
  if (res.status === 403 && /insufficient_scope/.test(challenge)) throw new SessionExpired(`${what}: the stored reddit token lacks the scope for ${where}`);
  if (!isJsonType(res) && res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status} from ${where}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text() || '{}');
  } catch {
    if (res.status >= 400) throw new UpstreamError(`${what}: HTTP ${res.status} from ${where}`);
    throw new ParseError(`${what}: expected JSON from ${where}`);
  }
  return { status: res.status, body, where };
}
