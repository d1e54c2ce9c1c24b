import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { api, ENDPOINTS } from './api.js';
import { hasLogin } from './guest.js';
import { obj, str } from './parse.js';

/**
 * user/selfinfo answers the logged-in account; an expired or missing login answers -100/-101/-104
 * (session_expired) or a guest. Blocks (captcha, IP block, refused signature) stay blocks.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  if (!hasLogin(ctx)) return 'session_expired';
  try {
    const data = await api(ctx, { endpoint: 'probe', path: ENDPOINTS.selfInfo, what: 'login probe', query: [] });
    if (data.guest === true) return 'session_expired';
    const basic = obj(data.basic_info);
    return str(data.user_id) ?? str(basic?.red_id) ?? str(basic?.nickname) ?? str(data.nickname) ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
