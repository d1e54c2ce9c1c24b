import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { APP_PATHS, appGet } from './api.js';
import { idOf, obj } from './parse.js';
import { hasLogin } from './session.js';

/**
 * accounts/current_user/ answers the login's own account; a login Threads no longer knows answers
 * login_required (or a redirect to the login), mapped to session_expired. Blocks stay blocks.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  if (!hasLogin(ctx)) return 'session_expired';
  try {
    const json = await appGet(ctx, APP_PATHS.currentUser, { edit: 'true' }, 'login probe', { acceptHint: 'user' });
    const user = obj(json.user);
    return idOf(user?.pk_id, user?.pk) ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
