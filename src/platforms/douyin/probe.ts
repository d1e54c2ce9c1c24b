import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { ENDPOINTS, webGet } from './api.js';

/**
 * query/user answers the logged-in account's ids; without a live login it answers status_code 8 (mapped
 * to session_expired) or no sec_uid. Blocks (an empty 200, a captcha) stay blocks.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  try {
    const json = await webGet(ctx, { endpoint: 'probe', url: ENDPOINTS.selfInfo, what: 'login probe', params: {} });
    const user = json.user && typeof json.user === 'object' ? (json.user as Record<string, unknown>) : json;
    const sec = user.sec_uid ?? user.user_uid;
    return typeof sec === 'string' && sec ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
