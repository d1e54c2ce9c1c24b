import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { postToComment } from './parse.js';
import { focalPost, postPage, SORTS, type Sort } from './postpage.js';
import { parsePostRef } from './refs.js';
import { viaRepliesOf } from '../replies-of.js';

const PER_PAGE = 20;

/*
 * A post's replies. Each reply thread is a reply to the post followed by the replies chained under it
 * (the site draws them on one line): the first one has no parent_id (it answers the post), each later one
 * answers the one before it. replies_of pages one reply's own replies, all with parent_id = that reply.
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const sort = (params.sort as Sort | undefined) ?? 'top';
  if (!SORTS.includes(sort)) throw new InvalidInput(`params.sort: one of ${SORTS.join(', ')}`);
  const repliesOf = typeof params.replies_of === 'string' && params.replies_of.trim() ? parsePostRef(params.replies_of) : undefined;
  const post = repliesOf ?? parsePostRef(params.query);
  const page = await postPage(ctx, { post, sort, cursor, first: PER_PAGE });
  const items: Comment[] = [];
  const seen = new Set<string>([post.pk]);
  for (const thread of page.replies) {
    let parent = repliesOf?.pk;
    for (const reply of thread) {
      if (seen.has(reply.pk)) continue;
      seen.add(reply.pk);
      if (!reply.unavailable) items.push(postToComment(reply, parent));
      parent = reply.pk;
    }
  }
  const focal = cursor === undefined ? focalPost(page, post.pk) : undefined;
  return { items, next_cursor: page.nextCursor, total: focal?.replies };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A threads post's replies, threaded (parent_id names the reply answered); anonymous",
  params: [
    { name: 'query', type: 'string', required: true, description: 'a threads.com /@user/post/<code> link, the post code, or its numeric id' },
    { name: 'sort', type: 'string', required: false, default: 'top', enum: SORTS, description: 'top (as the site ranks them) or recent' },
    { name: 'replies_of', type: 'string', required: false, description: "a reply's link, code or id: page that reply's own replies instead (parent_id = it)" },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
