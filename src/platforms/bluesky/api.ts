import { firstAnswering } from '../../crawl/fallback.js';
import type { HttpResponse, Query } from '../../crawl/http.js';
import { throwForStatus } from '../../crawl/http.js';
import {
  Blocked,
  CrawlError,
  InvalidInput,
  NotFound,
  ParseError,
  RateLimited,
  SessionExpired,
  UpstreamError,
  isReplayMiss,
} from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';

/*
 * XRPC over HTTP, and the one place where Bluesky's answers become typed outcomes.
 *
 * Anonymous reads go to the public AppView. The same lexicon methods are also served by api.bsky.app and
 * (proxied) by the bsky.social entryway, which is where logged-in clients send them; those are the
 * fallbacks when the preferred host fails non-terminally.
 */

export const PUBLIC_APPVIEW = 'https://public.api.bsky.app';
export const APPVIEW = 'https://api.bsky.app';
export const ENTRYWAY = 'https://bsky.social';

export const API_HOSTS = ['public.api.bsky.app', 'api.bsky.app', 'bsky.social'];

/** Hosts tried in order for a public read. */
export const READ_HOSTS = [PUBLIC_APPVIEW, APPVIEW, ENTRYWAY] as const;
/** The entryway (a PDS) answers identity questions itself; the AppView mirrors them. */
export const IDENTITY_HOSTS = [ENTRYWAY, PUBLIC_APPVIEW, APPVIEW] as const;

export const NSID = {
  getAuthorFeed: 'app.bsky.feed.getAuthorFeed',
  getFeed: 'app.bsky.feed.getFeed',
  getPostThread: 'app.bsky.feed.getPostThread',
  getPostThreadV2: 'app.bsky.unspecced.getPostThreadV2',
  searchPosts: 'app.bsky.feed.searchPosts',
  getProfile: 'app.bsky.actor.getProfile',
  getFollows: 'app.bsky.graph.getFollows',
  getTrendingTopics: 'app.bsky.unspecced.getTrendingTopics',
  getTrends: 'app.bsky.unspecced.getTrends',
  resolveHandle: 'com.atproto.identity.resolveHandle',
  createSession: 'com.atproto.server.createSession',
  refreshSession: 'com.atproto.server.refreshSession',
  createRecord: 'com.atproto.repo.createRecord',
  deleteRecord: 'com.atproto.repo.deleteRecord',
  getRecord: 'com.atproto.repo.getRecord',
} as const;

/** Methods the AppView refuses anonymously (403 "forbidden by administrative rules" since 2025-01). */
const LOGIN_ONLY = new Set<string>([NSID.searchPosts]);

/** Token problems: the access (or refresh) JWT is stale, revoked or missing. */
const TOKEN_ERRORS = new Set(['ExpiredToken', 'InvalidToken', 'AuthMissing', 'AuthRequired', 'BadJwt', 'BadJwtSignature', 'InvalidDeactivatedToken']);
/** Login problems: the stored identifier/app password cannot open a session. */
const LOGIN_ERRORS = new Set(['AuthenticationRequired', 'AuthFactorTokenRequired', 'AccountDeactivated', 'AccountTakedown']);
/** The thing asked for is gone or not viewable. */
const GONE_ERRORS = new Set([
  'NotFound',
  'RecordNotFound',
  'UnknownFeed',
  'UnknownList',
  'AccountDeactivated',
  'AccountTakedown',
  'BlockedActor',
  'BlockedByActor',
  'RepoNotFound',
  'RepoDeactivated',
  'RepoTakendown',
  'RepoSuspended',
]);
const GONE_MESSAGE = /not found|could not find|unable to resolve|does not exist|could not locate/i;
/** A host that does not serve this method: another host may. */
const NOT_SERVED = new Set(['MethodNotImplemented', 'XRPCNotSupported', 'MethodNotFound']);

/** A token the server refused; the caller may renew the session once and ask again. */
export class TokenRejected extends SessionExpired {
  readonly xrpcError: string;
  constructor(message: string, xrpcError: string) {
    super(message);
    this.xrpcError = xrpcError;
  }
}

export interface XrpcBody {
  error?: string;
  message?: string;
}

function errorBody(res: HttpResponse): XrpcBody | undefined {
  try {
    const v = JSON.parse(res.text()) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as XrpcBody) : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds until the rate-limit window resets: RateLimit-Reset is a unix time, Retry-After a delay. */
export function retryAfterOf(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const reset = Number(headers['ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, Math.ceil(reset - now / 1000));
  const after = Number(headers['retry-after']);
  return Number.isFinite(after) && after >= 0 ? after : undefined;
}

/*
 * A host's rate-limit window (RateLimit-Remaining 0, or a 429, with RateLimit-Reset in the future) is kept
 * until its reset in the account's persisted state (ctx.guest), like X's and reddit's: the account's next
 * call, on this process or another of the fleet, is refused before it goes out.
 */
const windowKey = (origin: string): string => `bluesky:window:${safeHost(origin)}`;

export function checkWindow(ctx: CrawlContext, origin: string, nsid: string, now = Date.now()): void {
  const reset = ctx.guest.get<number>(windowKey(origin));
  if (reset === undefined) return;
  const left = Math.ceil(reset - now / 1000);
  if (left <= 0) return;
  throw new RateLimited(`${nsid} on ${safeHost(origin)}: bluesky's rate-limit window for profile "${ctx.profile}" is spent; it resets at ${new Date(reset * 1000).toISOString()}`, left);
}

export function noteWindow(ctx: CrawlContext, origin: string, res: HttpResponse, now = Date.now()): void {
  if (res.status !== 429 && res.headers['ratelimit-remaining']?.trim() !== '0') return;
  const reset = Number(res.headers['ratelimit-reset']);
  // A reset already past (or none) says the window is open again: nothing to keep.
  if (!Number.isFinite(reset) || reset * 1000 <= now) return;
  ctx.guest.set(windowKey(origin), reset, Math.ceil(reset * 1000 - now));
}

export interface CallInfo {
  nsid: string;
  /** Whether a session token was sent. */
  authed: boolean;
}

/**
 * Bluesky's outcomes, in one place. Success is any 2xx with a JSON body. Errors are `{error, message}`:
 * token errors are session_expired (TokenRejected: renewable), "not found"-kinds are not_found,
 * RateLimitExceeded / 429 is rate_limited (RateLimit-* headers), an anonymous 403 on a login-only
 * method is session_expired, any other 403 (the CDN's "forbidden by administrative rules") is blocked.
 */
export function interpret(res: HttpResponse, call: CallInfo): unknown {
  const where = `${call.nsid} on ${safeHost(res.url)}`;
  if (res.status >= 200 && res.status < 300) {
    try {
      return JSON.parse(res.text()) as unknown;
    } catch {
      throw new ParseError(`${where}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
    }
  }
  const body = errorBody(res);
  const code = typeof body?.error === 'string' ? body.error : '';
  const msg = typeof body?.message === 'string' ? body.message : '';
  const said = code ? `${code}${msg ? `: ${msg}` : ''}` : `HTTP ${res.status}`;
  if (res.status === 429 || code === 'RateLimitExceeded') {
    throw new RateLimited(`${where}: bluesky throttled the crawl (${said})`, retryAfterOf(res.headers));
  }
  if (TOKEN_ERRORS.has(code)) throw new TokenRejected(`${where}: the session token was refused (${said})`, code);
  if (call.nsid === NSID.createSession || call.nsid === NSID.refreshSession) {
    if (res.status === 401 || LOGIN_ERRORS.has(code)) {
      throw new SessionExpired(`${where}: bluesky refused the stored login (${said}); check the profile's identifier and app_password`);
    }
  }
  if (res.status === 401) throw new TokenRejected(`${where}: bluesky wants a login (${said})`, code || 'HTTP 401');
  if (res.status === 403) {
    if (!call.authed && LOGIN_ONLY.has(call.nsid)) {
      throw new SessionExpired(
        `${where}: HTTP 403 (${firstLine(res)}): bluesky serves ${call.nsid} only to logged-in clients; store a bluesky profile with the credentials identifier and app_password`,
      );
    }
    if (!code) throw new Blocked(`${where}: HTTP 403 (${firstLine(res)}): bluesky's edge refused the request`);
  }
  if (NOT_SERVED.has(code)) throw new UpstreamError(`${where}: this host does not serve the method (${said})`);
  if (GONE_ERRORS.has(code) || (code === 'InvalidRequest' && GONE_MESSAGE.test(msg)) || (res.status === 404 && code)) {
    throw new NotFound(`${where}: ${said}`);
  }
  throwForStatus(res);
  if (code === 'InvalidRequest' || code === 'InvalidSwap') throw new InvalidInput(`${where}: bluesky refused the request (${said})`);
  if (res.status === 403) throw new Blocked(`${where}: ${said}`);
  throw new UpstreamError(`${where}: ${said}`);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function firstLine(res: HttpResponse): string {
  const text = res.text().replace(/<[^>]*>/g, ' ');
  const lines = text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return (lines.find((l) => /rules|denied|blocked|captcha/i.test(l)) ?? lines[0] ?? 'no body').slice(0, 120);
}

export interface XrpcCall {
  /** Origin, e.g. https://public.api.bsky.app */
  origin: string;
  nsid: string;
  method?: 'GET' | 'POST';
  query?: Query;
  json?: unknown;
  /** Access (or refresh) JWT. */
  bearer?: string;
}

export async function xrpc<T = Record<string, unknown>>(ctx: CrawlContext, call: XrpcCall): Promise<T> {
  checkWindow(ctx, call.origin, call.nsid);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (call.bearer) headers.Authorization = `Bearer ${call.bearer}`;
  const res = await ctx.http.request({
    method: call.method ?? 'GET',
    url: `${call.origin}/xrpc/${call.nsid}`,
    query: call.query,
    json: call.json,
    headers,
  });
  noteWindow(ctx, call.origin, res);
  const body = interpret(res, { nsid: call.nsid, authed: !!call.bearer });
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ParseError(`${call.nsid}: not a JSON object`);
  return body as T;
}

/** An error after which another host (or another equivalent method) is worth asking. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error' && !(e instanceof InvalidInput));
}

/**
 * Runs each attempt in turn until one answers; moves on only after a non-terminal failure. When all fail,
 * the first replay miss is reported if every failure was a miss, else the first real failure.
 */
export async function firstAnswer<T>(attempts: ReadonlyArray<() => Promise<T>>): Promise<T> {
  return firstAnswering(attempts, isFallbackable);
}

/** A public (anonymous) read, asked of each read host in turn. */
export function publicGet<T = Record<string, unknown>>(
  ctx: CrawlContext,
  nsid: string,
  query: Query,
  hosts: readonly string[] = READ_HOSTS,
): Promise<T> {
  return firstAnswer(hosts.map((origin) => () => xrpc<T>(ctx, { origin, nsid, query })));
}
