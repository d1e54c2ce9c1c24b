import { ParseError, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, M_WEB, fetchPage, firstOf, scopeSection, webApi } from './api.js';
import { detailItemOf, idOf, itemToDraft, obj, objs, type Json } from './parse.js';
import { postUrl, type VideoRef } from './refs.js';
import { resolveVideo } from './resolve.js';

/*
 * A post's detail comes from three equivalent sources, in this order:
 *  1. its page's rehydration JSON (webapp.video-detail): no signature at all, so neither X-Bogus nor the
 *     X-Gnarly we cannot compute natively matters; yt-dlp reads the same; its statusCode also says
 *     private (10216/10222) or IP-blocked (10204);
 *  2. the signed /api/item/detail/?itemId= on www.tiktok.com;
 *  3. the same path on m.tiktok.com, where the 2020 web client sent it.
 * A later source is tried only after an outage, an unreadable answer or a challenge page on an earlier
 * one; a block, a login wall or "private" from TikTok is the answer.
 */

function checked(item: Json | undefined, ref: VideoRef, what: string): Json {
  if (!item) throw new ParseError(`${what}: the answer carries no item`);
  const id = idOf(item.id, item.aweme_id);
  if (id && id !== ref.id) throw new ParseError(`${what}: the answer describes post ${id}, not ${ref.id}`);
  // Age-gated posts come without their media for anonymous visitors (yt-dlp: isContentClassified).
  if (item.isContentClassified === true && !obj(item.video)?.playAddr && !objs(obj(item.imagePost)?.images).length) {
    throw new SessionExpired(`${what}: TikTok shows this post to logged-in adults only; store a tiktok profile with its sessionid cookie`);
  }
  return item;
}

async function fromPage(ctx: CrawlContext, ref: VideoRef): Promise<Json> {
  const what = `post ${ref.id} (page)`;
  const scope = await fetchPage(ctx, postUrl(ref.id, ref.handle, ref.photo), what);
  const section = scopeSection(scope, 'webapp.video-detail', what);
  return checked(obj(obj(section.itemInfo)?.itemStruct), ref, what);
}

async function fromApi(ctx: CrawlContext, ref: VideoRef, origin?: string): Promise<Json> {
  const what = `post ${ref.id}${origin ? ` (${new URL(origin).host})` : ''}`;
  const body = await webApi(ctx, {
    endpoint: 'detail',
    path: ENDPOINTS.itemDetail,
    params: [['itemId', ref.id]],
    referer: postUrl(ref.id, ref.handle, ref.photo),
    fromPage: 'video',
    what,
    origin,
  });
  return checked(obj(detailItemOf(body)), ref, what);
}

/** The post's item struct (web or app shape) from the first source that answers. */
export async function findItem(ctx: CrawlContext, query: Params['query']): Promise<{ ref: VideoRef; item: Json }> {
  const ref = await resolveVideo(ctx, query);
  return { ref, item: await firstOf<Json>([() => fromPage(ctx, ref), () => fromApi(ctx, ref), () => fromApi(ctx, ref, M_WEB)]) };
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const { ref, item } = await findItem(ctx, params.query);
  const draft = itemToDraft(item);
  if (!draft) throw new ParseError(`post ${ref.id}: the item carries no id`);
  if (!draft.media?.length) ctx.warn(`post ${ref.id}: TikTok's answer names no playable stream or image`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One TikTok post (video or photo carousel) with its metadata and a playable, watermark-free stream or its images',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'video id, post URL (www.tiktok.com/@user/video/<id> or /photo/<id>, m.tiktok.com/v/<id>.html) or share link (vm.tiktok.com/…, vt.tiktok.com/…, www.tiktok.com/t/…)',
    },
  ],
  page: detailPage,
};
