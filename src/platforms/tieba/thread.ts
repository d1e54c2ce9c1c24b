import { NotFound, ParseError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { ENDPOINTS, loginFirst, loginTbs, pcCall, query, THREAD_GONE, tiebaGet, type Json } from './api.js';
import { parseThreadPage, type ThreadPage } from './parse-html.js';
import { threadUrl } from './refs.js';

/*
 * One page of a thread, by the route that answers: the PC JSON (/c/f/pb/page_pc, signed; only with a
 * logged-in profile, as the PC site itself calls it), else the thread page /p/{tid}?pn= (anonymous HTML).
 */
export type ThreadAnswer = { kind: 'pc'; json: Json } | { kind: 'html'; page: ThreadPage };

const FID_TTL_MS = 7 * 24 * 3600_000;
export const fidKey = (tid: string): string => `tieba:fid:${tid}`;

export async function threadHtml(ctx: CrawlContext, tid: string, pn: number): Promise<ThreadPage> {
  const what = `thread ${tid}${pn > 1 ? ` page ${pn}` : ''}`;
  const { text } = await tiebaGet(ctx, pn > 1 ? `${ENDPOINTS.thread}${tid}?${query([['pn', pn]])}` : `${ENDPOINTS.thread}${tid}`, what);
  const page = parseThreadPage(text);
  if (!page.tid && !page.floors.length) {
    if (THREAD_GONE.test(text)) throw new NotFound(`${what}: tieba says the thread was deleted or does not exist`);
    throw new ParseError(`${what}: the page carries no thread data (PageData.thread) and no floors; tieba may have changed the page`);
  }
  if (page.forumId) ctx.memo.set(fidKey(tid), page.forumId, FID_TTL_MS);
  return page;
}

async function threadPc(ctx: CrawlContext, tid: string, pn: number): Promise<Json> {
  const tbs = await loginTbs(ctx);
  return pcCall(ctx, {
    endpoint: 'thread',
    url: ENDPOINTS.pcThread,
    method: 'POST',
    what: `thread ${tid} page ${pn} (PC API)`,
    referer: threadUrl(tid),
    params: [['pn', pn], ['lz', 0], ['r', 2], ['mark_type', 0], ['back', 0], ['fr', ''], ['kz', tid], ['session_request_times', 1], ['tbs', tbs]],
  });
}

export async function threadPage(ctx: CrawlContext, tid: string, pn: number): Promise<ThreadAnswer> {
  return loginFirst<ThreadAnswer>(
    ctx,
    `thread ${tid}`,
    async () => ({ kind: 'pc', json: await threadPc(ctx, tid, pn) }),
    async () => ({ kind: 'html', page: await threadHtml(ctx, tid, pn) }),
  );
}
