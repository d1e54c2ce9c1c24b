import { Blocked, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { baseHeaders, checkHttp } from './api.js';
import { idOf, obj, str } from './parse.js';
import { WEB } from './refs.js';

/**
 * Who am I: passport/web/account/info answers data {user_id, username, sec_user_id, …} for a live login
 * and an error (data.error_code / message "error", no user) without one. Only an explicit "no user" is
 * session_expired; anything unreadable leaves the profile's health alone (upstream_error).
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  const what = 'login probe (passport/web/account/info)';
  const res = await ctx.http.request({ url: `${WEB}/passport/web/account/info/?aid=1988&app_language=en&app_name=tiktok_web`, headers: baseHeaders(`${WEB}/`) });
  try {
    checkHttp(res, what);
  } catch (e) {
    // A redirect to the login page is the plainest "not logged in".
    if (e instanceof SessionExpired) return 'session_expired';
    throw e;
  }
  const text = res.text();
  if (!text.trim()) throw new Blocked(`${what}: TikTok answered HTTP ${res.status} with an empty body`);
  let body: Record<string, unknown> | undefined;
  try {
    body = obj(JSON.parse(text));
  } catch {
    throw new UpstreamError(`${what}: not JSON (${res.headers['content-type'] ?? 'no content type'})`);
  }
  const data = obj(body?.data);
  if (data && (idOf(data.user_id_str, data.user_id) || str(data.username)?.trim())) return 'ok';
  if (data?.error_code !== undefined || body?.message === 'error') return 'session_expired';
  throw new UpstreamError(`${what}: the answer names neither a user nor an error`);
}
