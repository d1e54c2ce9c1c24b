import { ParseError, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { ENTRYWAY, NSID, TokenRejected, xrpc, type XrpcCall } from './api.js';

/*
 * Logged-in calls: an app-password session opened with com.atproto.server.createSession on the profile's
 * PDS (bsky.social unless the profile names another), kept in ctx.memo, refreshed with the refresh JWT
 * before the access JWT lapses, and re-opened from the stored credentials when the refresh JWT is gone.
 */

export interface Credentials {
  identifier: string;
  password: string;
  /** PDS origin the account lives on (createSession must go there). */
  service: string;
}

export interface Session {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
  service: string;
  /** Expiry of each token, epoch ms. */
  accessExp: number;
  refreshExp: number;
}

/** When a token carries no readable exp claim: the lifetimes the reference PDS issues, rounded down. */
const ACCESS_FALLBACK_MS = 60 * 60_000;
const REFRESH_FALLBACK_MS = 30 * 24 * 3600_000;
/** Renew this long before expiry, so a request never leaves with a token about to lapse. */
const MARGIN_MS = 60_000;

const SERVICE = /^https:\/\/[a-zA-Z0-9.-]+(?::\d+)?$/;

/** The profile's credentials: identifier (handle, DID or email), app_password, optional service (PDS origin). */
export function credentialsOf(ctx: CrawlContext): Credentials | undefined {
  const c = ctx.session.credentials ?? {};
  const identifier = (c.identifier ?? c.handle ?? '').trim().replace(/^@/, '');
  const password = c.app_password ?? c.password ?? '';
  if (!identifier || !password) return undefined;
  const service = (c.service ?? ENTRYWAY).trim().replace(/\/+$/, '');
  if (!SERVICE.test(service)) throw new SessionExpired(`the bluesky profile's credential "service" must be an https origin such as ${ENTRYWAY}`);
  return { identifier, password, service };
}

export function requireCredentials(ctx: CrawlContext, what: string): Credentials {
  const cred = credentialsOf(ctx);
  if (!cred) {
    throw new SessionExpired(
      `${what} needs a logged-in bluesky profile: profile "${ctx.profile}" has no credentials identifier + app_password (create an app password at bsky.app → Settings → App passwords)`,
    );
  }
  return cred;
}

/** The exp claim of a JWT, epoch ms. */
export function jwtExpiry(token: string): number | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

const memoKey = (ctx: CrawlContext, cred: Credentials): string => `bluesky:session:${ctx.profile}:${cred.service}:${cred.identifier.toLowerCase()}`;

function toSession(body: Record<string, unknown>, service: string, now: number): Session {
  const { did, handle, accessJwt, refreshJwt } = body;
  if (typeof did !== 'string' || typeof accessJwt !== 'string' || typeof refreshJwt !== 'string') {
    throw new ParseError('the session answer lacks did/accessJwt/refreshJwt');
  }
  return {
    did,
    handle: typeof handle === 'string' ? handle : did,
    accessJwt,
    refreshJwt,
    service,
    accessExp: jwtExpiry(accessJwt) ?? now + ACCESS_FALLBACK_MS,
    refreshExp: jwtExpiry(refreshJwt) ?? now + REFRESH_FALLBACK_MS,
  };
}

function remember(ctx: CrawlContext, key: string, s: Session): Session {
  ctx.memo.set(key, s, Math.max(MARGIN_MS, s.refreshExp - Date.now()));
  return s;
}

async function login(ctx: CrawlContext, cred: Credentials): Promise<Session> {
  const body = await xrpc(ctx, { origin: cred.service, nsid: NSID.createSession, method: 'POST', json: { identifier: cred.identifier, password: cred.password } });
  return toSession(body, cred.service, Date.now());
}

async function refresh(ctx: CrawlContext, s: Session): Promise<Session> {
  const body = await xrpc(ctx, { origin: s.service, nsid: NSID.refreshSession, method: 'POST', bearer: s.refreshJwt });
  return toSession(body, s.service, Date.now());
}

/** A session whose access token is good for at least another minute. */
export async function getSession(ctx: CrawlContext, what: string): Promise<Session> {
  const cred = requireCredentials(ctx, what);
  const key = memoKey(ctx, cred);
  const now = Date.now();
  const known = ctx.memo.get<Session>(key);
  if (known && known.accessExp > now + MARGIN_MS) return known;
  if (known && known.refreshExp > now + MARGIN_MS) {
    try {
      return remember(ctx, key, await refresh(ctx, known));
    } catch (e) {
      // A revoked or expired refresh token: log in afresh below. Anything else is the answer.
      if (!(e instanceof SessionExpired)) throw e;
    }
  }
  return remember(ctx, key, await login(ctx, cred));
}

/** Marks the cached access token as spent (the server refused it), keeping the refresh token. */
export function spendAccess(ctx: CrawlContext): void {
  const cred = credentialsOf(ctx);
  if (!cred) return;
  const key = memoKey(ctx, cred);
  const known = ctx.memo.get<Session>(key);
  if (known) ctx.memo.set(key, { ...known, accessExp: 0 }, Math.max(MARGIN_MS, known.refreshExp - Date.now()));
}

export function forgetSession(ctx: CrawlContext): void {
  const cred = credentialsOf(ctx);
  if (cred) ctx.memo.delete(memoKey(ctx, cred));
}

export interface AuthedOptions {
  /** What needs the login, for messages ("search"). */
  what: string;
  /**
   * Reads: when the server refuses a token its exp claim still vouched for, renew the session and ask once
   * more. Writes pass false: one attempt only, and the renewal happens on the next task.
   */
  renew: boolean;
}

/** A call on the profile's PDS with its access token; `build` may use the session (its DID as repo). */
export async function authedXrpc<T = Record<string, unknown>>(
  ctx: CrawlContext,
  build: (session: Session) => Omit<XrpcCall, 'origin' | 'bearer'>,
  opts: AuthedOptions,
): Promise<{ body: T; session: Session }> {
  let session = await getSession(ctx, opts.what);
  try {
    return { body: await xrpc<T>(ctx, { ...build(session), origin: session.service, bearer: session.accessJwt }), session };
  } catch (e) {
    if (!(e instanceof TokenRejected)) throw e;
    spendAccess(ctx);
    if (!opts.renew) throw new SessionExpired(`${e.message}; nothing was written, and the next attempt renews the session`);
  }
  session = await getSession(ctx, opts.what);
  try {
    return { body: await xrpc<T>(ctx, { ...build(session), origin: session.service, bearer: session.accessJwt }), session };
  } catch (e) {
    if (e instanceof TokenRejected) {
      forgetSession(ctx);
      throw new SessionExpired(`${e.message} (also after renewing the session)`);
    }
    throw e;
  }
}
