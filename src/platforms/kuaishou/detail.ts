import { NotFound } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, firstOf, getPage, postRest } from './api.js';
import { graphql } from './graphql.js';
import { apolloDetail, appPhotoToDraft, initStateDetail, obj, webPhotoToDraft } from './parse.js';
import { mobilePhotoUrl, videoUrl } from './refs.js';
import { resolvePhoto } from './resolve.js';
import { apolloClient, scriptState } from './state.js';

/*
 * One video, by four equivalent routes: web GraphQL visionVideoDetail; the short-video page's
 * __APOLLO_STATE__ (VisionVideoDetailPhoto:<id>); the chenzhongtech mobile share page's INIT_STATE; the
 * mobile detail call /rest/wd/photo/info (which now mostly answers the 2001 captcha). A route that
 * answers without the photo passes on; when none has it, the video is gone.
 */

const MOBILE_ORIGIN = 'https://v.m.chenzhongtech.com';

const viaGraphql = async (ctx: CrawlContext, id: string): Promise<ItemDraft | undefined> => {
  const op = await graphql(ctx, 'visionVideoDetail', { photoId: id, page: 'detail' }, { what: `video ${id}`, referer: videoUrl(id) });
  return obj(op.photo) ? webPhotoToDraft(op.photo, op.author, id) : undefined;
};

const viaSharePage = async (ctx: CrawlContext, id: string): Promise<ItemDraft | undefined> => {
  const client = apolloClient(await getPage(ctx, videoUrl(id), { what: `short-video page ${id}`, expect: /__APOLLO_STATE__/ }));
  return client ? apolloDetail(client, id) : undefined;
};

const viaMobilePage = async (ctx: CrawlContext, id: string): Promise<ItemDraft | undefined> => {
  const state = scriptState(await getPage(ctx, mobilePhotoUrl(id), { what: `mobile share page ${id}`, expect: /INIT_STATE/ }), 'INIT_STATE');
  return state ? initStateDetail(state, id) : undefined;
};

const viaPhotoInfo = async (ctx: CrawlContext, id: string): Promise<ItemDraft | undefined> => {
  const body = await postRest(ctx, ENDPOINTS.mobilePhotoInfo, { photoId: id, isLongVideo: false }, { what: `mobile photo/info ${id}`, referer: mobilePhotoUrl(id), origin: MOBILE_ORIGIN });
  return appPhotoToDraft(body.photo, { photoId: id, entry: body });
};

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const id = await resolvePhoto(ctx, params.query);
  const draft = await firstOf([() => viaGraphql(ctx, id), () => viaSharePage(ctx, id), () => viaMobilePage(ctx, id), () => viaPhotoInfo(ctx, id)]);
  if (!draft) throw new NotFound(`kuaishou video ${id}: no route has it (GraphQL, share page, mobile page and photo/info answered without it)`);
  if (!draft.media?.length) ctx.warn(`kuaishou video ${id}: the answer carried no playable stream`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One kuaishou video with its metadata and the best playable stream (largest h264 representation of the manifest, else photoUrl)',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'photo id (3x…), www.kuaishou.com/short-video/<id>, v.m.chenzhongtech.com/fw/photo/<id>, or a v.kuaishou.com / www.kuaishou.com/f/ share link',
    },
  ],
  page: detailPage,
};
