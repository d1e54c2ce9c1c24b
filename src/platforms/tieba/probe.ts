import type { CrawlContext } from '../types.js';
import { ENDPOINTS, tiebaJson } from './api.js';

/** /dc/common/tbs answers is_login 1 for a live BDUSS, 0 otherwise; blocks stay blocks. */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  const json = await tiebaJson(ctx, ENDPOINTS.tbs, 'login probe');
  return Number(json.is_login) === 1 ? 'ok' : 'session_expired';
}
