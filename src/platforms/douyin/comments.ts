import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, webGet } from './api.js';
import { commentsOf } from './parse.js';
import { resolvePostId, videoUrl } from './refs.js';
import { viaRepliesOf } from '../replies-of.js';

const PER_PAGE = 20;
const REPLIES_PER_PAGE = 20;

/*
 * A post's comments page by offset (cursor, has_more, total); a thread's replies come from
 * comment/list/reply with the root's cid (replies_of), each reply's parent_id naming the comment answered.
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  if (cursor !== undefined && !/^\d{1,7}$/.test(cursor)) throw new InvalidInput('params.cursor: not a douyin comments cursor');
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !/^\d{1,20}$/.test(root)) throw new InvalidInput('params.replies_of: a numeric douyin comment id (cid) is expected');
  const id = await resolvePostId(ctx, params.query);
  const offset = cursor ?? '0';
  const json = root
    ? await webGet(ctx, { endpoint: 'replies', url: ENDPOINTS.replies, what: `replies to ${root}`, referer: videoUrl(id), params: { item_id: id, comment_id: root, cut_version: 1, cursor: offset, count: REPLIES_PER_PAGE, item_type: 0 } })
    : await webGet(ctx, { endpoint: 'comments', url: ENDPOINTS.comments, what: `comments of ${id}`, referer: videoUrl(id), params: { aweme_id: id, cursor: offset, count: PER_PAGE, item_type: 0 } });
  const items = commentsOf(json.comments, id, root || undefined);
  const next = Number(json.cursor);
  const total = Number(json.total);
  const hasMore = json.has_more === 1 || json.has_more === true;
  return {
    items,
    next_cursor: hasMore && items.length && Number.isSafeInteger(next) && next > Number(offset) ? String(next) : undefined,
    total: Number.isSafeInteger(total) && total >= 0 ? total : undefined,
  };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A douyin post's comments (newest pages by offset), or one thread's replies with replies_of (parent_id set)",
  params: [
    { name: 'query', type: 'string', required: true, description: 'aweme id, post link or v.douyin.com share link' },
    { name: 'replies_of', type: 'string', required: false, description: "a root comment's cid: page that thread's replies instead" },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
