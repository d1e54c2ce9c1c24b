import { NotFound } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { dataOf, resource } from './api.js';
import { pinToDraft } from './parse.js';
import { resolvePinId } from './refs.js';

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  return { items: [(await readPin(ctx, params)).draft] };
}

/** The pin as detail gives it, with the pin object (download reads every size and stream). */
export async function readPin(ctx: CrawlContext, params: Params): Promise<{ draft: ItemDraft; pin: unknown }> {
  const id = await resolvePinId(ctx, params.query);
  // gallery-dl pin(): field_set_key "detailed" answers the pin with images, videos, idea pages, counts.
  const body = await resource(ctx, { resource: 'pin', options: { id, field_set_key: 'detailed' }, sourceUrl: `/pin/${id}/`, what: `pin ${id}` });
  const pin = dataOf(body);
  const draft = pinToDraft(pin);
  if (!draft) throw new NotFound(`pinterest answered no pin for ${id}`);
  if (!draft.media?.length) ctx.warn(`pinterest answered pin ${id} without an image or a stream`);
  return { draft, pin };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One pinterest pin with its original image, its best video stream, or every page of an idea pin',
  params: [{ name: 'query', type: 'string', required: true, description: 'a pin id, a pinterest.com/pin/<id>/ link (any country domain, /pin/<title>--<id>/ too) or a pin.it link' }],
  page: detailPage,
};
