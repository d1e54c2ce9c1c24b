import { CrawlError, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { call, readJson } from './api.js';
import { accessToken, homeInstance } from './instance.js';

const VERIFY = '/api/v1/accounts/verify_credentials';

/** Mastodon's "who am I": GET /api/v1/accounts/verify_credentials on the profile's instance with its access token. */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  try {
    const token = accessToken(ctx);
    const home = homeInstance(ctx.session.credentials);
    if (!token || !home) return 'session_expired';
    const res = await call(ctx, { origin: home.origin, host: home.host, home: true, token }, { path: VERIFY });
    const body = readJson<{ id?: unknown } | null>(res, 'the login probe', true);
    if (!body || typeof body !== 'object' || typeof body.id !== 'string' || !body.id) {
      throw new UpstreamError(`${home.host}${VERIFY}: the answer names no account id`);
    }
    return 'ok';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    // 404 (no such endpoint), a 403 that is not about the login, or a 422 validation: no verdict on the login.
    if (e instanceof CrawlError && (e.code === 'not_found' || e.code === 'invalid_request')) throw new UpstreamError(e.message);
    throw e;
  }
}
