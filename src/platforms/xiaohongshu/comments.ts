import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { api, ENDPOINTS, explainMissingToken } from './api.js';
import { commentsOf, more, str } from './parse.js';
import { isId, resolveNote } from './refs.js';
import { viaRepliesOf } from '../replies-of.js';

const REPLIES_PER_PAGE = 10;
const CURSOR = /^[\w=+/-]{1,200}$/;

/*
 * A note's root comments (comment/page, cursor = the last comment id, has_more), each followed by the
 * replies the answer inlines; a thread's replies with replies_of (comment/sub/page, root_comment_id), each
 * reply's parent_id naming the comment it answers. Both need a login and the note's xsec_token.
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  if (cursor !== undefined && !CURSOR.test(cursor)) throw new InvalidInput('params.cursor: not a xiaohongshu comments cursor');
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !isId(root)) throw new InvalidInput('params.replies_of: a root comment id (24 hex characters) is expected');
  const note = await resolveNote(ctx, params.query);
  const token: Array<[string, string]> = note.xsecToken ? [['xsec_token', note.xsecToken]] : [];
  const what = root ? `replies to ${root}` : `comments of ${note.id}`;
  let data;
  try {
    data = root
      ? await api(ctx, {
          endpoint: 'replies',
          path: ENDPOINTS.replies,
          what,
          hadToken: !!note.xsecToken,
          query: [['note_id', note.id], ['root_comment_id', root], ['num', REPLIES_PER_PAGE], ['cursor', cursor ?? ''], ['image_formats', 'jpg,webp,avif'], ['top_comment_id', ''], ...token],
        })
      : await api(ctx, {
          endpoint: 'comments',
          path: ENDPOINTS.comments,
          what,
          hadToken: !!note.xsecToken,
          query: [['note_id', note.id], ['cursor', cursor ?? ''], ['top_comment_id', ''], ['image_formats', 'jpg,webp,avif'], ...token],
        });
  } catch (e) {
    throw explainMissingToken(e, !!note.xsecToken, what);
  }
  const items = commentsOf(data.comments, note.id, root || undefined);
  const next = str(data.cursor);
  return { items, next_cursor: more(data.has_more) && items.length && next && next !== cursor ? next : undefined };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A xiaohongshu note's comments with their inlined replies, or one thread's replies with replies_of (parent_id set); needs a stored login",
  params: [
    { name: 'query', type: 'string', required: true, description: 'a note URL with its xsec_token (as search/posts/recommended give it), a note id, or an xhslink.com share link' },
    { name: 'replies_of', type: 'string', required: false, description: "a root comment's id: page that thread's replies instead" },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
