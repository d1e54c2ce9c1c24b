import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { apiGet, ENDPOINTS } from './api.js';
import { str } from './parse.js';

/**
 * /api/v4/me answers the logged-in member (MediaCrawler's pong: uid and name); without a live z_c0 it
 * answers 401 (mapped to session_expired). A captcha or a refused signature stays a block.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  try {
    const me = await apiGet(ctx, { endpoint: 'probe', url: ENDPOINTS.me, what: 'login probe', params: [['include', 'email,is_active,is_bind_phone']] });
    return str(me?.uid) || (str(me?.id) && str(me?.id) !== '0') ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
