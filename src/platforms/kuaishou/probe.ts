import { Blocked, RateLimited, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { hasWebLogin } from './api.js';
import { graphql } from './graphql.js';
import { miniSession, wxRecommend } from './wxmini.js';

/**
 * Who-am-I: visionProfileUserList (the login's follow list) answers result 1 only for a live web login
 * (MediaCrawler KuaiShouClient.pong). A profile that carries only a mini-program session is probed with
 * one recommend-feed call instead.
 */
export async function probeLogin(ctx: CrawlContext): Promise<'ok' | 'session_expired'> {
  const wx = miniSession(ctx);
  if (wx && !hasWebLogin(ctx)) return settle(() => wxRecommend(ctx, wx));
  return settle(() => graphql(ctx, 'visionProfileUserList', { ftype: 1 }, { what: 'login probe', referer: 'https://www.kuaishou.com/' }));
}

async function settle(call: () => Promise<unknown>): Promise<'ok' | 'session_expired'> {
  try {
    await call();
    return 'ok';
  } catch (e) {
    // Blocks and throttling say nothing about the login; a login demand or any other result code does.
    if (e instanceof Blocked || e instanceof RateLimited) throw e;
    if (e instanceof SessionExpired) return 'session_expired';
    if (e instanceof UpstreamError && /answered result /.test(e.message)) return 'session_expired';
    throw e;
  }
}
