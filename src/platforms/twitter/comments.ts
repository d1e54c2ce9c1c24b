import { NotFound } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { gql } from './api.js';
import { conversationOf, count, cursorOf, instructionsOf, obj } from './parse.js';
import { resolveTweetId } from './refs.js';

/*
 * The replies of a post: the conversation modules after the focal tweet in TweetDetail (login only).
 * A reply to the post has no parent_id; a reply to a reply names the one it answers. Later pages follow
 * the Bottom cursor, or the ShowMoreThreads cursor X uses for the rest of a long conversation.
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const id = await resolveTweetId(ctx, params.query);
  const { body } = await gql(ctx, {
    op: 'TweetDetail',
    route: 'login',
    what: `replies to ${id}`,
    variables: { focalTweetId: id, referrer: 'tweet', with_rux_injections: true, ...(cursor ? { cursor } : {}) },
  });
  const instructions = instructionsOf(obj(body.data)) ?? [];
  const { focal, replies } = conversationOf(instructions, id);
  if (!cursor && focal?.kind === 'tombstone' && !replies.length) throw new NotFound(`X shows post ${id} as: ${focal.text}`);
  const next = cursorOf(instructions, 'Bottom', 'ShowMoreThreads', 'ShowMoreThreadsPrompt');
  const total = focal?.kind === 'tweet' ? count(obj(focal.tweet.legacy)?.reply_count) : undefined;
  return { items: replies, next_cursor: replies.length && next && next !== cursor ? next : undefined, total };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "An X post's replies (needs a logged-in profile), in X's conversation order; parent_id names the reply a reply answers",
  params: [{ name: 'query', type: 'string', required: true, description: 'post id, an x.com /status/<id> link or a t.co link' }],
  page: commentsPage,
  // One answer (or the page walk itself) carries the replies with parent_id set: replies=all passes them through.
  wholeTree: true,
};
