import { InvalidInput, ParseError, UpstreamError } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { ENDPOINTS, fetchChecked, readJson } from './api.js';
import { count, obj, objs, str } from './json.js';
import { commentFrom } from './parse.js';
import { postUrl } from './refs.js';
import { resolvePost } from './resolve.js';
import { encodeQuery } from './signer.js';

/*
 * Top-level comments of a post, unsigned: GET /article/v4/tab_comments/?aid=24&app_name=toutiao_web&offset=
 * &count=&group_id=&item_id= (NanmiCoder/MediaCrawler jrtt client; search index 58672554702, 61100496583),
 * answering {err_no:0, message:"success", data[] {comment}, total_number, has_more, offset}. err_no ≠ 0 is a
 * refusal such as "params illegal" (71297596170). Replies come from a separate reply_list call and are
 * not fetched here.
 */

const PAGE_SIZE = 20;

export function commentsPage(raw: unknown, what: string): Page<Comment> {
  const body = obj(raw);
  if (!body) throw new ParseError(`${what}: not a JSON object`);
  if (body.err_no === undefined) throw new ParseError(`${what}: the answer carries no err_no`);
  if (Number(body.err_no) !== 0) throw new UpstreamError(`${what}: toutiao answered err_no ${String(body.err_no)} (${str(body.message) ?? 'no message'})`);
  const items = objs(body.data)
    .map((e) => commentFrom(e))
    .filter((c): c is Comment => !!c);
  const more = body.has_more === true || body.has_more === 1;
  const offset = count(body.offset);
  const page: Page<Comment> = { items, total: count(body.total_number) };
  if (more && offset !== undefined && items.length) page.next_cursor = String(offset);
  return page;
}

async function page(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  if (cursor !== undefined && !/^\d{1,7}$/.test(cursor)) throw new InvalidInput('params.cursor: not a toutiao comment cursor');
  const ref = await resolvePost(ctx, params.query);
  const what = `comments of ${ref.id}`;
  const query = encodeQuery([
    ['aid', '24'],
    ['app_name', 'toutiao_web'],
    ['offset', cursor ?? '0'],
    ['count', String(PAGE_SIZE)],
    ['group_id', ref.id],
    ['item_id', ref.id],
  ]);
  const res = await fetchChecked(ctx, { what, url: `${ENDPOINTS.comments}?${query}`, referer: postUrl(ref.id, ref.kind) });
  return commentsPage(readJson(res, what), what);
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: 'Top-level comments of a toutiao post (article, video or micro-post), 20 per page',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'post: www.toutiao.com/article|video|w|group/<id>/, toutiao.com/a<id>/, m.toutiao.com/i<id>/, an m.toutiao.com/is/<code>/ share link, or the group id',
    },
  ],
  page,
};
