import { InvalidInput } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ApiCodeError, COMMENTS_CLOSED, ENDPOINTS, firstOf, getJson, type Answer, type GetOptions } from './api.js';
import { commentOf, obj, objs, str, threadComments, wholeCount } from './parse.js';
import { videoUrl, type VideoRef } from './refs.js';
import { resolveVideo } from './resolve.js';
import { viaRepliesOf } from '../replies-of.js';

/*
 * Three equivalent lists serve a video's comments: the web player's cursor list (wbi/main), the older
 * page-number list (x/v2/reply) and, for hot order, x/v2/reply/hot; before WBI the cursor list was
 * x/v2/reply/main. The native cursor names the list it pages: "m:<offset>", "n:<next>", "p:<pn>",
 * "h:<pn>"; replies of one comment page as "r:<pn>".
 */

export const SORTS = ['hot', 'time'] as const;
type Sort = (typeof SORTS)[number];
const PER_PAGE = 20;
/** bilibili's comment-area type for a video (oid = aid). */
const VIDEO_TYPE = 1;

async function get(ctx: CrawlContext, ref: VideoRef, url: string, o: GetOptions): Promise<Answer | 'closed'> {
  try {
    return await getJson(ctx, url, { referer: videoUrl(ref.bvid), ...o });
  } catch (e) {
    if (e instanceof ApiCodeError && COMMENTS_CLOSED.has(e.apiCode)) return 'closed';
    throw e;
  }
}

function closed(ctx: CrawlContext, ref: VideoRef): Page<Comment> {
  ctx.warn(`the comment area of ${ref.bvid} is closed`);
  return { items: [], total: 0 };
}

/** Page-number lists: the next page exists while num * size < count. */
function nextPage(page: unknown, prefix: string, got: number): string | undefined {
  const p = obj(page) ?? {};
  const num = Number(p.num);
  const size = Number(p.size);
  const count = Number(p.count);
  return got > 0 && Number.isSafeInteger(num) && num > 0 && size > 0 && num * size < count ? `${prefix}:${num + 1}` : undefined;
}

async function mainPage(ctx: CrawlContext, ref: VideoRef, sort: Sort, offset?: string): Promise<Page<Comment>> {
  const answer = await get(ctx, ref, ENDPOINTS.replyMainWbi, {
    what: `comments of ${ref.bvid}`,
    sign: true,
    // The first page goes without pagination_str; later pages carry the offset the previous one returned.
    query: { oid: ref.aid, type: VIDEO_TYPE, mode: sort === 'time' ? 2 : 3, pagination_str: offset === undefined ? undefined : JSON.stringify({ offset }), plat: 1, web_location: 1315875 },
  });
  if (answer === 'closed') return closed(ctx, ref);
  const { data } = answer;
  const cursor = obj(data.cursor) ?? {};
  const seen = new Set<string>();
  // Pinned comments lead the first page only.
  const pinned = offset === undefined ? threadComments(data.top_replies, ref.bvid, seen) : [];
  const items = [...pinned, ...threadComments(data.replies, ref.bvid, seen)];
  const next = str(obj(cursor.pagination_reply)?.next_offset);
  return {
    items,
    total: wholeCount(cursor.all_count),
    next_cursor: cursor.is_end !== true && objs(data.replies).length && next ? `m:${next}` : undefined,
  };
}

/** The pre-WBI cursor list (x/v2/reply/main): next=0 opens it, data.cursor.next names the following page. */
async function oldMainPage(ctx: CrawlContext, ref: VideoRef, sort: Sort, next: number): Promise<Page<Comment>> {
  const answer = await get(ctx, ref, ENDPOINTS.replyMain, {
    what: `comments of ${ref.bvid}`,
    query: { type: VIDEO_TYPE, oid: ref.aid, mode: sort === 'time' ? 2 : 3, next, ps: PER_PAGE, plat: 1 },
  });
  if (answer === 'closed') return closed(ctx, ref);
  const { data } = answer;
  const cursor = obj(data.cursor) ?? {};
  const seen = new Set<string>();
  const first = next === 0;
  const pinned = first ? [...threadComments(data.top_replies, ref.bvid, seen), ...threadComments([obj(data.upper)?.top].filter(Boolean), ref.bvid, seen)] : [];
  const items = [...pinned, ...threadComments(data.replies, ref.bvid, seen)];
  const following = Number(cursor.next);
  const more = cursor.is_end !== true && objs(data.replies).length > 0 && Number.isInteger(following) && following > 0 && following !== next;
  return { items, total: wholeCount(cursor.all_count), next_cursor: more ? `n:${following}` : undefined };
}

async function replyPage(ctx: CrawlContext, ref: VideoRef, sort: Sort, pn: number): Promise<Page<Comment>> {
  const answer = await get(ctx, ref, ENDPOINTS.reply, {
    what: `comments of ${ref.bvid}`,
    query: { type: VIDEO_TYPE, oid: ref.aid, sort: sort === 'time' ? 0 : 1, ps: PER_PAGE, pn, nohot: 1 },
  });
  if (answer === 'closed') return closed(ctx, ref);
  const { data } = answer;
  const seen = new Set<string>();
  const pinned = pn === 1 ? threadComments([obj(data.upper)?.top].filter(Boolean), ref.bvid, seen) : [];
  const items = [...pinned, ...threadComments(data.replies, ref.bvid, seen)];
  const page = obj(data.page) ?? {};
  return { items, total: wholeCount(page.acount) ?? wholeCount(page.count), next_cursor: nextPage(page, 'p', objs(data.replies).length) };
}

async function hotPage(ctx: CrawlContext, ref: VideoRef, pn: number): Promise<Page<Comment>> {
  const answer = await get(ctx, ref, ENDPOINTS.replyHot, {
    what: `hot comments of ${ref.bvid}`,
    query: { type: VIDEO_TYPE, oid: ref.aid, ps: PER_PAGE, pn },
  });
  if (answer === 'closed') return closed(ctx, ref);
  const { data } = answer;
  const page = obj(data.page) ?? {};
  return {
    items: threadComments(data.replies, ref.bvid),
    total: wholeCount(page.acount) ?? wholeCount(page.count),
    next_cursor: nextPage(page, 'h', objs(data.replies).length),
  };
}

async function repliesPage(ctx: CrawlContext, ref: VideoRef, root: string, pn: number): Promise<Page<Comment>> {
  const answer = await get(ctx, ref, ENDPOINTS.replyReply, {
    what: `replies to comment ${root}`,
    query: { type: VIDEO_TYPE, oid: ref.aid, root, ps: PER_PAGE, pn },
  });
  if (answer === 'closed') return closed(ctx, ref);
  const { data } = answer;
  const items = objs(data.replies)
    .map((r) => commentOf(r, ref.bvid))
    .filter((c): c is Comment => !!c);
  for (const c of items) c.parent_id ??= root;
  const page = obj(data.page) ?? {};
  return { items, total: wholeCount(page.count), next_cursor: nextPage(page, 'r', items.length) };
}

const CURSOR = /^([mnphr]):(.+)$/;

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const sort = (params.sort as Sort | undefined) ?? 'hot';
  if (!(SORTS as readonly string[]).includes(sort)) throw new InvalidInput(`params.sort: one of ${SORTS.join(', ')}`);
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !/^\d{1,20}$/.test(root)) throw new InvalidInput('params.replies_of: a numeric bilibili comment id (rpid) is expected');
  const ref = await resolveVideo(ctx, params.query);
  const c = cursor === undefined ? undefined : CURSOR.exec(cursor);
  if (cursor !== undefined && !c) throw new InvalidInput('params.cursor: not a bilibili comments cursor');
  const pn = (): number => {
    if (!c || !/^[1-9]\d{0,5}$/.test(c[2])) throw new InvalidInput('params.cursor: not a bilibili comments cursor');
    return Number(c[2]);
  };
  if (root) {
    if (c && c[1] !== 'r') throw new InvalidInput('params.cursor: this cursor pages the comment list, not replies_of');
    return repliesPage(ctx, ref, root, c ? pn() : 1);
  }
  if (c?.[1] === 'r') throw new InvalidInput('params.cursor: this cursor pages replies; pass replies_of too');
  if (c?.[1] === 'm') return mainPage(ctx, ref, sort, c[2]);
  if (c?.[1] === 'n') return oldMainPage(ctx, ref, sort, pn());
  if (c?.[1] === 'p') return replyPage(ctx, ref, sort, pn());
  if (c?.[1] === 'h') return hotPage(ctx, ref, pn());
  return firstOf([
    () => mainPage(ctx, ref, sort),
    () => oldMainPage(ctx, ref, sort, 0),
    () => replyPage(ctx, ref, sort, 1),
    ...(sort === 'hot' ? [() => hotPage(ctx, ref, 1)] : []),
  ]);
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "A bilibili video's comments, each root followed by the replies bilibili inlines under it (parent_id set); replies_of pages one thread",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the video: BV id, av id, video URL or b23.tv short link',
    },
    { name: 'sort', type: 'string', required: false, enum: [...SORTS], description: 'hot (default: by likes) or time (newest first)' },
    {
      name: 'replies_of',
      type: 'string',
      required: false,
      description: "a root comment id (rpid): page that comment's replies instead of the video's comments",
    },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
