import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, readJson } from './api.js';
import { idStr, obj, objs } from './json.js';
import { feedItemToDraft } from './parse.js';
import { creatorUrl } from './refs.js';
import { resolveToken } from './resolve.js';
import { encodeQuery, signedFetch } from './signer.js';

/*
 * A creator's posts: GET /api/pc/list/user/feed?category=profile_all&token=<token>&max_behot_time=<cursor>
 * &entrance_gid=&aid=24&app_name=toutiao_web (search index 71249200963), answering {message:"success",
 * data[], has_more, next:{max_behot_time}} (71249200963 get_user_all_work, 59167119737, 66250831631).
 * Signed with _signature on the web (signer.ts).
 */

export function feedPage(raw: unknown, what: string): Page<ItemDraft> {
  const body = obj(raw);
  if (!body) throw new ParseError(`${what}: not a JSON object`);
  if (body.message !== 'success') throw new ParseError(`${what}: message "${String(body.message ?? 'none')}"`);
  if (body.data !== undefined && body.data !== null && !Array.isArray(body.data)) throw new ParseError(`${what}: data is not a list`);
  const items = objs(body.data)
    .map((e) => feedItemToDraft(e))
    .filter((d): d is ItemDraft => !!d);
  const next = idStr(obj(body.next)?.max_behot_time);
  const more = body.has_more === true || body.has_more === 1;
  return { items, next_cursor: more && next && next !== '0' ? next : undefined };
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !/^\d{1,13}$/.test(cursor)) throw new InvalidInput('params.cursor: not a toutiao feed cursor');
  const token = await resolveToken(ctx, params.query);
  const query = encodeQuery([
    ['category', 'profile_all'],
    ['token', token],
    ['max_behot_time', cursor ?? '0'],
    ['entrance_gid', ''],
    ['aid', '24'],
    ['app_name', 'toutiao_web'],
  ]);
  const what = `posts of ${token}`;
  const res = await signedFetch(ctx, { endpoint: 'posts', what, url: `${ENDPOINTS.userFeed}?${query}`, referer: creatorUrl(token) });
  return feedPage(readJson(res, what), what);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A toutiao creator's posts (articles, videos, micro-posts), newest first; _signature-signed (unsigned first, the page's own signer after a refusal)",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: www.toutiao.com/c/user/token/<token>/, www.toutiao.com/c/user/<uid>/, the token (MS4wLjABAAAA…), the numeric user id, or a share link',
    },
  ],
  page: postsPage,
};
