import { CrawlError, InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, firstOf, isFallbackable, postRest, type Json } from './api.js';
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

async function restRoots(ctx: CrawlContext, photoId: string, pcursor: string): Promise<{ page: Page<Comment>; raws: Json[] }> {
  const body = await postRest(ctx, ENDPOINTS.commentList, { photoId, pcursor }, { what: `comments of ${photoId}`, referer: videoUrl(photoId) });
  const raws = objs(body.rootCommentsV2);
  const items = raws.map((r) => commentOf(r, photoId)).filter((c): c is Comment => !!c);
  return { raws, page: { items, total: parseCount(body.commentCountV2), next_cursor: nextOf(body.pcursorV2, raws.length) } };
}

async function graphqlRoots(ctx: CrawlContext, photoId: string, pcursor: string): Promise<{ page: Page<Comment>; raws: Json[] }> {
  const op = await graphql(ctx, 'commentListQuery', { photoId, pcursor }, { what: `comments of ${photoId}`, referer: videoUrl(photoId) });
  const raws = objs(op.rootComments);
  const seen = new Set<string>();
  const items: Comment[] = [];
  for (const raw of raws) {
    const root = commentOf(raw, photoId);
    if (!root || seen.has(root.cid)) continue;
    seen.add(root.cid);
    items.push(root, ...withParent(raw.subComments, photoId, root.cid, seen));
  }
  // Replies inlined here are already listed: the caller need not fetch them again.
  return { raws: [], page: { items, total: parseCount(op.commentCount), next_cursor: nextOf(op.pcursor, raws.length, 'g:') } };
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

/** Each root that has replies, followed by the first page of them; a thread that cannot be read is noted, not fatal. */
async function inlineReplies(ctx: CrawlContext, photoId: string, page: Page<Comment>, raws: Json[]): Promise<Page<Comment>> {
  const byId = new Map(raws.map((r) => [str(r.comment_id) ?? str(r.commentId) ?? '', r]));
  const items: Comment[] = [];
  const seen = new Set(page.items.map((c) => c.cid));
  for (const c of page.items) {
    items.push(c);
    const raw = byId.get(c.cid);
    if (!raw || !hasReplies(raw) || !ROOT_ID.test(c.cid)) continue;
    try {
      const replies = await repliesPage(ctx, photoId, c.cid, { graphql: false, pcursor: '' });
      for (const r of replies.items) {
        if (seen.has(r.cid)) continue;
        seen.add(r.cid);
        items.push(r);
      }
    } catch (e) {
      if (!isFallbackable(e)) throw e;
      ctx.warn(`replies to comment ${c.cid} could not be read (${e instanceof CrawlError ? `${e.code}: ` : ''}${(e as Error).message}); page them with replies_of`);
    }
  }
  return { ...page, items };
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !ROOT_ID.test(root)) throw new InvalidInput('params.replies_of: a numeric kuaishou comment id is expected');
  const c = cursor === undefined ? undefined : CURSOR.exec(cursor);
  if (cursor !== undefined && !c) throw new InvalidInput('params.cursor: not a kuaishou comments cursor');
  const photoId = await resolvePhoto(ctx, params.query);
  const at = { graphql: !!c?.[1], pcursor: c?.[2] ?? '' };
  if (root) return repliesPage(ctx, photoId, root, at);
  const { page, raws } = at.graphql
    ? await graphqlRoots(ctx, photoId, at.pcursor)
    : await firstOf([() => restRoots(ctx, photoId, at.pcursor), ...(cursor === undefined ? [() => graphqlRoots(ctx, photoId, '')] : [])]);
  return params.replies === true ? inlineReplies(ctx, photoId, page, raws) : page;
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A kuaishou video's comments (REST comment list, GraphQL as fallback); replies=true adds each thread's first replies (parent_id set); replies_of pages one thread",
  params: [
    { name: 'query', type: 'string', required: true, description: 'the video: photo id (3x…), short-video URL or share link' },
    { name: 'replies', type: 'boolean', required: false, description: 'follow each root comment that has replies with the first page of them (one request per thread)' },
    { name: 'replies_of', type: 'string', required: false, description: "a root comment id: page that comment's replies instead of the video's comments" },
  ],
  page: commentsPage,
};
