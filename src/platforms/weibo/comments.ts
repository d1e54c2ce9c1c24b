import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, getJson, withFallback } from './api.js';
import { arr, childComments, decodeCommentCursor, decodePcCommentCursor, encodeCommentCursor, threadComments, wholeCount } from './parse.js';
import { pcComments } from './pc.js';
import { parsePostRef } from './refs.js';
import { viaRepliesOf } from '../replies-of.js';

async function hotflowPage(ctx: CrawlContext, mid: string, maxId: string | undefined, maxIdType: string): Promise<Page<Comment>> {
  const env = await getJson(ctx, ENDPOINTS.hotflow, { id: mid, mid, max_id: maxId, max_id_type: maxIdType }, `comments of ${mid}`, `https://m.weibo.cn/detail/${mid}`);
  if (env.kind === 'empty') return { items: [] };
  const items = threadComments(env.data.data, mid);
  return {
    items,
    next_cursor: arr(env.data.data).length ? encodeCommentCursor(env.data.max_id, env.data.max_id_type) : undefined,
    total: wholeCount(env.data.total_number),
  };
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const post = parsePostRef(params.query);
  const rootId = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  // A weibo.com cursor ("pc:<max_id>") pages on weibo.com: its max_id means nothing to hotflow.
  const pcMaxId = decodePcCommentCursor(cursor);
  if (pcMaxId !== undefined && !rootId) return pcComments(ctx, post.mid, pcMaxId);
  const { maxId, maxIdType } = decodeCommentCursor(cursor);
  if (cursor && !maxId) throw new InvalidInput('params.cursor: not a weibo comments cursor');
  const referer = `https://m.weibo.cn/detail/${post.mid}`;
  if (rootId) {
    if (!/^\d+$/.test(rootId)) throw new InvalidInput('params.replies_of: a numeric weibo comment id is expected');
    // hotFlowChild pages the replies of one root comment; its first page is asked for with max_id=0.
    const env = await getJson(ctx, ENDPOINTS.hotFlowChild, { cid: rootId, max_id: maxId ?? '0', max_id_type: maxIdType }, `replies of comment ${rootId}`, referer);
    if (env.kind === 'empty') return { items: [] };
    // This endpoint answers with data (the replies), max_id and total_number at the top level.
    const raw = env.raw;
    return {
      items: childComments(raw.data, post.mid, rootId),
      next_cursor: encodeCommentCursor(raw.max_id, raw.max_id_type),
      total: wholeCount(raw.total_number),
    };
  }
  // The cursors this adapter hands out name the max_id_type ("<max_id>:<type>"). A bare max_id comes from a
  // caller that read it off either route's answer: hotflow first, weibo.com's buildComments when hotflow fails.
  if (maxId && cursor?.includes(':')) return hotflowPage(ctx, post.mid, maxId, maxIdType);
  if (maxId) {
    return withFallback(
      () => hotflowPage(ctx, post.mid, maxId, maxIdType),
      () => pcComments(ctx, post.mid, maxId),
    );
  }
  // The first page: m.weibo.cn's hotflow, or weibo.com's buildComments when hotflow fails non-terminally.
  return withFallback(
    () => hotflowPage(ctx, post.mid, undefined, maxIdType),
    () => pcComments(ctx, post.mid),
  );
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: 'Hot comments of a weibo status, each followed by its inline replies (parent_id set); replies_of pages one thread',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the post: mid, bid, or post URL (m.weibo.cn/detail/<mid>, weibo.com/<uid>/<bid>)',
    },
    {
      name: 'replies_of',
      type: 'string',
      required: false,
      description: 'a root comment id (cid): page that comment\'s replies instead of the post\'s comments',
    },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
