import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { StaleOperation } from '../../crawl/ops.js';
import type { CrawlContext } from '../types.js';
import { parseJsonKeepingIds } from './json.js';
import { appConfig, operation, SOURCE, webConfig, type OperationName } from './ops.js';
import { obj, objs, str, type Json } from './parse.js';
import { bearerOf, checkPage, cookieValue, dropWebSession, hasLogin, isLoginPath, webSession, type WebSession } from './session.js';

/** The app's private API routes (global-platforms.md §3; FxEmbed providers/threads/private-api.ts). */
export const APP_PATHS = {
  profileFeed: (pk: string) => `text_feed/${pk}/profile/`,
  replies: (pk: string) => `text_feed/${pk}/replies/`,
  userInfo: (pk: string) => `users/${pk}/info/`,
  usernameInfo: (handle: string) => `users/${encodeURIComponent(handle)}/usernameinfo/`,
  userSearch: 'users/search/',
  postSearch: 'fbsearch/text_app/serp/',
  /** Who am I: the login's own account (instagrapi accounts_current_user). */
  currentUser: 'accounts/current_user/',
} as const;

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place: what Threads (web GraphQL, app private API, official Graph API) says, mapped.

export interface Said {
  status: number;
  message: string;
  type?: string;
  code?: number;
  subcode?: number;
  /** The request carried a stored login. */
  loggedIn: boolean;
  /** The web operation asked, for stale-id messages. */
  op?: { name: string; doc_id: string };
}

type Rule = { when: (s: Said) => boolean; then: (what: string, s: Said) => CrawlError };

const note = (s: Said): string => s.message || (s.type ?? '') || `HTTP ${s.status}`;

export const OUTCOMES: readonly Rule[] = [
  // "The GraphQL document with ID 1 was not found." (measured 2026; Casberi threads-live self-test).
  {
    when: (s) => !!s.op && /document with id|persisted query|unknown doc_id|doc_id .*(?:not found|invalid)/i.test(s.message),
    then: (w, s) => new StaleOperation(SOURCE, `${w}: threads ${s.op!.name} (doc_id ${s.op!.doc_id}) is unknown to the platform ("${s.message}")`),
  },
  {
    when: (s) => !!s.op && /relayprovider|required variable|variable .* (?:was not provided|is required)/i.test(s.message),
    then: (w, s) => new StaleOperation(SOURCE, `${w}: threads ${s.op!.name} wants variables its operation data lacks ("${s.message}"); its relay provider flags (${s.op!.name}.providers) are stale`),
  },
  {
    when: (s) => s.status === 429 || /please wait a few minutes|rate.?limit|too many requests|try again later/i.test(s.message) || s.type === 'rate_limit_error' || (s.type === 'OAuthException' && [4, 17, 32, 613].includes(s.code ?? -1)),
    then: (w, s) => new RateLimited(`${w}: threads throttled the crawl (${note(s)})`),
  },
  {
    when: (s) => /checkpoint_required|challenge_required|feedback_required|sentry_block|spam|suspicious|action.?blocked/i.test(`${s.message} ${s.type ?? ''}`),
    then: (w, s) => new Blocked(`${w}: threads asks for a checkpoint or blocked the action (${note(s)}); pass it in a browser with this account`),
  },
  {
    when: (s) => /login_required|not logged in|log ?in to continue|login required/i.test(`${s.message} ${s.type ?? ''}`) || (s.type === 'OAuthException' && s.code === 190),
    then: (w, s) =>
      new SessionExpired(s.loggedIn ? `${w}: threads no longer knows the stored login (${note(s)}); log the threads profile in again` : `${w}: threads wants a login for this (${note(s)}); store a threads login profile`),
  },
  {
    when: (s) => s.status === 404 || /\bnot found\b|not_found|does not exist|no longer available|not found or unavailable|has been deleted|isn'?t available/i.test(s.message) || (s.code === 100 && s.subcode === 33),
    then: (w, s) => new NotFound(`${w}: threads says ${note(s)}`),
  },
  {
    when: (s) => s.status === 401 || s.status === 403,
    then: (w, s) => (s.loggedIn ? new SessionExpired(`${w}: threads refused the stored login (${note(s)}); log the threads profile in again`) : new Blocked(`${w}: threads refused the anonymous request (${note(s)})`)),
  },
];

export function outcomeOf(what: string, s: Said): CrawlError {
  for (const rule of OUTCOMES) if (rule.when(s)) return rule.then(what, s);
  return new UpstreamError(`${what}: threads answered ${note(s)}${s.status >= 400 ? ` (HTTP ${s.status})` : ''}`);
}

/** The complaint an answer carries, in any of Meta's error envelopes; undefined for a clean answer. */
export function complaintOf(json: Json, status: number): Omit<Said, 'loggedIn'> | undefined {
  const first = objs(json.errors)[0];
  // Errors next to an answered root are about optional fields: the answer stands.
  const answered = Object.values(obj(json.data) ?? {}).some((v) => v !== null && v !== undefined);
  if (first && !answered) {
    const code = Number(first.code ?? first.api_error_code);
    return { status, message: str(first.message) ?? str(first.summary) ?? str(first.description) ?? 'an error', code: Number.isFinite(code) ? code : undefined };
  }
  // The comet envelope: {"error": 1357001, "errorSummary": …, "errorDescription": …}.
  if (typeof json.error === 'number') return { status, code: json.error, message: [str(json.errorSummary), str(json.errorDescription)].filter(Boolean).join(': ') || `error ${json.error}` };
  // The Graph API's: {"error": {"message", "type": "THApiException", "code", "error_subcode"}}.
  const graph = obj(json.error);
  if (graph) return { status, message: str(graph.message) ?? 'an error', type: str(graph.type), code: numberOf(graph.code), subcode: numberOf(graph.error_subcode) };
  // The private API's: {"status": "fail", "message": …, "error_type": …}.
  if (json.status === 'fail') return { status, message: str(json.message) ?? str(json.feedback_message) ?? 'status fail', type: str(json.error_type) };
  // The Graph API's publishing container: HTTP 200 {"status": "ERROR", "error_message": …} (restfb#1591).
  if (json.status === 'ERROR') return { status, message: `the publishing container failed (${str(json.error_message) ?? 'no reason given'})` };
  return undefined;
}

const numberOf = (v: unknown): number | undefined => {
  const n = Number(v);
  return v !== undefined && v !== null && Number.isFinite(n) ? n : undefined;
};

/** A page where JSON was expected: the web's token was refused (the session is minted again once). */
class TokenRefused extends Blocked {}

const CHALLENGE_PAGE = /\/challenge\/|checkpoint|captcha/i;

/**
 * Any Threads JSON answer: status, redirects to the login, HTML instead of JSON, the `for (;;);` guard,
 * the error envelopes. Ids past 2^53 stay strings.
 */
export function readAnswer(res: HttpResponse, what: string, loggedIn: boolean, op?: Said['op']): Json {
  if (isLoginPath(res.url) || isLoginPath(res.headers['location'] ?? 'http://x/')) {
    throw new SessionExpired(loggedIn ? `${what}: threads sent the stored login to its login page; log the threads profile in again` : `${what}: threads sends anonymous requests to its login page; store a threads login profile`);
  }
  const text = res.text().replace(/^\s*for\s*\(;;\);/, '').trim();
  let json: Json | undefined;
  if (text.startsWith('{')) {
    try {
      json = obj(parseJsonKeepingIds(text));
    } catch {
      throw new ParseError(`${what}: the answer is not valid JSON (${text.length} characters)`);
    }
  }
  if (json) {
    const said = complaintOf(json, res.status);
    if (said) throw outcomeOf(what, { ...said, loggedIn, op });
  }
  if (res.status >= 300 || !json) {
    const status = res.status >= 300 ? res.status : 200;
    if (status === 200 && /^<|^$/.test(text)) {
      if (CHALLENGE_PAGE.test(text)) throw new Blocked(`${what}: threads answered with a challenge page instead of JSON`);
      throw new TokenRefused(`${what}: threads answered a page instead of JSON (the session's lsd/csrftoken were refused)`);
    }
    if (!json && status < 300) throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${text.length} characters)`);
    throw outcomeOf(what, { status, message: '', loggedIn, op });
  }
  return json;
}

// ---------------------------------------------------------------------------------------------
// The web GraphQL.

const PROVIDER_PREFIX = '__relay_internal__pv__';

/** The variables as the site writes them; the 2023 operations took numeric ids as JSON numbers. */
export function variablesText(variables: Json, providers: Record<string, boolean> | undefined, numericIds: boolean): string {
  const all: Json = { ...variables };
  for (const [k, v] of Object.entries(providers ?? {})) all[`${PROVIDER_PREFIX}${k}`] = v;
  const text = JSON.stringify(all);
  return numericIds ? text.replace(/"(postID|userID|mediaID)":"(\d+)"/g, '"$1":$2') : text;
}

async function postQuery(ctx: CrawlContext, name: OperationName, variables: Json, what: string, session: WebSession, referer?: string): Promise<Json> {
  const op = operation(ctx, name);
  const web = webConfig(ctx);
  const url = op.url ?? web.url;
  const origin = new URL(url).origin;
  const loggedIn = hasLogin(ctx);
  const csrf = cookieValue(ctx.session.cookies, 'csrftoken') ?? session.csrftoken;
  const form = new URLSearchParams();
  if (session.lsd) form.set('lsd', session.lsd);
  if (session.dtsg) form.set('fb_dtsg', session.dtsg);
  form.set('fb_api_caller_class', 'RelayModern');
  form.set('fb_api_req_friendly_name', name);
  form.set('variables', variablesText(variables, op.providers, op.numeric_ids === true));
  form.set('server_timestamps', 'true');
  form.set('doc_id', op.doc_id);
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-language': 'en-US,en;q=0.9',
    'content-type': 'application/x-www-form-urlencoded',
    origin,
    referer: referer ?? `${origin}/`,
    'x-ig-app-id': web.app_id,
    'x-fb-friendly-name': name,
    'x-asbd-id': web.asbd_id,
    'x-bloks-version-id': web.bloks_version_id,
    // Measured: without the fetch metadata Threads answers every query with a page.
    'sec-fetch-site': 'same-origin',
    'sec-fetch-mode': 'cors',
    'sec-fetch-dest': 'empty',
  };
  if (op.root) headers['x-root-field-name'] = op.root;
  if (session.lsd) headers['x-fb-lsd'] = session.lsd;
  if (csrf) headers['x-csrftoken'] = csrf;
  if (!loggedIn) headers['x-logged-out-threads-migrated-request'] = 'true';
  if (session.cookies) headers.cookie = session.cookies;
  const res = await ctx.http.request({ method: 'POST', url, body: form.toString(), headers });
  return readAnswer(res, what, loggedIn, { name, doc_id: op.doc_id });
}

/**
 * One web GraphQL operation, with the page's session minted on first use and once more when Threads
 * answers a page instead of JSON. `remint: false` for the retired generation (not worth a page load).
 */
export async function graphql(ctx: CrawlContext, name: OperationName, variables: Json, what: string, opts: { referer?: string; remint?: boolean } = {}): Promise<Json> {
  const session = await webSession(ctx);
  try {
    return await postQuery(ctx, name, variables, what, session, opts.referer);
  } catch (e) {
    if (!(e instanceof TokenRefused)) throw e;
    if (opts.remint === false || !session.minted || !dropWebSession(ctx)) throw new Blocked(e.message);
    ctx.warn('threads refused the web session (a page came back instead of JSON); it was minted again');
    const again = await webSession(ctx);
    try {
      return await postQuery(ctx, name, variables, what, again, opts.referer);
    } catch (e2) {
      if (e2 instanceof TokenRefused) throw new Blocked(`${e2.message}, also with a fresh session`);
      throw e2;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The app's private API (a login: the web's sessionid cookie, or an IGT bearer).

export function requireLogin(ctx: CrawlContext, what: string): void {
  if (hasLogin(ctx)) return;
  throw new SessionExpired(
    `${what} needs a threads login: store a threads profile "${ctx.profile}" with the cookies of a www.threads.com login (sessionid, csrftoken, ds_user_id), e.g. POST /v1/profiles/threads/${ctx.profile}/login, or an app token as credential igt`,
  );
}

export async function appGet(ctx: CrawlContext, path: string, query: Record<string, string | number | undefined>, what: string, opts: { referer?: string; acceptHint?: string } = {}): Promise<Json> {
  requireLogin(ctx, what);
  const app = appConfig(ctx);
  const web = webConfig(ctx);
  const bearer = bearerOf(ctx);
  const qs = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-language': 'en-US,en;q=0.9',
    'x-ig-app-id': app.app_id,
    'x-ig-capabilities': app.capabilities,
    'x-ig-www-claim': '0',
    'x-ig-accept-hint': opts.acceptHint ?? 'feed',
  };
  const csrf = cookieValue(ctx.session.cookies, 'csrftoken');
  if (csrf) headers['x-csrftoken'] = csrf;
  if (bearer) {
    headers.authorization = bearer;
    headers['user-agent'] = app.android_user_agent;
  } else {
    // A web login keeps its browser fingerprint, with threads.com as the origin it came from.
    Object.assign(headers, { 'x-asbd-id': app.asbd_id, origin: web.origin, referer: opts.referer ?? `${web.origin}/`, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
  }
  // Redirects are never followed with the account's cookies: where they lead is the answer.
  const res = await ctx.http.request({ url: `${app.url}/${path}${qs ? `?${qs}` : ''}`, headers, followRedirects: false });
  const location = res.headers['location'];
  if (res.status >= 300 && res.status < 400 && location && CHALLENGE_PAGE.test(location)) throw new Blocked(`${what}: threads sent the login to a challenge (${location})`);
  return readAnswer(res, what, true);
}

/** Loads a www.threads.com page (handle → id fallback), with the session page's checks. */
export async function webPage(ctx: CrawlContext, url: string, what: string): Promise<string> {
  const res = await ctx.http.request({ url, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' } });
  if (res.status === 404) throw new NotFound(`${what}: threads has no such page`);
  checkPage(ctx, res, what);
  return res.text();
}

/** A failure after which an equivalent route may still answer. */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout' || e.code === 'rate_limited'));

/**
 * Routes tried in turn; a stale operation that another route stood in for is still reported as a
 * warning, so the operator refreshes the ids before the other routes fail too.
 */
export function noting<T>(ctx: CrawlContext, route: () => Promise<T | undefined>): () => Promise<T | undefined> {
  return async () => {
    try {
      return await route();
    } catch (e) {
      if (e instanceof StaleOperation) ctx.warn(e.message);
      throw e;
    }
  };
}
