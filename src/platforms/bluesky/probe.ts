import { CrawlError, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { authedXrpc, credentialsOf } from './auth.js';

const GET_SESSION = 'com.atproto.server.getSession';

/**
 * Bluesky's "who am I": the profile's app-password session (createSession on its PDS, or the one already
 * held in memo, refreshed as reads do) asked com.atproto.server.getSession, which names the DID it belongs to.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  try {
    if (!credentialsOf(ctx)) return 'session_expired';
    const { body } = await authedXrpc<{ did?: unknown; active?: unknown; status?: unknown }>(
      ctx,
      () => ({ nsid: GET_SESSION, method: 'GET' }),
      { what: 'the login probe', renew: true },
    );
    if (typeof body.did !== 'string' || !body.did) throw new UpstreamError(`${GET_SESSION}: the answer names no did`);
    // A deactivated, suspended or taken-down account still opens a session but cannot act.
    if (body.active === false) {
      ctx.warn(`bluesky says the account ${body.did} is not active${typeof body.status === 'string' ? ` (${body.status})` : ''}`);
      return 'session_expired';
    }
    return 'ok';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    if (e instanceof CrawlError && (e.code === 'not_found' || e.code === 'invalid_request')) throw new UpstreamError(e.message);
    throw e;
  }
}
