import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, isFallbackable, shareGet, webGet, type Json } from './api.js';
import { awemeToDraft, obj, objs, str } from './parse.js';
import { resolvePostId, videoUrl } from './refs.js';

/** A detail answer without its aweme: filter_detail says why (deleted, private, under review). */
function gone(json: Json, id: string): never {
  const filter = obj(json.filter_detail) ?? objs(json.filter_list)[0];
  const reason = str(filter?.filter_reason) ?? str(filter?.detail_msg) ?? str(filter?.notice);
  throw new NotFound(`douyin post ${id} is not available${reason ? ` (${reason})` : ''}`);
}

/** The post's aweme struct with its draft (download reads the struct's every stream). */
export interface AwemeFound {
  aweme: Json;
  draft: ItemDraft;
}

async function fromWeb(ctx: CrawlContext, id: string): Promise<AwemeFound> {
  const json = await webGet(ctx, { endpoint: 'detail', url: ENDPOINTS.detail, what: `detail ${id}`, referer: videoUrl(id), params: { aweme_id: id } });
  const draft = awemeToDraft(json.aweme_detail);
  if (!draft) gone(json, id);
  return { aweme: obj(json.aweme_detail) as Json, draft };
}

/**
 * The share page carries the post in `window._ROUTER_DATA = {...}` (loaderData "video_(id)/page" or
 * "note_(id)/page" → videoInfoRes.item_list[0]); its play_addr is the /playwm/ rendition, turned clean
 * in parsing. No signature is involved, which makes it the fallback when the web API refuses ours.
 */
export function routerData(html: string): Json | undefined {
  const at = html.indexOf('window._ROUTER_DATA');
  if (at < 0) return undefined;
  const start = html.indexOf('{', at);
  const end = html.indexOf('</script>', start);
  if (start < 0 || end < 0) return undefined;
  const text = html.slice(start, end).trim().replace(/;\s*$/, '');
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}

async function fromSharePage(ctx: CrawlContext, id: string): Promise<AwemeFound> {
  const what = `share page of ${id}`;
  const res = await shareGet(ctx, `${ENDPOINTS.sharePage}${id}/`, what);
  const data = routerData(res.text());
  if (!data) throw new ParseError(`${what}: no _ROUTER_DATA on the page`);
  const loader = obj(data.loaderData) ?? {};
  const page = Object.entries(loader).find(([k, v]) => /^(?:video|note|slides)_\(id\)\/page$/.test(k) && obj(v))?.[1];
  const info = obj(obj(page)?.videoInfoRes);
  if (!info) throw new ParseError(`${what}: _ROUTER_DATA carries no videoInfoRes`);
  const draft = awemeToDraft(objs(info.item_list)[0]);
  if (!draft) gone(info, id);
  return { aweme: objs(info.item_list)[0], draft };
}

/** The post from the web API, or from its share page when the web API refuses. */
export async function findAweme(ctx: CrawlContext, query: unknown): Promise<AwemeFound> {
  const id = await resolvePostId(ctx, query as Params['query']);
  return firstAnswering([() => fromWeb(ctx, id), () => fromSharePage(ctx, id)], isFallbackable);
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const { draft } = await findAweme(ctx, params.query);
  const id = draft.native_id;
  if (draft.type === 'video' && !draft.media?.length) ctx.warn(`douyin answered post ${id} without a playable stream`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One douyin post with its watermark-free stream (the highest bit rate offered) or its images',
  params: [{ name: 'query', type: 'string', required: true, description: 'aweme id, www.douyin.com/video/<id> or /note/<id> link, a ?modal_id= link, or a v.douyin.com share link' }],
  page: detailPage,
};
