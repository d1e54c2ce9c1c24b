import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { dataOf, obj, resource } from './api.js';

/**
 * UserSettingsResource answers the logged-in account's settings (its username among them); a lapsed login
 * answers "Authorization failed" (mapped to session_expired) or an anonymous client_context.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  try {
    const body = await resource(ctx, { resource: 'settings', options: {}, sourceUrl: '/settings/', what: 'login probe' });
    if (obj(body.client_context)?.is_authenticated === false) return 'session_expired';
    const username = obj(dataOf(body))?.username;
    return typeof username === 'string' && username ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
