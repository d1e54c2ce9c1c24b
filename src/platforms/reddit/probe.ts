import { CrawlError, NotFound, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { exchange, readJson } from './api.js';
import { bearer, canActAsUser, forget, hasCredentials } from './auth.js';
import { OAUTH_ORIGIN } from './http.js';

/**
 * Reddit's "who am I": the profile's bearer token (stored, or minted from its grant) against
 * oauth.reddit.com/api/v1/me, which names the account the token acts for. App-only credentials
 * (client_id/secret without a user) have no account to name: reddit granting the token is the check.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  if (!hasCredentials(ctx)) return 'session_expired';
  try {
    let auth = await bearer(ctx);
    if (!auth) return 'session_expired';
    if (!canActAsUser(ctx)) return 'ok';
    const send = (token: typeof auth) => exchange(ctx, { method: 'GET', url: `${OAUTH_ORIGIN}/api/v1/me`, query: { raw_json: 1 }, bearer: token });
    let res = await send(auth);
    // A token we minted may have lapsed early: one fresh token decides.
    if (res.status === 401 && forget(ctx, auth)) {
      auth = await bearer(ctx);
      if (!auth) return 'session_expired';
      res = await send(auth);
    }
    const body = readJson(res, 'login probe', true) as { name?: unknown } | null;
    if (!body || typeof body !== 'object' || typeof body.name !== 'string' || !body.name) {
      throw new UpstreamError('reddit /api/v1/me answered without an account name');
    }
    return 'ok';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    // A JSON 403 on the account itself (not a scope problem) says nothing certain about the login.
    if (e instanceof NotFound) throw new UpstreamError(`reddit refused /api/v1/me: ${e.message}`);
    if (e instanceof CrawlError && e.code === 'invalid_request') throw new UpstreamError(e.message);
    throw e;
  }
}
