import { randomBytes } from 'node:crypto';
import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { read } from './api.js';
import { type Flat, type Stub, commentListing, continuedReplies, flattenThings, flattenTree, postOf, whole } from './parse.js';
import { samePage } from './detail.js';
import { resolvePostRef } from './share.js';

/*
 * The first page is the submission's comment tree as reddit sends it (up to 500 comments), depth first.
 * Reddit leaves the rest as "more" stubs; each following page expands one of them, through
 * /api/morechildren (ids, at most 100 a call) or the parent's own page for "continue this thread".
 * Replies found later come on later pages, always after their parent, with parent_id set.
 */

export const COMMENT_SORTS = ['confidence', 'top', 'new', 'controversial', 'old', 'qa'];
/** num_comments as a comments total: a whole number, not below zero. */
export const commentsTotal = (v: unknown): number | undefined => {
  const n = whole(v);
  return n !== undefined && n >= 0 ? n : undefined;
};
/** Reddit's cap on comments per tree request. */
const TREE_LIMIT = 500;
/** /api/morechildren takes at most 100 ids per call. */
const MORE_BATCH = 100;
/** The cursor travels inside the service's own (base64, ≤ 2048 chars); longer stub lists wait in memo. */
const CURSOR_INLINE_MAX = 1400;
const SPILL_TTL_MS = 6 * 3600_000;

export function encodeStubs(stubs: Stub[]): string {
  return stubs.map((s) => ('continueFrom' in s ? `^${s.continueFrom}` : s.children.join(','))).join(';');
}

export function decodeStubs(text: string): Stub[] {
  if (!/^[\^a-z0-9,;]*$/i.test(text)) throw new InvalidInput('params.cursor: not a reddit comments cursor');
  return text
    .split(';')
    .filter(Boolean)
    .map((s) => (s.startsWith('^') ? { continueFrom: s.slice(1) } : { children: s.split(',').filter(Boolean) }));
}

export function encodeCursor(ctx: CrawlContext, postId: string, stubs: Stub[]): string | undefined {
  if (!stubs.length) return undefined;
  const inline = encodeStubs(stubs);
  if (inline.length <= CURSOR_INLINE_MAX) return `${postId}:${inline}`;
  const key = randomBytes(9).toString('hex');
  ctx.memo.set(`reddit:comment-stubs:${key}`, inline, SPILL_TTL_MS);
  return `${postId}:@${key}`;
}

export function decodeCursor(ctx: CrawlContext, cursor: string, postId: string): Stub[] {
  const at = cursor.indexOf(':');
  if (at < 1) throw new InvalidInput('params.cursor: not a reddit comments cursor');
  if (cursor.slice(0, at) !== postId) throw new InvalidInput('params.cursor: this cursor belongs to the comments of another post');
  const rest = cursor.slice(at + 1);
  if (!rest.startsWith('@')) return decodeStubs(rest);
  const kept = ctx.memo.get<string>(`reddit:comment-stubs:${rest.slice(1)}`);
  if (kept === undefined) throw new InvalidInput('params.cursor: this comments cursor has expired (its remaining threads were kept for 6 hours); start again without a cursor');
  return decodeStubs(kept);
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const ref = await resolvePostRef(ctx, params.query);
  const id = ref.kind === 'comment' ? ref.postId : ref.id;
  if (!id) throw new InvalidInput('params.query: a comment fullname alone does not name its post; pass the comment or post URL');
  const sort = (params.sort as string | undefined) ?? 'confidence';
  const what = `comments of t3_${id}`;
  if (cursor === undefined) {
    // The whole tree first; a comment's permalink (its thread) only when the submission page has no answer.
    const body = await read(ctx, { what, variants: [{ path: `/comments/${id}` }, ...samePage(params.query, ref)], query: { raw_json: 1, sort, limit: TREE_LIMIT } });
    const post = postOf(body, what);
    const flat = flattenTree(commentListing(body, what).children, id);
    return { items: flat.comments, next_cursor: encodeCursor(ctx, id, flat.stubs), total: commentsTotal(post?.num_comments) };
  }
  const stubs = decodeCursor(ctx, cursor, id);
  const stub = stubs.shift();
  if (!stub) return { items: [] };
  let flat: Flat;
  if ('continueFrom' in stub) {
    const body = await read(ctx, {
      what: `${what}, thread of t1_${stub.continueFrom}`,
      variants: [{ path: `/comments/${id}/_/${stub.continueFrom}` }],
      query: { raw_json: 1, sort, limit: TREE_LIMIT },
    });
    flat = continuedReplies(body, stub.continueFrom, id, what);
  } else {
    const batch = stub.children.slice(0, MORE_BATCH);
    if (stub.children.length > MORE_BATCH) stubs.unshift({ children: stub.children.slice(MORE_BATCH) });
    const body = await read(ctx, {
      what: `${what}, ${batch.length} more`,
      variants: [{ path: '/api/morechildren' }],
      query: { raw_json: 1 },
      form: { api_type: 'json', children: batch.join(','), link_id: `t3_${id}`, sort },
    });
    flat = flattenThings(body, id, what);
  }
  // Stubs found inside the expansion come first: reading stays depth first.
  return { items: flat.comments, next_cursor: encodeCursor(ctx, id, [...flat.stubs, ...stubs]) };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A reddit post's whole comment tree, depth first, with every \"load more\" and \"continue this thread\" expanded; replies carry parent_id",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'post URL (reddit.com/r/<sub>/comments/<id>/…), redd.it/<id>, share link (/r/<sub>/s/<code>), t3_<id> or bare id',
    },
    { name: 'sort', type: 'string', required: false, default: 'confidence', enum: COMMENT_SORTS, description: "comment order (confidence is reddit's \"best\")" },
  ],
  page: commentsPage,
  // One answer (or the page walk itself) carries the replies with parent_id set: replies=all passes them through.
  wholeTree: true,
};
