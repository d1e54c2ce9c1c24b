import { SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { restGet } from './api.js';
import { str } from './parse.js';

export const SETTINGS_PATH = '/i/api/1.1/account/settings.json';

/**
 * account/settings.json answers the logged-in account's screen_name; a lapsed login answers 401/403 or
 * code 32/89 (session_expired). Blocks and rate limits stay what they are.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  try {
    const { body } = await restGet(ctx, SETTINGS_PATH, 'login probe');
    return str(body.screen_name) ? 'ok' : 'session_expired';
  } catch (e) {
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
}
