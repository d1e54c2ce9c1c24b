import { ParseError } from '../../crawl/errors.js';
import type { CommentsAction, CrawlContext, ItemDraft, ItemsAction, Params } from '../types.js';
import { ENDPOINTS, getJson } from './api.js';
import { INSTANCE_PARAM, queryParam } from './common.js';
import { pickInstance } from './instance.js';
import { obj, statusToDraft, threadDescendants } from './parse.js';
import { parseStatusRef } from './refs.js';

const STATUS_QUERY = queryParam('the post: https://server/@user/<id>, server/<id>, or a status id (on params.instance)');

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'one post with its media (direct mp4/image URLs)',
  params: [STATUS_QUERY, INSTANCE_PARAM],
  async page(ctx, params) {
    return { items: [(await readStatus(ctx, params)).draft] };
  },
};

/** The status the reference names, as detail gives it, with the server's raw answer (download reads it). */
export async function readStatus(ctx: CrawlContext, params: Params): Promise<{ draft: ItemDraft; raw: unknown }> {
  const ref = parseStatusRef(params.query);
  const inst = pickInstance(ctx, params, ref.host);
  const { data } = await getJson(ctx, inst, ENDPOINTS.status(ref.id), undefined, `status ${ref.id}`);
  const draft = statusToDraft(data, inst.host);
  if (!draft) throw new ParseError(`status ${ref.id}: ${inst.host} answered without a status id`);
  return { draft, raw: data };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "a post's replies (its thread's descendants); a direct reply has no parent_id, a reply to a reply names it",
  params: [STATUS_QUERY, INSTANCE_PARAM],
  async page(ctx, params) {
    const ref = parseStatusRef(params.query);
    const inst = pickInstance(ctx, params, ref.host);
    const { data } = await getJson(ctx, inst, ENDPOINTS.context(ref.id), undefined, `context of status ${ref.id}`);
    const body = obj(data);
    if (!body || !Array.isArray(body.descendants)) throw new ParseError(`context of status ${ref.id}: no descendants list in ${inst.host}'s answer`);
    // The context endpoint is not paged: one answer holds every reply the server shows.
    const items = threadDescendants(body.descendants, ref.id, inst.host);
    return { items, total: items.length };
  },
  // One answer (or the page walk itself) carries the replies with parent_id set: replies=all passes them through.
  wholeTree: true,
};
