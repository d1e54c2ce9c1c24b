import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, firstOf, postRest, type Json } from './api.js';
import { graphql } from './graphql.js';
import { commentOf, hasReplies, objs, parseCount, str } from './parse.js';
import { videoUrl } from './refs.js';
import { resolvePhoto } from './resolve.js';

/*
 * Root comments: REST /rest/v/photo/comment/list {photoId, pcursor} (rootCommentsV2, pcursorV2,
 * commentCountV2), else GraphQL commentListQuery (rootComments with their first replies inline).
 * Replies of one root: REST /rest/v/photo/comment/sublist {photoId, pcursor, rootCommentId (a number)},
 * else GraphQL visionSubCommentList. "no_more" ends every list. The REST pcursor is the cursor as is;
 * a GraphQL one is "g:<pcursor>".
 */

const END = 'no_more';
const ROOT_ID = /^[1-9]\d{0,14}$/;
const CURSOR = /^(g:)?([\w.+-]{0,64})$/;

const nextOf = (pcursor: unknown, got: number, prefix = ''): string | undefined => {
  const p = str(pcursor);
  return p && p !== END && got > 0 ? `${prefix}${p}` : undefined;
};

function withParent(list: unknown, photoId: string, parent: string, seen: Set<string>): Comment[] {
  const out: Comment[] = [];
  for (const raw of objs(list)) {
    const c = commentOf(raw, photoId, parent);
    if (c && !seen.has(c.cid)) {
      seen.add(c.cid);
      out.push(c);
    }
  }
  return out;
}

async function restRoots(ctx: CrawlContext, photoId: string, pcursor: string): Promise<Page<Comment>> {
  const body = await postRest(ctx, ENDPOINTS.commentList, { photoId, pcursor }, { what: `comments of ${photoId}`, referer: videoUrl(photoId) });
  const raws = objs(body.rootCommentsV2);
  const items: Comment[] = [];
  const replyCursors: Record<string, string | null> = {};
  for (const raw of raws) {
    const c = commentOf(raw, photoId);
    if (!c) continue;
    items.push(c);
    // A root announces its replies with a flag (its count may be absent): '' reads them from the first sublist page.
    replyCursors[c.cid] = hasReplies(raw) ? '' : null;
  }
  return { items, total: parseCount(body.commentCountV2), next_cursor: nextOf(body.pcursorV2, raws.length), reply_cursors: replyCursors };
}

async function graphqlRoots(ctx: CrawlContext, photoId: string, pcursor: string): Promise<Page<Comment>> {
  const op = await graphql(ctx, 'commentListQuery', { photoId, pcursor }, { what: `comments of ${photoId}`, referer: videoUrl(photoId) });
  const raws = objs(op.rootComments);
  const seen = new Set<string>();
  const items: Comment[] = [];
  const replyCursors: Record<string, string | null> = {};
  for (const raw of raws) {
    const root = commentOf(raw, photoId);
    if (!root || seen.has(root.cid)) continue;
    seen.add(root.cid);
    items.push(root, ...withParent(raw.subComments, photoId, root.cid, seen));
    // The inline replies are the thread's first page: its pcursor says where the rest begins.
    replyCursors[root.cid] = hasReplies(raw) ? (nextOf(raw.subCommentsPcursor, 1, 'g:') ?? '') : null;
  }
  return { items, total: parseCount(op.commentCount), next_cursor: nextOf(op.pcursor, raws.length, 'g:'), reply_cursors: replyCursors };
}

async function repliesPage(ctx: CrawlContext, photoId: string, root: string, cursor: { graphql: boolean; pcursor: string }): Promise<Page<Comment>> {
  const what = `replies to comment ${root} of ${photoId}`;
  const rest = async (): Promise<Page<Comment>> => {
    const body = await postRest(ctx, ENDPOINTS.commentSublist, { photoId, pcursor: cursor.pcursor, rootCommentId: Number(root) }, { what, referer: videoUrl(photoId) });
    const items = withParent(body.subCommentsV2, photoId, root, new Set());
    return { items, next_cursor: nextOf(body.pcursorV2, objs(body.subCommentsV2).length) };
  };
  const gql = async (): Promise<Page<Comment>> => {
    const op = await graphql(ctx, 'visionSubCommentList', { photoId, rootCommentId: root, pcursor: cursor.pcursor }, { what, referer: videoUrl(photoId) });
    const items = withParent(op.subComments, photoId, root, new Set());
    return { items, next_cursor: nextOf(op.pcursor, objs(op.subComments).length, 'g:') };
  };
  if (cursor.graphql) return gql();
  return firstOf([rest, ...(cursor.pcursor === '' ? [gql] : [])]);
}

function cursorOf(cursor: string | undefined): { graphql: boolean; pcursor: string } {
  const c = cursor === undefined ? undefined : CURSOR.exec(cursor);
  if (cursor !== undefined && !c) throw new InvalidInput('params.cursor: not a kuaishou comments cursor');
  return { graphql: !!c?.[1], pcursor: c?.[2] ?? '' };
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !ROOT_ID.test(root)) throw new InvalidInput('params.replies_of: a numeric kuaishou comment id is expected');
  const at = cursorOf(cursor);
  const photoId = await resolvePhoto(ctx, params.query);
  if (root) return repliesPage(ctx, photoId, root, at);
  return at.graphql
    ? graphqlRoots(ctx, photoId, at.pcursor)
    : firstOf([() => restRoots(ctx, photoId, at.pcursor), ...(cursor === undefined ? [() => graphqlRoots(ctx, photoId, '')] : [])]);
}

/** replies=all: one root's replies through the sublist (GraphQL visionSubCommentList as fallback). */
async function threadPage(ctx: CrawlContext, params: Params, parentCid: string, cursor?: string): Promise<Page<Comment>> {
  if (!ROOT_ID.test(parentCid)) return { items: [] };
  const at = cursorOf(cursor);
  return repliesPage(ctx, await resolvePhoto(ctx, params.query), parentCid, at);
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A kuaishou video's comments (REST comment list, GraphQL as fallback); replies all pages each thread's replies (parent_id set); replies_of pages one thread",
  params: [
    { name: 'query', type: 'string', required: true, description: 'the video: photo id (3x…), short-video URL or share link' },
    { name: 'replies_of', type: 'string', required: false, description: "a root comment id: page that comment's replies instead of the video's comments" },
  ],
  page: commentsPage,
  replies: threadPage,
};
