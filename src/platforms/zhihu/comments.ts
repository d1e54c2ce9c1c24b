import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { apiGet, ENDPOINTS } from './api.js';
import { commentOf, count, obj, objs, str } from './parse.js';
import { contentUrl, parseContentRef } from './refs.js';
import { viaRepliesOf } from '../replies-of.js';

const PER_PAGE = 20;
/** comment_v5 offsets look like "456770961_10125996085_0". */
const OFFSET = /^[\w.-]{1,160}$/;

function nextOffset(paging: Record<string, unknown> | undefined, current: string): string | undefined {
  if (!paging || paging.is_end === true) return undefined;
  try {
    const next = new URL(str(paging.next) ?? '').searchParams.get('offset');
    return next && OFFSET.test(next) && next !== current ? next : undefined;
  } catch {
    return undefined;
  }
}

/*
 * comment_v5: a content's root comments (answers, articles, videos), or with replies_of one root comment's
 * replies, each reply's parent_id naming the comment it answers (reply_comment_id, else the root).
 * A 404 on these endpoints is how zhihu says a content has no comments (MediaCrawler zhihu/client.py).
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  if (cursor !== undefined && !OFFSET.test(cursor)) throw new InvalidInput('params.cursor: not a zhihu comments cursor');
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !/^\d{1,20}$/.test(root)) throw new InvalidInput('params.replies_of: a numeric zhihu comment id is expected');
  const ref = parseContentRef(params.query, ['answer', 'article', 'zvideo']);
  const offset = cursor ?? '';
  const json = root
    ? await apiGet(ctx, { endpoint: 'replies', url: ENDPOINTS.childComments(root), what: `replies to comment ${root}`, referer: contentUrl(ref), emptyOn404: true, params: [['order_by', 'ts'], ['limit', PER_PAGE], ['offset', offset]] })
    : await apiGet(ctx, { endpoint: 'comments', url: ENDPOINTS.rootComments(ref.kind, ref.id), what: `comments of ${ref.kind} ${ref.id}`, referer: contentUrl(ref), emptyOn404: true, params: [['order_by', 'score'], ['limit', PER_PAGE], ['offset', offset]] });
  if (!json) {
    ctx.warn(`zhihu answered 404 for the ${root ? `replies to comment ${root}` : `comments of ${ref.kind} ${ref.id}`}: it has none (or they are closed)`);
    return { items: [] };
  }
  const items = objs(json.data).map((c) => commentOf(c, root || undefined)).filter((c): c is Comment => !!c);
  const paging = obj(json.paging);
  const total = count(paging?.totals) ?? count(obj(json.counts)?.total_counts);
  return { items, next_cursor: items.length ? nextOffset(paging, offset) : undefined, total };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A zhihu answer's, article's or video's comments (by score), or one thread's replies with replies_of (parent_id set)",
  params: [
    { name: 'query', type: 'string', required: true, description: 'an answer, article or video: link or answer:<id> / article:<id> / zvideo:<id>' },
    { name: 'replies_of', type: 'string', required: false, description: "a root comment's id: page that thread's replies instead" },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
