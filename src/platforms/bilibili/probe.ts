import { Blocked, UpstreamError } from '../../crawl/errors.js';
import { throwForStatus } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { baseHeaders, ENDPOINTS } from './api.js';

/** nav answers code 0 with isLogin true for a live login, and -101 ("账号未登录") without one. */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  const res = await ctx.http.request({ url: ENDPOINTS.nav, headers: baseHeaders() });
  if (res.status === 412) throw new Blocked('bilibili answered HTTP 412 to the login probe');
  throwForStatus(res);
  const body = res.json<{ code?: number; data?: { isLogin?: boolean } }>();
  if (body?.code === -352 || body?.code === -412) throw new Blocked(`bilibili risk control (${body.code}) on the login probe`);
  if (body?.code === -101) return 'session_expired';
  if (body?.code === 0 && typeof body.data?.isLogin === 'boolean') return body.data.isLogin ? 'ok' : 'session_expired';
  throw new UpstreamError(`bilibili nav answered code ${body?.code ?? 'none'}`);
}
