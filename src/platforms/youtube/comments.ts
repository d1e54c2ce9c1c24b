import { CrawlError, InvalidInput, NotFound, isReplayMiss } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { answeredAt, call } from './api.js';
import { decodeYtCursor, encodeYtCursor } from './cursor.js';
import { commentsEntry, parseCommentThreads, parseReplies } from './parse.js';
import { parseVideoRef } from './refs.js';

/*
 * Comments come from the watch page's `next` endpoint: the video's answer names the comment section's
 * continuation, each continuation answers ~20 threads (newer answers put the comment bodies in
 * frameworkUpdates.entityBatchUpdate.mutations as commentEntityPayload). With replies on, each thread is
 * followed by the first page of its replies (parent_id set), fetched through the thread's own continuation.
 */

const PAGE_TTL_MS = 10 * 60_000;

async function nextCall(ctx: CrawlContext, body: Record<string, unknown>, what: string) {
  return call(ctx, { client: 'WEB', endpoint: 'next', body, what });
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const videoId = parseVideoRef(params.query);
  const expand = params.replies !== 'none';
  // The runner re-asks the same page when a limit ends inside it; a page with its reply fetches is kept briefly.
  const cacheKey = `comments:${videoId}:${expand ? 1 : 0}:${cursor ?? ''}`;
  const cached = ctx.memo.get<Page<Comment>>(cacheKey);
  if (cached) return cached;

  let token = decodeYtCursor(ctx, cursor)?.t;
  if (!token) {
    const { body } = await nextCall(ctx, { videoId }, `watch page of ${videoId}`);
    const entry = commentsEntry(body);
    if ('off' in entry) {
      ctx.warn(`video ${videoId}: ${entry.off}`);
      return { items: [] };
    }
    if ('missing' in entry) throw new NotFound(`video ${videoId}: YouTube answered no watch page for it (unavailable)`);
    token = entry.token;
  }
  const { body, res } = await nextCall(ctx, { continuation: token }, `comments of ${videoId}`);
  const now = answeredAt(res);
  const page = parseCommentThreads(body, videoId, now);

  const items: Comment[] = [];
  // Where each thread's replies go on (replies=all): after the first page read here, else from its start.
  const replyCursors: Record<string, string | null> = {};
  let expanding = expand;
  let complete = true;
  for (const thread of page.threads) {
    items.push(thread.comment);
    if (!thread.replies) {
      replyCursors[thread.comment.cid] = null;
      continue;
    }
    replyCursors[thread.comment.cid] = encodeYtCursor(ctx, { t: thread.replies }) ?? null;
    if (!expanding) continue;
    try {
      const r = await nextCall(ctx, { continuation: thread.replies }, `replies to comment ${thread.comment.cid}`);
      const replies = parseReplies(r.body, videoId, thread.comment.cid, answeredAt(r.res));
      items.push(...replies.items);
      replyCursors[thread.comment.cid] = encodeYtCursor(ctx, replies.next ? { t: replies.next } : undefined) ?? null;
    } catch (e) {
      if (!isReplayMiss(e) && !(e instanceof CrawlError)) throw e;
      // Keep the page's comments; stop asking for replies after the first refusal.
      expanding = false;
      complete = false;
      ctx.warn(`replies not expanded from comment ${thread.comment.cid} on: ${(e as Error).message}`);
    }
  }
  const out: Page<Comment> = { items, next_cursor: encodeYtCursor(ctx, page.next ? { t: page.next } : undefined), total: page.total, reply_cursors: replyCursors };
  if (complete) ctx.memo.set(cacheKey, out, PAGE_TTL_MS);
  return out;
}

/** One thread's later reply pages: the cursor is the thread's reply continuation, as comments handed it out. */
async function repliesPage(ctx: CrawlContext, params: Params, parentCid: string, cursor?: string): Promise<Page<Comment>> {
  const videoId = parseVideoRef(params.query);
  const token = decodeYtCursor(ctx, cursor)?.t;
  if (!token) throw new InvalidInput(`youtube: replies to comment ${parentCid} are read from the thread's continuation, and none was given`);
  const { body, res } = await nextCall(ctx, { continuation: token }, `replies to comment ${parentCid}`);
  const r = parseReplies(body, videoId, parentCid, answeredAt(res));
  return { items: r.items, next_cursor: encodeYtCursor(ctx, r.next ? { t: r.next } : undefined) };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A YouTube video's top comments, each followed by the first page of its replies (parent_id set); replies all pages every thread",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the video: youtube.com/watch?v=<id>, /shorts/<id>, youtu.be/<id>, or an 11-character id',
    },
  ],
  page: commentsPage,
  replies: repliesPage,
};
