import { Blocked, UpstreamError } from '../../crawl/errors.js';
import { throwForStatus } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { xhrHeaders } from './api.js';

/** m.weibo.cn's config call says whether the cookies it received belong to a logged-in account. */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  const res = await ctx.http.request({ url: 'https://m.weibo.cn/api/config', headers: xhrHeaders() });
  if (res.status === 432 || res.status === 418 || res.status === 403) throw new Blocked(`weibo answered HTTP ${res.status} to the login probe`);
  throwForStatus(res);
  const body = res.json<{ ok?: number; data?: { login?: boolean } }>();
  if (typeof body?.data?.login !== 'boolean') throw new UpstreamError('weibo api/config: no data.login in the answer');
  return body.data.login ? 'ok' : 'session_expired';
}
