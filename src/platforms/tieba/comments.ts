import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, query, tiebaGet } from './api.js';
import { floorComment, parseFloorReplies } from './parse-html.js';
import { parsePcThread } from './parse-json.js';
import { resolveTid, threadUrl } from './refs.js';
import { fidKey, threadHtml, threadPage } from './thread.js';
import { viaRepliesOf } from '../replies-of.js';

const PAGE = /^\d{1,5}$/;

/*
 * A thread's floors (its replies; the opening floor is the detail item, not a comment), paged by the page
 * number pn (30 floors a page); or, with replies_of = a floor's pid, that floor's replies (楼中楼), 10 a page
 * from /p/comment, each with parent_id = the floor. /p/comment wants the forum id (fid): it comes from the
 * thread page, read once per thread and remembered.
 */
async function floorsPage(ctx: CrawlContext, tid: string, pn: number): Promise<Page<Comment>> {
  const answer = await threadPage(ctx, tid, pn);
  if (answer.kind === 'pc') {
    const t = parsePcThread(answer.json, tid);
    if (t.forumId) ctx.memo.set(fidKey(tid), t.forumId);
    return { items: t.comments, total: t.total, next_cursor: t.totalPages && pn < t.totalPages && t.comments.length ? String(pn + 1) : undefined };
  }
  const page = answer.page;
  // Past the last page tieba shows the last page again: that is the end, not more floors.
  if (page.curPage !== undefined && page.curPage < pn) return { items: [], total: page.replies };
  const items = page.floors.filter((f) => f.no !== 1).map((f) => floorComment(f, tid));
  const cur = page.curPage ?? pn;
  return { items, total: page.replies, next_cursor: page.totalPages && cur < page.totalPages ? String(cur + 1) : undefined };
}

async function repliesPage(ctx: CrawlContext, tid: string, pid: string, pn: number): Promise<Page<Comment>> {
  let fid = ctx.memo.get<string>(fidKey(tid));
  if (!fid) fid = (await threadHtml(ctx, tid, 1)).forumId;
  if (!fid) throw new InvalidInput(`thread ${tid}: its forum id could not be read, and tieba's floor replies need it`);
  const what = `replies to floor ${pid} of thread ${tid}`;
  const { text } = await tiebaGet(ctx, `${ENDPOINTS.floorReplies}?${query([['tid', tid], ['pid', pid], ['fid', fid], ['pn', pn]])}`, what, threadUrl(tid));
  const r = parseFloorReplies(text, tid, pid);
  return { items: r.comments, total: r.total, next_cursor: r.totalPages && pn < r.totalPages && r.comments.length ? String(pn + 1) : undefined };
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  if (cursor !== undefined && !PAGE.test(cursor)) throw new InvalidInput('params.cursor: not a tieba page number');
  const pid = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (pid && !/^\d{1,20}$/.test(pid)) throw new InvalidInput("params.replies_of: a floor's numeric post id (pid) is expected");
  const tid = await resolveTid(ctx, params.query);
  const pn = Math.max(1, Number(cursor ?? 1));
  return pid ? repliesPage(ctx, tid, pid, pn) : floorsPage(ctx, tid, pn);
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A tieba thread's floors (replies, 30 a page), or one floor's replies (楼中楼) with replies_of = its pid (parent_id set)",
  params: [
    { name: 'query', type: 'string', required: true, description: 'tid or tieba.baidu.com/p/<tid> link' },
    { name: 'replies_of', type: 'string', required: false, description: "a floor's pid (comment cid): page that floor's replies (楼中楼) instead" },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
