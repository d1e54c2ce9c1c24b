import type { CrawlContext } from '../types.js';
import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { absUrl, fetchable, isPlaylist, num, slot } from '../download-slots.js';
import { obj, type Json } from './api.js';
import { detailAction, readPin } from './detail.js';
import { objs, text } from './parse.js';

/*
 * A pin's media from PinResource (field_set_key detailed). Pictures: images.orig (originals), then every
 * sized copy largest first (originals can answer 403 where 736x loads, gallery-dl#8081); a carousel slot
 * that lists only sizes names its original under /originals/. Videos: every progressive V_<n>P / MP4 entry
 * of video_list, sized; HLS entries (V_HLSV4…) are playlists the core does not fetch. Idea pins: every
 * page's image and video blocks. Pinterest adds no watermark to what it serves.
 */

function imageCandidates(images: Json | undefined): StreamCandidate[] {
  const o = images ?? {};
  const out: StreamCandidate[] = [];
  for (const [key, v] of Object.entries(o)) {
    const p = obj(v);
    const url = absUrl(p?.url);
    if (!url) continue;
    out.push({ kind: 'image', url, w: num(p?.width), h: num(p?.height), watermark: false, source_quality: key === 'orig' || key === 'originals' ? 'original' : key });
  }
  const first = Object.entries(o).find(([k, v]) => k !== 'orig' && k !== 'originals' && absUrl(obj(v)?.url));
  if (!out.some((c) => c.source_quality === 'original') && first) {
    out.push({ kind: 'image', url: absUrl(obj(first[1])?.url)!.replace(`/${first[0]}/`, '/originals/'), watermark: false, source_quality: 'original' });
  }
  // The original first (its size is the picture's), then the sized copies, largest first.
  return out.sort((a, b) => Number(b.source_quality === 'original') - Number(a.source_quality === 'original') || (b.w ?? 0) - (a.w ?? 0));
}

function videoCandidates(list: unknown): { candidates: StreamCandidate[]; hls: boolean } {
  const candidates: StreamCandidate[] = [];
  let hls = false;
  for (const [key, v] of Object.entries(obj(list) ?? {})) {
    const o = obj(v);
    const url = absUrl(o?.url);
    if (!url) continue;
    if (isPlaylist(url) || /HLS/.test(key)) {
      hls = true;
      continue;
    }
    const ms = num(o?.duration);
    candidates.push({ kind: 'video', url, mime: 'video/mp4', w: num(o?.width), h: num(o?.height), duration_s: ms ? ms / 1000 : undefined, watermark: false, source_quality: key });
  }
  return { candidates, hls };
}

export function pinSlots(ctx: CrawlContext, raw: unknown): MediaSlot[] {
  const pin = obj(raw) ?? {};
  const playlistOnly: string[] = [];
  const video = (list: unknown, what: string): MediaSlot | undefined => {
    const { candidates, hls } = videoCandidates(list);
    if (!candidates.length && hls) playlistOnly.push(what);
    return slot('video', candidates);
  };
  const story = obj(pin.story_pin_data);
  const pages: Array<MediaSlot | undefined> = [];
  for (const page of objs(story?.pages)) {
    for (const block of objs(page.blocks)) {
      const type = text(block.type) ?? '';
      if (type === 'story_pin_video_block' || obj(block.video)) pages.push(video(obj(block.video)?.video_list, `pinterest idea pin video ${pages.length + 1}`));
      else if (type === 'story_pin_image_block') pages.push(slot('image', imageCandidates(obj(obj(block.image)?.images))));
    }
  }
  if (pages.some(Boolean)) return fetchable(ctx, pages, playlistOnly);
  const carousel = objs(obj(pin.carousel_data)?.carousel_slots).map((s) => slot('image', imageCandidates(obj(s.images))));
  if (carousel.some(Boolean)) return fetchable(ctx, carousel, playlistOnly);
  const list = obj(obj(pin.videos)?.video_list);
  if (list) return fetchable(ctx, [video(list, 'pinterest video')], playlistOnly);
  return fetchable(ctx, [slot('image', imageCandidates(obj(pin.images)))], playlistOnly);
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A pin\'s media: the original picture (sized copies as fallbacks), every progressive video rendition, every idea-pin page and carousel slot',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, pin } = await readPin(ctx, params);
    return { draft, slots: pinSlots(ctx, pin) };
  },
};
