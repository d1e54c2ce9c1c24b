import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { apiGet, ENDPOINTS } from './api.js';
import { cookieValue, loggedIn } from './outcomes.js';
import { idOf, obj } from './parse.js';

/** The logged-in account's pk: ds_user_id, else the sessionid's first part ("<pk>%3A…"). */
export function viewerPk(cookies: string | undefined): string | undefined {
  const ds = idOf(cookieValue(cookies, 'ds_user_id'));
  if (ds) return ds;
  const session = cookieValue(cookies, 'sessionid');
  return session ? idOf(decodeURIComponent(session).split(':')[0]) : undefined;
}

/**
 * Who am I: the account's own users/<pk>/info/ answers its user to a live login and login_required (or a
 * redirect to the login page) otherwise. Blocks and throttles stay blocks and throttles.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  const pk = viewerPk(ctx.session.cookies);
  if (!loggedIn(ctx) || !pk) return 'session_expired';
  try {
    const json = await apiGet(ctx, ENDPOINTS.userInfo(pk), {}, { what: 'login probe' });
    return idOf(obj(json.user)?.pk, obj(json.user)?.id) === pk ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
