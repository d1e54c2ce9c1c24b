import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { parseLossless } from './json.js';
import { staleOperation, type OpRef } from './ops.js';

export type Json = Record<string, unknown>;

/** Instagram refused the guest tokens (lsd / csrftoken) of a logged-out call: minted again once. */
export class GuestRefused extends Blocked {}

export const cookieValue = (cookies: string | undefined, name: string): string | undefined =>
  new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookies ?? '')?.[1]?.trim() || undefined;

export const loggedIn = (ctx: CrawlContext): boolean => !!cookieValue(ctx.session.cookies, 'sessionid');

/** The message every login-gated action answers without a stored login, naming the profile to add. */
export function loginNeeded(ctx: CrawlContext, what: string): SessionExpired {
  return new SessionExpired(
    `${what} needs an Instagram login: store an instagram profile named "${ctx.profile}" with the sessionid and csrftoken cookies of a logged-in browser (POST /v1/profiles, platform instagram)`,
  );
}

/** What one answer says, read once, for the outcome table. */
interface Signal {
  status: number;
  location: string;
  text: string;
  json?: Json;
  /** message / errors[0].message, with errors[0].summary and description. */
  says: string;
  code?: number;
  loggedIn: boolean;
  profile: string;
  what: string;
  op?: OpRef;
  retryAfter?: number;
}

const LOGIN_PAGE = /\/accounts\/login|"LoginAndSignupPage"|<title>\s*Login\s*[•·]\s*Instagram/i;
const NOT_FOUND_PAGE = /Sorry, this page isn['’]t available|"HttpErrorPage"|<title>\s*Page Not Found/i;
/** Answers Meta's GraphQL gives to a doc_id or query_hash it no longer knows or cannot run (gallery-dl #7202, metaai-api #14). */
const STALE = /incorrect query|query provided was invalid|cannot query field|unknown (?:doc_?id|query|operation)|persisted ?query ?not ?found|invalid (?:doc_?id|query_?hash)/i;
const GONE = /media not found|not found or unavailable|has been deleted|media is unavailable/i;

function checkpoint(s: Signal): CrawlError {
  const where = (typeof s.json?.checkpoint_url === 'string' && s.json.checkpoint_url) || (typeof (s.json?.challenge as Json | undefined)?.url === 'string' && String((s.json!.challenge as Json).url)) || s.location || 'no challenge URL';
  const suspended = /suspended/i.test(where);
  // A checkpoint on an account is cleared by its owner in a browser: only a human helps, so the profile
  // is flagged for re-login. Without an account it is risk control on this address.
  if (s.loggedIn) {
    return new SessionExpired(
      `${s.what}: Instagram put the account of profile "${s.profile}" behind a ${suspended ? 'suspension notice' : 'checkpoint'} (${where}); log in as it on instagram.com, clear it, then store fresh cookies for the profile`,
    );
  }
  return new Blocked(`${s.what}: Instagram answered the logged-out request with a checkpoint (${where}): risk control on this address`);
}

const expired = (s: Signal, why: string): SessionExpired =>
  s.loggedIn
    ? new SessionExpired(`${s.what}: Instagram no longer accepts the login of profile "${s.profile}" (${why}); store fresh sessionid and csrftoken cookies`)
    : new SessionExpired(`${s.what}: Instagram wants a login for this (${why}); store an instagram profile named "${s.profile}" with the sessionid and csrftoken cookies of a logged-in browser`);

const is3xx = (s: Signal): boolean => s.status >= 300 && s.status < 400;
const said = (s: Signal, word: RegExp): boolean => word.test(s.says);

/**
 * Every block, throttle, login and missing signal Instagram sends, in order (global-platforms.md §2, the
 * fixture README, instaloader/instagrapi/gallery-dl/yt-dlp handling). The first that applies decides.
 */
const OUTCOMES: ReadonlyArray<{ when: (s: Signal) => boolean; then: (s: Signal) => CrawlError }> = [
  // Redirects: /accounts/login/ is a login demand, /challenge/ a checkpoint, the home page a logged-out quota spent (yt-dlp).
  { when: (s) => is3xx(s) && /\/accounts\/login/.test(s.location), then: (s) => expired(s, `redirected to ${s.location.split('?')[0]}`) },
  { when: (s) => is3xx(s) && /\/challenge\//.test(s.location), then: checkpoint },
  { when: (s) => is3xx(s) && !s.loggedIn && /^(?:https:\/\/(?:www\.)?instagram\.com)?\/?$/.test(s.location.split('?')[0]!), then: (s) => new RateLimited(`${s.what}: Instagram sent the logged-out request to its home page: the anonymous quota is spent (a login raises it)`) },
  { when: is3xx, then: (s) => new UpstreamError(`${s.what}: unexpected redirect (HTTP ${s.status}) to ${s.location || 'nowhere'}`) },
  // "Please wait a few minutes before you try again." (401/429, require_login true): a throttle, not a login problem.
  { when: (s) => said(s, /please wait a few minutes/i), then: (s) => new RateLimited(`${s.what}: Instagram says "${s.says}"`, s.retryAfter) },
  { when: (s) => s.status === 429, then: (s) => new RateLimited(`${s.what}: HTTP 429${s.says ? ` (${s.says})` : ''}`, s.retryAfter) },
  { when: (s) => said(s, /checkpoint_required|challenge_required/) || typeof s.json?.checkpoint_url === 'string', then: checkpoint },
  { when: (s) => said(s, /login_required/) || s.json?.require_login === true, then: (s) => expired(s, s.says || 'require_login') },
  { when: (s) => said(s, /feedback_required/) || s.json?.error_type === 'rate_limit_error' || s.code === 1675004 || said(s, /rate limit exceeded/i), then: (s) => new RateLimited(`${s.what}: Instagram throttled the account or address (${[s.says, typeof s.json?.feedback_message === 'string' ? s.json.feedback_message : ''].filter(Boolean).join(': ')})`) },
  { when: (s) => s.json?.error_type === 'sentry_block', then: (s) => new Blocked(`${s.what}: Instagram blocked the request (sentry_block${s.says ? `: ${s.says}` : ''})`) },
  { when: (s) => !!s.op && (s.code === 1675002 || said(s, STALE)), then: (s) => staleOperation(s.op!, s.says || `code ${s.code}`) },
  { when: (s) => s.code === 4630001 || said(s, GONE), then: (s) => new NotFound(`${s.what}: Instagram says ${s.says || 'the media is gone'}`) },
  { when: (s) => s.code === 1357004 || s.code === 1357001, then: (s) => new GuestRefused(`${s.what}: Instagram refused the page tokens (code ${s.code}${s.says ? `: ${s.says}` : ''})`) },
  { when: (s) => s.status === 404, then: (s) => new NotFound(`${s.what}: HTTP 404${s.says ? ` (${s.says})` : ''}`) },
  { when: (s) => s.status === 401, then: (s) => expired(s, `HTTP 401${s.says ? `: ${s.says}` : ''}`) },
  { when: (s) => s.status === 403, then: (s) => new Blocked(`${s.what}: HTTP 403, Instagram refused the request${s.says ? ` (${s.says})` : ''}`) },
  { when: (s) => s.status >= 400, then: (s) => new UpstreamError(`${s.what}: HTTP ${s.status}${s.says ? ` (${s.says})` : ''}`) },
];

function signalOf(res: HttpResponse, ctx: CrawlContext, what: string, op?: OpRef): Signal {
  const text = res.text();
  // Meta prefixes some GraphQL answers with an anti-hijacking loop.
  const body = text.replace(/^\s*for\s*\(\s*;\s*;\s*\)\s*;/, '').trim();
  let json: Json | undefined;
  if (body.startsWith('{')) {
    try {
      const v = parseLossless(body);
      if (v && typeof v === 'object' && !Array.isArray(v)) json = v as Json;
    } catch {
      /* not JSON after all */
    }
  }
  const err = Array.isArray(json?.errors) ? (json!.errors[0] as Json | undefined) : undefined;
  const says = [json?.message, err?.message, err?.summary, err?.description]
    .filter((m): m is string => typeof m === 'string' && !!m.trim())
    .join(': ');
  const code = Number(err?.code ?? json?.error_code);
  const ra = Number(res.headers['retry-after']);
  return {
    status: res.status,
    location: res.headers['location'] ?? '',
    text: body,
    json,
    says,
    code: Number.isFinite(code) && code > 0 ? code : undefined,
    loggedIn: loggedIn(ctx),
    profile: ctx.profile,
    what,
    op,
    retryAfter: Number.isFinite(ra) && ra > 0 ? ra : undefined,
  };
}

/** Throws the typed error an answer stands for; undefined when it is an answer to read. */
function judge(s: Signal): CrawlError | undefined {
  for (const rule of OUTCOMES) if (rule.when(s)) return rule.then(s);
  if (s.status >= 500) return new UpstreamError(`${s.what}: HTTP ${s.status}`);
  return undefined;
}

/** A JSON answer of the web API, or the error it stands for. */
export function readJson(res: HttpResponse, ctx: CrawlContext, what: string, op?: OpRef, lenient = false): Json {
  const s = signalOf(res, ctx, what, op);
  const failed = judge(s);
  if (failed) throw failed;
  if (!s.json) {
    if (LOGIN_PAGE.test(s.text)) throw expired(s, 'answered with its login page');
    if (/^\s*</.test(s.text)) throw new Blocked(`${what}: Instagram answered a web page instead of JSON (it does this to clients it does not trust)`);
    throw new ParseError(`${what}: expected JSON, got ${res.headers['content-type'] ?? 'no content type'} (${s.text.length} characters)`);
  }
  if (lenient) return s.json;
  if (s.json.status === 'fail') throw new UpstreamError(`${what}: Instagram answered status fail${s.says ? ` (${s.says})` : ''}`);
  if (Array.isArray(s.json.errors) && s.json.errors.length && (s.json.data === null || s.json.data === undefined)) {
    throw new UpstreamError(`${what}: Instagram's GraphQL answered an error${s.says ? ` (${s.says})` : ''}`);
  }
  return s.json;
}

/** An HTML page of the site (home, post), or the error its status or redirect stands for. */
export function readPage(res: HttpResponse, ctx: CrawlContext, what: string): string {
  const s = signalOf(res, ctx, what);
  const failed = judge(s);
  if (failed) throw failed;
  if (NOT_FOUND_PAGE.test(s.text)) throw new NotFound(`${what}: Instagram shows "this page isn't available"`);
  return res.text();
}

/** Outcome of one answer, for tests and for write judgements: the error it stands for, if any. */
export function outcomeOf(res: HttpResponse, ctx: CrawlContext, what: string, op?: OpRef): CrawlError | undefined {
  try {
    readJson(res, ctx, what, op);
    return undefined;
  } catch (e) {
    if (e instanceof CrawlError) return e;
    throw e;
  }
}
