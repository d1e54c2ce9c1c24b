import { firstAnswering } from '../../crawl/fallback.js';
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
import type { HttpRequest, HttpResponse, Query } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { normalizeHost, type Instance } from './instance.js';

export const ENDPOINTS = {
  search: '/api/v2/search',
  // Servers before 2.4.1 only had this one (3.0 removed it): the same answer, hashtags as plain strings.
  searchV1: '/api/v1/search',
  lookup: '/api/v1/accounts/lookup',
  account: (id: string) => `/api/v1/accounts/${encodeURIComponent(id)}`,
  accountStatuses: (id: string) => `/api/v1/accounts/${encodeURIComponent(id)}/statuses`,
  status: (id: string) => `/api/v1/statuses/${encodeURIComponent(id)}`,
  context: (id: string) => `/api/v1/statuses/${encodeURIComponent(id)}/context`,
  statuses: '/api/v1/statuses',
  trendTags: '/api/v1/trends/tags',
  // Servers before 3.5 only had this (tags) endpoint; newer ones keep it as an alias.
  trendTagsLegacy: '/api/v1/trends',
  trendStatuses: '/api/v1/trends/statuses',
  trendLinks: '/api/v1/trends/links',
  tagTimeline: (tag: string) => `/api/v1/timelines/tag/${encodeURIComponent(tag)}`,
  publicTimeline: '/api/v1/timelines/public',
  homeTimeline: '/api/v1/timelines/home',
} as const;

/** Page size caps of Mastodon's API (twice each endpoint's default). */
export const MAX_LIMIT = { statuses: 40, search: 40, trendTags: 20, trendStatuses: 40, trendLinks: 20 } as const;

export interface ApiCall {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Query;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

const MAX_HOPS = 3;

function isPublicHttps(url: URL): boolean {
  if (url.protocol !== 'https:' || url.port || url.username || url.password) return false;
  try {
    normalizeHost(url.hostname);
    return true;
  } catch {
    return false;
  }
}

/**
 * One request to an instance; the token goes only to the profile's own instance. Redirects are followed by
 * hand: the caller chose the first host, so every further hop must be a public https host too (no bouncing the
 * crawler into the local network), and the token never follows a hop to another origin.
 */
export async function call(ctx: CrawlContext, inst: Instance, c: ApiCall): Promise<HttpResponse> {
  const method = c.method ?? 'GET';
  let url = `${inst.origin}${c.path}`;
  let query = c.query;
  for (let hop = 0; ; hop++) {
    const sameOrigin = new URL(url).origin === inst.origin;
    const headers: Record<string, string> = { Accept: 'application/json', ...c.headers };
    if (inst.token && sameOrigin) headers.Authorization = `Bearer ${inst.token}`;
    const req: HttpRequest = {
      // HttpRequest's method union lacks DELETE; the client passes the method through to undici unchanged.
      method: method as HttpRequest['method'],
      url,
      query,
      form: c.form,
      headers,
      followRedirects: false,
    };
    const res = await ctx.http.request(req);
    const location = res.headers['location'];
    if (res.status < 300 || res.status >= 400 || !location || method !== 'GET' || hop >= MAX_HOPS) return res;
    const next = new URL(location, res.url);
    if (next.origin !== inst.origin && !isPublicHttps(next)) {
      throw new UpstreamError(`${new URL(res.url).host} redirected to ${next.origin}, which is not a public https server`);
    }
    url = next.toString();
    query = undefined;
  }
}

export type Mode = 'read' | 'write';
export type Outcome = { kind: 'ok' } | { kind: 'rejected'; message: string };

/** Mastodon's error body is `{"error": "...", "error_description"?: "..."}`. */
export function errorMessage(res: HttpResponse): string | undefined {
  try {
    const body = JSON.parse(res.text()) as { error?: unknown; error_description?: unknown };
    const parts = [body.error, body.error_description].filter((x): x is string => typeof x === 'string' && x !== '');
    return parts.length ? parts.join(': ') : undefined;
  } catch {
    return undefined;
  }
}

const CHALLENGE = /cf-chl|challenge-platform|cf_captcha|Just a moment\.\.\.|Attention Required! \| Cloudflare|ddos-guard|anubis_challenge/i;
const LOGIN_WANTED = /authenticat|log ?in|sign ?in|access token|outside the authorized scopes|login is|confirmed e-?mail|account is (currently )?disabled/i;

function isHtml(res: HttpResponse): boolean {
  return /html/i.test(res.headers['content-type'] ?? '') || /^\s*</.test(res.text().slice(0, 200));
}

function isChallenge(res: HttpResponse): boolean {
  return isHtml(res) && CHALLENGE.test(res.text().slice(0, 20_000));
}

/** Seconds until the bucket refills: X-RateLimit-Reset is an ISO 8601 time; Retry-After is seconds. */
export function retryAfterS(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const reset = Date.parse(headers['x-ratelimit-reset'] ?? '');
  if (Number.isFinite(reset)) return Math.max(0, Math.ceil((reset - now) / 1000));
  const ra = Number(headers['retry-after']);
  return Number.isFinite(ra) && ra >= 0 ? ra : undefined;
}

/**
 * Every Mastodon answer is judged here. Reads: 401 (and the 422 "requires an authenticated user") is a missing
 * or dead login; 404/410 not found; 429 throttled; a WAF challenge page is a block; 5xx upstream. Writes: a 422
 * validation error is the server refusing the content, reported as rejected with its (localized) message.
 */
export function classify(res: HttpResponse, what: string, mode: Mode, sentToken: boolean, now: number = Date.now()): Outcome {
  const s = res.status;
  if (s >= 200 && s < 300) return { kind: 'ok' };
  const host = new URL(res.url).host;
  const msg = errorMessage(res);
  const said = `${what}: ${host} answered ${s}${msg ? ` (${msg})` : ''}`;
  if (isChallenge(res)) throw new Blocked(`${said}: a bot-check page instead of the API`);
  if (s === 401) {
    throw new SessionExpired(sentToken ? `${said}: the stored access token is invalid or revoked` : `${said}: this needs a login (store credentials access_token in the mastodon profile)`);
  }
  if (s === 429) throw new RateLimited(`${said}: rate limited`, retryAfterS(res.headers, now));
  if (s === 403) {
    if (msg && LOGIN_WANTED.test(msg)) throw new SessionExpired(`${said}: the login lacks the needed permission or is disabled`);
    if (mode === 'write') return { kind: 'rejected', message: msg ?? `HTTP 403 from ${host}` };
    if (!sentToken) throw new SessionExpired(`${said}: this server shows it only to a logged-in account`);
    throw new NotFound(`${said}: not visible to this profile`);
  }
  if (s === 404 || s === 410) throw new NotFound(said);
  if (s === 422) {
    if (msg && LOGIN_WANTED.test(msg)) throw new SessionExpired(`${said}: this needs a login (store credentials access_token in the mastodon profile)`);
    if (mode === 'write') return { kind: 'rejected', message: msg ?? `HTTP 422 from ${host}` };
    throw new InvalidInput(said);
  }
  if (s >= 500) throw new UpstreamError(said);
  throw new UpstreamError(`${said}: unexpected status`);
}

/** A read's JSON body, or the typed error the answer stands for. Never an empty result by accident. */
export function readJson<T = unknown>(res: HttpResponse, what: string, sentToken: boolean): T {
  classify(res, what, 'read', sentToken);
  const text = res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    const u = new URL(res.url);
    if (isChallenge(res)) throw new Blocked(`${what}: ${u.host} answered a bot-check page instead of JSON`);
    throw new ParseError(`${what}: expected JSON from ${u.host}${u.pathname}, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
}

export async function getJson<T = unknown>(ctx: CrawlContext, inst: Instance, path: string, query: Query | undefined, what: string): Promise<{ res: HttpResponse; data: T }> {
  const res = await call(ctx, inst, { path, query });
  return { res, data: readJson<T>(res, what, inst.token !== undefined) };
}

/** RFC 8288 Link header → rel → URL. Mastodon pages with `rel="next"` (older) and `rel="prev"` (newer). */
export function parseLink(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!m) continue;
    const rel = /rel\s*=\s*"?([^";]+)"?/i.exec(m[2]);
    if (rel) for (const r of rel[1].trim().split(/\s+/)) out[r.toLowerCase()] = m[1];
  }
  return out;
}

/** A query param of the Link header's next page (max_id for timelines, offset for trends). */
export function nextParam(res: HttpResponse, name: string): string | undefined {
  const next = parseLink(res.headers['link']).next;
  if (!next) return undefined;
  try {
    return new URL(next, res.url).searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/** An error after which an equivalent endpoint is worth trying. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'not_found'));
}

/**
 * Tries each route in order, moving on after a non-terminal failure (or a missing endpoint). When all fail, a
 * replay miss of the first route is what is reported (it names the URL the recordings should have held).
 */
export async function firstOf<T>(routes: Array<() => Promise<T>>): Promise<T> {
  return firstAnswering(routes, isFallbackable);
}
