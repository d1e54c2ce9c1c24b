import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, webApi } from './api.js';
import { commentOf, count, objs, str, threadComments, type Json } from './parse.js';
import { postUrl } from './refs.js';
import { resolveVideo } from './resolve.js';
import { viaRepliesOf } from '../replies-of.js';

/*
 * /api/comment/list/?aweme_id= pages a post's comments (each top comment followed by the replies TikTok
 * inlines under it); /api/comment/list/reply/?item_id=&comment_id= pages one thread (TikTok-Api
 * comment.py). Both answer snake_case {comments, cursor, has_more, total}; the native cursor is TikTok's
 * offset.
 */

const PER_PAGE = '20';
const CURSOR = /^\d{1,9}$/;

/** The next offset while TikTok says there is more and the offset moved on. */
function nextCursor(body: Json, current: string, got: number): string | undefined {
  const next = str(body.cursor);
  const more = body.has_more === true || body.has_more === 1;
  return more && got > 0 && next && CURSOR.test(next) && Number(next) > Number(current) ? next : undefined;
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  if (cursor !== undefined && !CURSOR.test(cursor)) throw new InvalidInput('params.cursor: not a TikTok comments cursor');
  const named = [params.replies_of, params.parent_id].map((v) => (typeof v === 'string' ? v.trim() : '')).filter(Boolean);
  if (named.length === 2 && named[0] !== named[1]) throw new InvalidInput('params.replies_of and params.parent_id name different comments; pass one');
  const root = named[0] ?? '';
  if (root && !/^\d{1,24}$/.test(root)) throw new InvalidInput('params.replies_of: a numeric TikTok comment id (cid) is expected');
  const ref = await resolveVideo(ctx, params.query);
  const offset = cursor ?? '0';
  const referer = postUrl(ref.id, ref.handle, ref.photo);
  if (root) {
    const body = await webApi(ctx, {
      endpoint: 'comments',
      path: ENDPOINTS.commentReplies,
      params: [
        ['item_id', ref.id],
        ['comment_id', root],
        ['count', PER_PAGE],
        ['cursor', offset],
      ],
      referer,
      fromPage: 'video',
      what: `replies to comment ${root}`,
    });
    const items = objs(body.comments)
      .map(commentOf)
      .filter((c): c is Comment => !!c);
    for (const c of items) c.parent_id ??= root;
    return { items, total: count(body.total), next_cursor: nextCursor(body, offset, items.length) };
  }
  const body = await webApi(ctx, {
    endpoint: 'comments',
    path: ENDPOINTS.commentList,
    params: [
      ['aweme_id', ref.id],
      ['count', PER_PAGE],
      ['cursor', offset],
    ],
    referer,
    fromPage: 'video',
    what: `comments of ${ref.id}`,
  });
  const items = threadComments(body.comments);
  return { items, total: count(body.total), next_cursor: nextCursor(body, offset, objs(body.comments).length) };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A TikTok post's comments, each top comment followed by the replies TikTok inlines under it (parent_id set); replies_of pages one thread",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the post: video id, post URL or share link (vm.tiktok.com/…, vt.tiktok.com/…, www.tiktok.com/t/…)',
    },
    {
      name: 'replies_of',
      type: 'string',
      required: false,
      description: "a top comment's id (cid): page that comment's replies instead of the post's comments",
    },
    {
      name: 'parent_id',
      type: 'string',
      required: false,
      description: 'the same as replies_of, named after the parent_id its replies carry',
    },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
