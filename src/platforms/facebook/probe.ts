import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { getPage, hasLogin, ROUTES, SIGNALS } from './api.js';

/**
 * facebook-scraper's is_logged_in: the settings page answers a logged-in session and sends anyone else to
 * the login page. A profile without a c_user cookie holds no login at all. Blocks stay blocks.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  if (!hasLogin(ctx)) return 'session_expired';
  try {
    const page = await getPage(ctx, ROUTES.settings, 'login probe');
    const loginForm = SIGNALS.find((s) => s.name === 'login form')!;
    return loginForm.test(page) ? 'session_expired' : 'ok';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
