import type { CrawlContext } from '../types.js';
import type { DownloadAction, MediaSlot } from '../../download/types.js';
import { absUrl, fetchable, slot } from '../download-slots.js';
import { arr, obj, str, typeOf } from './parse.js';
import { detailAction, readPost } from './thread.js';

/*
 * A Bluesky post's own media from its embed view (a quoted post's media is that post's). Pictures:
 * fullsize (the AppView's CDN copy, re-encoded, at most 2000 px), then thumb. Videos: the AppView
 * answers an HLS playlist only; the uploaded file is a blob on the author's PDS (com.atproto.sync.getBlob),
 * which would need the author's PDS resolved: the video is named as playlist-only, not fetched. No watermark.
 */
export function postSlots(ctx: CrawlContext, post: unknown): MediaSlot[] {
  let view = obj(obj(post)?.embed);
  if (typeOf(view) === 'app.bsky.embed.recordWithMedia#view') view = obj(view?.media);
  const kind = typeOf(view);
  const playlistOnly: string[] = [];
  const picture = (item: Record<string, unknown> | undefined): MediaSlot | undefined => {
    const full = absUrl(item?.fullsize);
    const thumb = absUrl(item?.thumb ?? item?.thumbnail);
    return slot('image', [full ? { kind: 'image', url: full, watermark: false, source_quality: 'fullsize' } : undefined, thumb ? { kind: 'image', url: thumb, watermark: false, source_quality: 'thumb' } : undefined]);
  };
  const video = (item: Record<string, unknown> | undefined, n: number): undefined => {
    if (absUrl(item?.playlist)) playlistOnly.push(`Bluesky video ${n} (HLS ${str(item?.playlist)})`);
    return undefined;
  };
  let list: Array<MediaSlot | undefined> = [];
  if (kind === 'app.bsky.embed.images#view') list = arr(view?.images).map((i) => picture(obj(i)));
  else if (kind === 'app.bsky.embed.gallery#view') list = arr(view?.items).map((i, n) => (absUrl(obj(i)?.playlist) ? video(obj(i), n + 1) : picture(obj(i))));
  else if (kind === 'app.bsky.embed.video#view') list = [video(view, 1)];
  return fetchable(ctx, list, playlistOnly);
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A Bluesky post\'s pictures at full size (videos are HLS playlists only: named, not fetched)',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, post } = await readPost(ctx, params);
    return { draft, slots: postSlots(ctx, post) };
  },
};
