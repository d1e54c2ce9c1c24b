import { Blocked, CrawlError, InvalidInput, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { csrf, dropGuestCsrf } from './guest.js';

export const WWW = 'https://www.pinterest.com';
/** pin.it codes resolve through this redirect (gallery-dl PinterestPinitExtractor, pinterest-dl _resolve_short_url). */
export const SHORTENER = 'https://api.pinterest.com/url_shortener/';

/*
 * The web's resource API, one resource per read (global-platforms.md §5):
 *   GET /resource/<Name>/get/?source_url=<page path>&data={"options":{…},"context":{}}&_=<ms>
 * It is named by resource, not by a rotating operation id, so this adapter keeps no ops data; the option
 * sets below are those current clients send (gallery-dl@86047cf67a, pinterest-dl@ab3914ff33, the 2024 web
 * search recorded in fixtures/pinterest). `handler` is the page module the web names in
 * X-Pinterest-PWS-Handler, which pinterest-dl notes is required since 2025-03 (its issue #30).
 */
export const RESOURCES = {
  pin: { name: 'PinResource', handler: 'www/pin/[id].js' },
  related: { name: 'RelatedModulesResource', handler: 'www/pin/[id].js' },
  relatedFeed: { name: 'RelatedPinFeedResource', handler: 'www/pin/[id].js' },
  search: { name: 'BaseSearchResource', handler: 'www/search/[scope].js' },
  user: { name: 'UserResource', handler: 'www/[username].js' },
  userPins: { name: 'UserPinsResource', handler: 'www/[username].js' },
  userCreated: { name: 'UserActivityPinsResource', handler: 'www/[username].js' },
  board: { name: 'BoardResource', handler: 'www/[username]/[slug].js' },
  boardFeed: { name: 'BoardFeedResource', handler: 'www/[username]/[slug].js' },
  settings: { name: 'UserSettingsResource', handler: 'www/settings.js' },
} as const;
export type ResourceKey = keyof typeof RESOURCES;

export type Json = Record<string, unknown>;

export interface ResourceCall {
  resource: ResourceKey;
  options: Json;
  /** The page the web would be showing, e.g. /pin/<id>/ (sent as source_url and X-Pinterest-Source-Url). */
  sourceUrl: string;
  /** For messages: "detail 123", "posts of user/board". */
  what: string;
  /** A follow-up page: options.bookmarks = [bookmark], sent as a form POST. */
  bookmark?: string;
}

export const resourceUrl = (resource: ResourceKey): string => `${WWW}/resource/${RESOURCES[resource].name}/get/`;

// ---------------------------------------------------------------------------------------------
// Outcomes, in one place (global-platforms.md §5, fixtures/pinterest/README.md).

/** What an answer said, read once, for the outcome table. */
export interface Answer {
  status: number;
  /** Final URL (a login wall shows as a redirect to /login/). */
  url: string;
  text: string;
  json?: Json;
  /** resource_response.error, or a failed resource_response. */
  error?: { http_status?: number; code?: number; message?: string };
  retryAfter?: number;
}

export interface OutcomeContext {
  what: string;
  resource: string;
  profile: string;
  /** The request carried the profile's stored login. */
  withLogin: boolean;
}

/** The platform refused the csrftoken it was sent: the minted one is dropped and minted again once. */
export class CsrfRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsrfRefused';
  }
}

const status = (a: Answer): number => a.error?.http_status ?? a.status;
const said = (a: Answer): string => a.error?.message ?? (a.json ? '' : a.text.trim().slice(0, 120));
const loginWanted = (o: OutcomeContext, why: string): SessionExpired =>
  new SessionExpired(
    o.withLogin
      ? `${o.what}: pinterest no longer accepts the stored login of profile "${o.profile}" (${why}); log that pinterest profile in again`
      : `${o.what}: pinterest shows this only to a logged-in account (${why}); add a pinterest profile with a login (POST /v1/profiles {"platform":"pinterest","name":"${o.profile}",…}) and crawl with it`,
  );

type Row = { when: (a: Answer) => boolean; outcome: (a: Answer, o: OutcomeContext) => Error };

/** First matching row wins; an answer no row matches is a success. */
export const OUTCOMES: readonly Row[] = [
  // Django-style CSRF refusal of a form POST.
  { when: (a) => a.status === 403 && /csrf/i.test(a.text), outcome: (a, o) => new CsrfRefused(`${o.what}: pinterest refused the csrftoken (${said(a) || 'HTTP 403'})`) },
  // gallery-dl#6513/#6875: BoardFeed called with too few options; the plain-text body says so. Not a block,
  // not a login: the option set this adapter sends no longer satisfies the resource.
  {
    when: (a) => a.status === 403 && /Invalid Resource Request/i.test(a.text),
    outcome: (_a, o) => new UpstreamError(`${o.what}: pinterest answered HTTP 403 "Invalid Resource Request" to ${o.resource}: the options sent no longer satisfy that resource (see RESOURCES in src/platforms/pinterest/api.ts)`),
  },
  { when: (a) => status(a) === 429, outcome: (a, o) => new RateLimited(`${o.what}: pinterest throttled the crawl (HTTP 429)`, a.retryAfter) },
  { when: (a) => /^\/login\/?$/.test(new URL(a.url).pathname), outcome: (_a, o) => loginWanted(o, 'redirected to its login page') },
  { when: (a) => status(a) === 401 || /Authorization failed/i.test(a.error?.message ?? ''), outcome: (a, o) => loginWanted(o, said(a) || 'HTTP 401') },
  { when: (a) => status(a) === 404, outcome: (a, o) => new NotFound(`${o.what}: pinterest says ${said(a) || 'it does not exist (HTTP 404)'}`) },
  { when: (a) => status(a) === 403, outcome: (a, o) => new Blocked(`${o.what}: pinterest refused the request (HTTP 403${said(a) ? `: ${said(a)}` : ''})`) },
  { when: (a) => status(a) >= 400, outcome: (a, o) => new UpstreamError(`${o.what}: pinterest answered HTTP ${status(a)}${said(a) ? ` (${said(a)})` : ''}`) },
  // A web page where the resource's JSON belongs: an interstitial or a bot check, never an empty result.
  { when: (a) => !a.json && /<html|<!doctype/i.test(a.text), outcome: (_a, o) => new Blocked(`${o.what}: pinterest answered a web page instead of the resource's JSON`) },
  { when: (a) => !a.json, outcome: (a, o) => new ParseError(`${o.what}: ${o.resource} answered ${a.text.trim() ? `${a.text.length} bytes that are not a JSON object` : 'an empty body'}`) },
  // Without its envelope an answer says nothing, not "no results".
  { when: (a) => !obj(a.json?.resource_response), outcome: (_a, o) => new ParseError(`${o.what}: ${o.resource} answered JSON without resource_response`) },
  {
    when: (a) => !!a.error || (typeof obj(a.json?.resource_response)?.status === 'string' && obj(a.json?.resource_response)?.status !== 'success'),
    outcome: (a, o) => new UpstreamError(`${o.what}: pinterest answered ${o.resource} with a failure${said(a) ? ` (${said(a)})` : ''}`),
  },
];

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

export function readAnswer(res: HttpResponse): Answer {
  const text = res.text();
  let json: Json | undefined;
  try {
    json = obj(JSON.parse(text));
  } catch {
    json = undefined;
  }
  const rr = obj(json?.resource_response);
  const err = obj(rr?.error);
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const error = err
    ? { http_status: num(err.http_status), code: num(err.code), message: typeof err.message === 'string' ? err.message : undefined }
    : rr && rr.status === 'failure'
      ? { http_status: num(rr.http_status), code: num(rr.code), message: typeof rr.message === 'string' ? rr.message : undefined }
      : undefined;
  const ra = Number(res.headers['retry-after']);
  return { status: res.status, url: res.url, text, json, error, retryAfter: Number.isFinite(ra) && ra >= 0 ? ra : undefined };
}

/** The answer's body when it is a success; the mapped error otherwise. */
export function checkAnswer(a: Answer, o: OutcomeContext): Json {
  for (const row of OUTCOMES) if (row.when(a)) throw row.outcome(a, o);
  return a.json!;
}

// ---------------------------------------------------------------------------------------------
// Requests.

function headers(ctx: CrawlContext, call: ResourceCall): Record<string, string> {
  const token = csrf(ctx);
  return {
    accept: 'application/json, text/javascript, */*, q=0.01',
    'x-requested-with': 'XMLHttpRequest',
    'x-pinterest-appstate': 'active',
    'x-pinterest-source-url': call.sourceUrl,
    'x-pinterest-pws-handler': RESOURCES[call.resource].handler,
    referer: `${WWW}${call.sourceUrl}`,
    ...(token.cookie ? { cookie: token.cookie } : {}),
    ...(call.bookmark !== undefined ? { 'x-csrftoken': token.token, origin: WWW } : {}),
  };
}

/** data={"options":…,"context":{}}: the options as given, the bookmark of a follow-up page last. */
export function dataParam(call: ResourceCall): string {
  const options = call.bookmark === undefined ? call.options : { ...call.options, bookmarks: [call.bookmark] };
  return JSON.stringify({ options, context: {} });
}

async function once(ctx: CrawlContext, call: ResourceCall): Promise<Json> {
  const data = dataParam(call);
  // A first page is a GET as the web sends it. Follow-ups carry bookmarks of several kilobytes and go as a
  // form POST: the recorded follow-up search (fixtures/pinterest/search-pins-next-page-bookmark.har) was one,
  // its client_context.full_path has no query string.
  const res =
    call.bookmark === undefined
      ? await ctx.http.request({ url: `${resourceUrl(call.resource)}?source_url=${encodeURIComponent(call.sourceUrl)}&data=${encodeURIComponent(data)}&_=${Date.now()}`, headers: headers(ctx, call) })
      : await ctx.http.request({ method: 'POST', url: resourceUrl(call.resource), form: { source_url: call.sourceUrl, data }, headers: { ...headers(ctx, call), 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } });
  return checkAnswer(readAnswer(res), { what: call.what, resource: RESOURCES[call.resource].name, profile: ctx.profile, withLogin: !!ctx.session.cookies });
}

/** One resource call; a refused minted csrftoken is minted again once. */
export async function resource(ctx: CrawlContext, call: ResourceCall): Promise<Json> {
  try {
    return await once(ctx, call);
  } catch (e) {
    if (!(e instanceof CsrfRefused)) throw e;
    if (!csrf(ctx).minted) throw loginWanted({ what: call.what, resource: RESOURCES[call.resource].name, profile: ctx.profile, withLogin: true }, e.message);
    dropGuestCsrf(ctx);
    ctx.warn('pinterest refused the minted csrftoken; it was minted again');
    try {
      return await once(ctx, call);
    } catch (again) {
      if (again instanceof CsrfRefused) throw new Blocked(`${again.message}, twice with freshly minted tokens`);
      throw again;
    }
  }
}

/** resource_response.data: a list (feeds), or an object (a pin, a user, search's {results}). */
export const dataOf = (body: Json): unknown => obj(body.resource_response)?.data;

/** The feed's entries: data itself when it is a list, else data.results (search). */
export function entriesOf(body: Json): unknown[] {
  const data = dataOf(body);
  if (Array.isArray(data)) return data;
  const results = obj(data)?.results;
  return Array.isArray(results) ? results : [];
}

/**
 * The next page's bookmark: resource.options.bookmarks[0] (else resource_response.bookmark); "-end-" and
 * bookmarks starting "Y2JOb25lO" (base64 of "cbNone;") end the feed (gallery-dl pinterest.py _pagination).
 */
export function nextBookmark(body: Json): string | undefined {
  const fromOptions = obj(obj(body.resource)?.options)?.bookmarks;
  const b = Array.isArray(fromOptions) ? fromOptions[0] : obj(body.resource_response)?.bookmark;
  if (typeof b !== 'string' || !b || b === '-end-' || b.startsWith('Y2JOb25lO')) return undefined;
  return b;
}

/** A bookmark as the caller hands it back: base64-ish text of bounded length. */
export function checkBookmark(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[A-Za-z0-9+/=_|:.-]{1,8000}$/.test(cursor)) throw new InvalidInput('params.cursor: not a pinterest bookmark (pass back next_cursor as it was given)');
  return cursor;
}

/** A failure after which an equivalent resource may still answer. */
export const isFallbackable = (e: unknown): boolean => isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
