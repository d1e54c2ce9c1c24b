import { Blocked, CrawlError, InvalidInput, NotFound, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { StaleOperation } from '../../crawl/ops.js';
import type { CrawlContext } from '../types.js';
import { dropGuestToken, guestToken, guestCookies } from './guest.js';
import { WEB_BEARER, type OperationData, type OperationName } from './ops.js';
import { arr, obj, str, type Json } from './parse.js';
import { transactionHeader, forgetTransactionKeys } from './xclid.js';

export const GQL_ORIGIN = 'https://x.com';
export const GQL_PATH = '/i/api/graphql';
export const API = 'https://api.x.com';

const SOURCE = 'twitter';

// ---------------------------------------------------------------------------------------------
// Operation data (ops.ts defaults, merged with the refreshed file and CRAWLER_TWITTER_OPS).

export interface Operation extends OperationData {
  name: OperationName;
}

const isFlags = (v: unknown): v is Record<string, boolean> => !!obj(v) && Object.values(v as Json).every((x) => typeof x === 'boolean');

export function operation(ctx: CrawlContext, name: OperationName): Operation {
  const raw = obj(ctx.ops[name]);
  const queryId = str(raw?.queryId);
  if (!raw || !queryId || !/^[\w-]{6,64}$/.test(queryId)) {
    throw new StaleOperation(SOURCE, `twitter ${name}: the operation data holds no usable queryId${raw ? ` (${JSON.stringify(raw.queryId ?? null).slice(0, 60)})` : ''}`);
  }
  for (const part of ['features', 'fieldToggles'] as const) {
    if (raw[part] !== undefined && !isFlags(raw[part])) throw new StaleOperation(SOURCE, `twitter ${name}: its ${part} must map flag names to true/false`);
  }
  if (raw.variables !== undefined && !obj(raw.variables)) throw new StaleOperation(SOURCE, `twitter ${name}: its variables must be an object`);
  return { name, queryId, features: raw.features as Record<string, boolean> | undefined, fieldToggles: raw.fieldToggles as Record<string, boolean> | undefined, variables: raw.variables as Json | undefined };
}

export const bearer = (ctx: CrawlContext): string => {
  const b = str(ctx.ops.bearer);
  return b && /^[\w%=-]{40,200}$/.test(b) ? b : WEB_BEARER;
};

// ---------------------------------------------------------------------------------------------
// The login: auth_token + ct0 cookies of a logged-in x.com session.

export function cookieValue(cookies: string | undefined, name: string): string | undefined {
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookies ?? '');
  return m?.[1]?.trim() || undefined;
}

export const hasLogin = (ctx: CrawlContext): boolean => !!cookieValue(ctx.session.cookies, 'auth_token');

const ADD_PROFILE = "npx crawler profiles add twitter <name> --cookie 'auth_token=…; ct0=…' (both cookies of a logged-in x.com session; or POST /v1/profiles)";

/** The ct0 of the profile's login; a missing login is session_expired naming the profile to add. */
export function requireLogin(ctx: CrawlContext, what: string): string {
  const auth = cookieValue(ctx.session.cookies, 'auth_token');
  const ct0 = cookieValue(ctx.session.cookies, 'ct0');
  if (!auth) {
    throw new SessionExpired(`twitter ${what} needs a logged-in X profile and profile "${ctx.profile}" holds none: add one with ${ADD_PROFILE.replace('<name>', ctx.profile)}`);
  }
  if (!ct0) throw new SessionExpired(`twitter ${what}: profile "${ctx.profile}" has auth_token but no ct0 cookie (X's csrf token, sent back as x-csrf-token); store both with ${ADD_PROFILE.replace('<name>', ctx.profile)}`);
  return ct0;
}

// ---------------------------------------------------------------------------------------------
// Per-account, per-operation 15-minute windows (x-rate-limit-limit / -remaining / -reset). Kept in the
// account's persisted state (ctx.guest), not process memory: in a fleet the account's next task may run on
// another process, which must not spend a request to learn what this one was told.

const WINDOW_S = 15 * 60;

export type Route = 'login' | 'guest';
const windowKey = (ctx: CrawlContext, route: Route, op: string): string => `twitter:window:${ctx.profile}:${route}:${op}`;

/** A window that is spent refuses the call before it goes out, saying when it reopens. */
export function checkWindow(ctx: CrawlContext, route: Route, op: string, nowMs = Date.now()): void {
  const reset = ctx.guest.get<number>(windowKey(ctx, route, op));
  if (reset === undefined) return;
  const left = Math.ceil(reset - nowMs / 1000);
  if (left <= 0) return;
  throw new RateLimited(`twitter ${op}: the ${route === 'guest' ? 'guest token' : `account of profile "${ctx.profile}"`} spent X's 15-minute window for ${op}; it reopens at ${new Date(reset * 1000).toISOString()}`, left);
}

/** Remembers a spent window (remaining 0, or a refusal) until its reset; returns seconds left. */
export function noteWindow(ctx: CrawlContext, route: Route, op: string, headers: Record<string, string>, refused: boolean, nowMs = Date.now()): number | undefined {
  const remaining = Number(headers['x-rate-limit-remaining']);
  const resetHeader = Number(headers['x-rate-limit-reset']);
  const spent = refused || (headers['x-rate-limit-remaining'] !== undefined && remaining === 0);
  if (!spent) return undefined;
  const now = nowMs / 1000;
  // An unknown reset is at most one window away.
  const reset = Number.isFinite(resetHeader) && resetHeader > now ? resetHeader : now + WINDOW_S;
  ctx.guest.set(windowKey(ctx, route, op), reset, Math.ceil((reset - now) * 1000));
  return Math.max(1, Math.ceil(reset - now));
}

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place (global-platforms.md §1, twscrape queue_client.py, the fixture README).

export interface XError {
  code?: number;
  message: string;
  name?: string;
  bounce?: string;
}

export function errorsOf(body: unknown): XError[] {
  return arr(obj(body)?.errors).map((e) => {
    const o = obj(e) ?? {};
    const ext = obj(o.extensions);
    const code = Number(o.code ?? ext?.code);
    const bounce = str(obj(o.bounce)?.bounce_location) ?? str(obj(ext?.bounce)?.bounce_location) ?? str(o.bounce_location);
    return { code: Number.isFinite(code) ? code : undefined, message: str(o.message) ?? '', name: str(o.name) ?? str(ext?.name), bounce };
  });
}

/** X refused a search query (code 214: denylisted, empty or longer than 512 characters). */
export class SearchRefused extends InvalidInput {}
/** The guest token was refused: mint another once. */
export class GuestRejected extends SessionExpired {}

interface OutcomeArgs {
  what: string;
  route: Route;
  op: string;
  profile: string;
  err: XError;
  retryAfterS?: number;
}

const said = (e: XError): string => `${e.code !== undefined ? `(${e.code}) ` : ''}${e.message}`.trim();

/** Account-level codes: they stand whatever data came with them. */
const ACCOUNT_OUTCOMES: ReadonlyMap<number, (a: OutcomeArgs) => CrawlError> = new Map([
  [88, (a: OutcomeArgs) => new RateLimited(`${a.what}: X says ${said(a.err)} for ${a.op}`, a.retryAfterS)],
  [326, (a: OutcomeArgs) => new SessionExpired(`${a.what}: X locked the account of profile "${a.profile}" (${said(a.err)}); a human must unlock it at ${a.err.bounce ?? 'https://x.com/account/access'}, then store its fresh cookies`)],
  [32, (a: OutcomeArgs) => loginRefused(a)],
  [89, (a: OutcomeArgs) => loginRefused(a)],
  [215, (a: OutcomeArgs) => loginRefused(a)],
  [220, (a: OutcomeArgs) => loginRefused(a)],
  [353, (a: OutcomeArgs) => loginRefused(a)],
  [239, (a: OutcomeArgs) => new GuestRejected(`${a.what}: X refused the guest token (${said(a.err)})`)],
  [336, (a: OutcomeArgs) => staleFeatures(a)],
]);

/** Content-level codes: they explain a missing answer. */
const CONTENT_OUTCOMES: ReadonlyMap<number, (a: OutcomeArgs) => CrawlError> = new Map([
  [214, (a: OutcomeArgs) => new SearchRefused(`${a.what}: X refused the query (${said(a.err)})`)],
  [63, (a: OutcomeArgs) => new NotFound(`${a.what}: X says the account is suspended (${said(a.err)})`)],
  [50, (a: OutcomeArgs) => new NotFound(`${a.what}: X has no such account (${said(a.err)})`)],
  [34, (a: OutcomeArgs) => new NotFound(`${a.what}: X says the page does not exist (${said(a.err)})`)],
  [144, (a: OutcomeArgs) => new NotFound(`${a.what}: X has no status with that id (${said(a.err)})`)],
  [421, (a: OutcomeArgs) => new NotFound(`${a.what}: X says the status is unavailable (${said(a.err)})`)],
  [179, (a: OutcomeArgs) => new NotFound(`${a.what}: the account is protected; only its approved followers see it (${said(a.err)})`)],
  [130, (a: OutcomeArgs) => new UpstreamError(`${a.what}: X is over capacity (${said(a.err)})`)],
  [131, (a: OutcomeArgs) => new UpstreamError(`${a.what}: X had an internal error (${said(a.err)})`)],
]);

function loginRefused(a: OutcomeArgs): CrawlError {
  if (a.route === 'guest') return new GuestRejected(`${a.what}: X refused the guest token (${said(a.err)})`);
  return new SessionExpired(`${a.what}: X no longer accepts the login of profile "${a.profile}" (${said(a.err)}); store fresh auth_token and ct0 cookies`);
}

function staleFeatures(a: OutcomeArgs): CrawlError {
  const flags = /cannot be null:\s*(.+)$/i.exec(a.err.message)?.[1]?.trim();
  return new StaleOperation(SOURCE, `twitter ${a.op}: X wants feature flag${flags && flags.includes(',') ? 's' : ''} ${flags ?? '(unnamed)'} in its features (${said(a.err)})`);
}

const STALE_MESSAGE = /Query: Unspecified|PersistedQueryNotFound|Unknown operation|cannot be null/i;
const LOAD_SHED = /LoadShed/i;

/**
 * Errors that stand even when data came along (account, window, stale operation), then the content-level
 * ones when nothing usable came back. Returns undefined when the errors explain nothing of that kind.
 */
export function outcomeOf(errors: XError[], a: Omit<OutcomeArgs, 'err'>, hasData: boolean): CrawlError | undefined {
  for (const err of errors) {
    const f = err.code !== undefined ? ACCOUNT_OUTCOMES.get(err.code) : undefined;
    if (f) return f({ ...a, err });
    if (STALE_MESSAGE.test(err.message)) {
      return /cannot be null/i.test(err.message) ? staleFeatures({ ...a, err }) : new StaleOperation(SOURCE, `twitter ${a.op}: X does not know the operation (${said(err)})`);
    }
  }
  if (hasData) return undefined;
  for (const err of errors) {
    const f = err.code !== undefined ? CONTENT_OUTCOMES.get(err.code) : undefined;
    if (f) return f({ ...a, err });
    if (LOAD_SHED.test(err.message)) return new UpstreamError(`${a.what}: X is shedding load (${said(err)}); retry later`);
    if (/_Missing: No status found/i.test(err.message)) return new NotFound(`${a.what}: X has no status with that id (${said(err)})`);
  }
  return undefined;
}

const usefulData = (body: Json): boolean => {
  const data = obj(body.data);
  return !!data && Object.values(data).some((v) => v !== null && !(obj(v) && Object.keys(v as Json).length === 0));
};

export interface Answer {
  body: Json;
  errors: XError[];
}

/**
 * One answer of X's API as data, or the typed failure. `stale404` says what a bare 404 means for this
 * endpoint (an unknown GraphQL query id); undefined makes it not_found.
 */
export function readAnswer(res: HttpResponse, a: Omit<OutcomeArgs, 'err'>, stale404?: string): Answer {
  const type = res.headers['content-type'] ?? '';
  const refused = res.status === 429;
  let body: Json | undefined;
  const text = res.text();
  try {
    body = obj(JSON.parse(text));
  } catch {
    body = undefined;
  }
  const errors = body ? errorsOf(body) : [];
  if (!body && /text\/html/i.test(type) && res.status >= 400) {
    throw new Blocked(`${a.what}: X answered HTTP ${res.status} with an HTML page${res.headers['cf-ray'] ? ' (Cloudflare)' : ''} instead of JSON`);
  }
  if (refused) {
    const known = outcomeOf(errors, a, false);
    if (known && !(known instanceof RateLimited)) throw known;
    throw new RateLimited(`${a.what}: X answered HTTP 429${errors.length ? ` (${errors.map(said).join('; ')})` : ''} for ${a.op}`, a.retryAfterS);
  }
  const hasData = !!body && usefulData(body);
  const known = outcomeOf(errors, a, hasData);
  if (known) throw known;
  if (res.status === 404 && !hasData) {
    if (stale404) throw new StaleOperation(SOURCE, stale404);
    throw new NotFound(`${a.what}: X answered HTTP 404`);
  }
  if ((res.status === 401 || res.status === 403) && !hasData) {
    throw loginRefused({ ...a, err: { code: undefined, message: `HTTP ${res.status}${errors.length ? `: ${errors.map(said).join('; ')}` : ' without an explanation'}` } });
  }
  if (res.status >= 500) throw new UpstreamError(`${a.what}: X answered HTTP ${res.status}`);
  if (!body) throw new UpstreamError(`${a.what}: X answered HTTP ${res.status} with ${type || 'no content type'} (${text.length} bytes), not JSON`);
  if (res.status >= 400 && !hasData) throw new UpstreamError(`${a.what}: X answered HTTP ${res.status}${errors.length ? ` (${errors.map(said).join('; ')})` : ''}`);
  return { body, errors };
}

/** After a failure for which another route may still answer (the guest route, syndication). */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout' || e.code === 'rate_limited' || e instanceof GuestRejected));

// ---------------------------------------------------------------------------------------------
// GraphQL GET: the query built once, the transaction id over its path, the answer read above.

export interface GqlCall {
  op: OperationName;
  variables: Json;
  /** For messages: "search "tesla"". */
  what: string;
  route: Route;
}

const enc = (v: unknown): string => encodeURIComponent(JSON.stringify(v));

export function gqlQuery(op: Operation, variables: Json): string {
  const parts = [`variables=${enc({ ...(op.variables ?? {}), ...variables })}`];
  if (op.features && Object.keys(op.features).length) parts.push(`features=${enc(op.features)}`);
  if (op.fieldToggles && Object.keys(op.fieldToggles).length) parts.push(`fieldToggles=${enc(op.fieldToggles)}`);
  return parts.join('&');
}

function baseHeaders(ctx: CrawlContext): Record<string, string> {
  return {
    // The token is sent as the web client sends it, %3D and all.
    authorization: `Bearer ${bearer(ctx)}`,
    accept: '*/*',
    'accept-language': 'en-US,en;q=0.9',
    'content-type': 'application/json',
    'x-twitter-active-user': 'yes',
    'x-twitter-client-language': 'en',
    referer: `${GQL_ORIGIN}/`,
    origin: GQL_ORIGIN,
  };
}

async function routeHeaders(ctx: CrawlContext, call: GqlCall): Promise<Record<string, string>> {
  if (call.route === 'login') {
    const ct0 = requireLogin(ctx, call.what);
    return { ...baseHeaders(ctx), 'x-csrf-token': ct0, 'x-twitter-auth-type': 'OAuth2Session' };
  }
  const token = await guestToken(ctx);
  const h = { ...baseHeaders(ctx) };
  if (token) {
    h['x-guest-token'] = token;
    h.cookie = guestCookies(token);
  }
  return h;
}

async function sendOnce(ctx: CrawlContext, call: GqlCall, op: Operation, fresh: boolean): Promise<HttpResponse> {
  const path = `${GQL_PATH}/${op.queryId}/${op.name}`;
  const headers = await routeHeaders(ctx, call);
  const tid = await transactionHeader(ctx, 'GET', path, fresh);
  if (tid) headers['x-client-transaction-id'] = tid;
  return ctx.http.request({ url: `${GQL_ORIGIN}${path}?${gqlQuery(op, call.variables)}`, headers });
}

/**
 * One GraphQL read. A 404 is first taken for a stale transaction id (re-derived once), then for a stale
 * query id; a refused guest token is minted again once.
 */
export async function gql(ctx: CrawlContext, call: GqlCall): Promise<Answer> {
  const op = operation(ctx, call.op);
  checkWindow(ctx, call.route, op.name);
  const args = { what: call.what, route: call.route, op: op.name, profile: ctx.profile };
  const stale = `twitter ${op.name} (queryId ${op.queryId}) answered HTTP 404 twice, the second time with a fresh x-client-transaction-id: X no longer knows that query id`;
  let res = await sendOnce(ctx, call, op, false);
  if (res.status === 404) {
    forgetTransactionKeys(ctx);
    res = await sendOnce(ctx, call, op, true);
  }
  const retryAfterS = noteWindow(ctx, call.route, op.name, res.headers, res.status === 429 || errorsOf(safeJson(res)).some((e) => e.code === 88));
  try {
    return readAnswer(res, { ...args, retryAfterS }, stale);
  } catch (e) {
    const left = Number(res.headers['x-rate-limit-remaining']);
    if (e instanceof RateLimited && left > 0) {
      // twscrape reads "rate limit exceeded" with requests left in the window as a banned account.
      throw new RateLimited(`${e.message}, although the window still had ${left} requests: X may have restricted the account of profile "${ctx.profile}"`, e.retryAfterS);
    }
    if (e instanceof GuestRejected && call.route === 'guest' && dropGuestToken(ctx)) {
      ctx.warn('X refused the guest token; a new one was minted');
      res = await sendOnce(ctx, call, op, false);
      return readAnswer(res, args, stale);
    }
    throw e;
  }
}

function safeJson(res: HttpResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return undefined;
  }
}

/** A REST GET on x.com/i/api/1.1 (the login probe) with the login's headers. */
export async function restGet(ctx: CrawlContext, path: string, what: string): Promise<Answer> {
  const ct0 = requireLogin(ctx, what);
  const headers: Record<string, string> = { ...baseHeaders(ctx), 'x-csrf-token': ct0, 'x-twitter-auth-type': 'OAuth2Session' };
  const tid = await transactionHeader(ctx, 'GET', path, false);
  if (tid) headers['x-client-transaction-id'] = tid;
  const res = await ctx.http.request({ url: `${GQL_ORIGIN}${path}`, headers });
  return readAnswer(res, { what, route: 'login', op: path, profile: ctx.profile });
}

export { SOURCE };
