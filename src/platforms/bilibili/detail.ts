import { CrawlError, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, firstOf, getJson, type Json } from './api.js';
import { archiveToDraft, aspectOf, obj, objs, streamsOf } from './parse.js';
import { videoUrl, type VideoRef } from './refs.js';
import { resolveVideo } from './resolve.js';

/** view and view/detail describe the same archive; view/detail wraps it in data.View. */
export async function archive(ctx: CrawlContext, ref: VideoRef): Promise<Json> {
  const referer = videoUrl(ref.bvid);
  // Both ids go out: a recording or a mirror keyed on either one answers.
  const query = { aid: ref.aid, bvid: ref.bvid };
  return firstOf([
    async () => (await getJson(ctx, ENDPOINTS.view, { what: `view ${ref.bvid}`, query, referer })).data,
    async () => {
      const { data } = await getJson(ctx, ENDPOINTS.viewDetail, { what: `view/detail ${ref.bvid}`, query, referer });
      const view = obj(data.View);
      if (!view) throw new ParseError(`view/detail ${ref.bvid}: data.View is missing`);
      return view;
    },
  ]);
}

export async function playurl(ctx: CrawlContext, ref: VideoRef, cid: string): Promise<Json> {
  const { data } = await getJson(ctx, ENDPOINTS.playurl, {
    what: `playurl ${ref.bvid} cid ${cid}`,
    referer: videoUrl(ref.bvid),
    // fnval 4048: every DASH track the account may play; old archives still answer durl.
    query: { avid: ref.aid, bvid: ref.bvid, cid, fnval: 4048, fnver: 0, fourk: 1 },
  });
  return data;
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const ref = await resolveVideo(ctx, params.query);
  const view = await archive(ctx, ref);
  const draft = archiveToDraft(view);
  if (!draft) throw new ParseError(`view ${ref.bvid}: the answer carries no bvid/aid`);
  const pages = objs(view.pages);
  const wanted = ref.part ?? 1;
  const page = pages.find((p) => Number(p.page) === wanted) ?? (wanted === 1 ? pages[0] : undefined);
  if (ref.part && !page) ctx.warn(`${ref.bvid} has no part ${ref.part} (it has ${pages.length}); no stream was fetched`);
  if (pages.length > 1 && page) {
    // The part number and title as bilibili lists them; a part that names neither is just "the first listed".
    const num = Number.isSafeInteger(Number(page.page)) && Number(page.page) > 0 ? `part ${Number(page.page)}` : 'the first listed part';
    const title = typeof page.part === 'string' && page.part ? ` ("${page.part}")` : '';
    ctx.warn(`${ref.bvid} has ${pages.length} parts; media[] is ${num}${title}; add ?p=N to the video URL for another part`);
  }
  const cid = page ? String(page.cid ?? '') : ref.part ? '' : String(view.cid ?? '');
  if (/^\d+$/.test(cid) && cid !== '0') {
    try {
      const streams = streamsOf(await playurl(ctx, ref, cid), aspectOf(page?.dimension) ?? aspectOf(view.dimension));
      draft.media = streams.media;
      for (const note of streams.notes) ctx.warn(note);
    } catch (e) {
      if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
      // The archive is real and worth returning; the caller learns why no stream came with it.
      ctx.warn(`no playable stream for ${ref.bvid}: ${e instanceof CrawlError ? `${e.code}: ` : ''}${e.message}`);
    }
  } else if (!ref.part) {
    ctx.warn(`view ${ref.bvid} names no cid; no stream was fetched`);
  }
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One bilibili video with its metadata and a playable stream (progressive when offered, else the DASH video track)',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'BV id, av id (av170001), video URL (www/m.bilibili.com/video/…, ?p=N picks a part) or b23.tv short link',
    },
  ],
  page: detailPage,
};
