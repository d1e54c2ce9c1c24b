import { NotFound } from '../../crawl/errors.js';
import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { slot, slots } from '../download-slots.js';
import { detailAction, readPost } from './detail.js';
import { arr, cleanUrl, mediaSource, num, obj, str } from './parse.js';

type Obj = Record<string, unknown>;

/*
 * A reddit post's media from its t3 data. v.redd.it: fallback_url is the video track alone; the audio
 * track sits next to it under a name that follows the video's (CMAF_720.mp4 → CMAF_AUDIO_128.mp4,
 * DASH_720.mp4 → DASH_AUDIO_128.mp4 or, before 2023, DASH_audio.mp4; DASH_720 → DASH_audio): listed as
 * audio_url candidates in that order, then the silent fallback. Galleries: every media_metadata entry,
 * the original on i.redd.it (<id>.<ext> from its mime) before reddit's re-encoded source copy. Reddit
 * adds no watermark.
 */

function audioNames(video: URL): string[] {
  const name = video.pathname.split('/').pop() ?? '';
  if (/^CMAF_\d+\.mp4$/.test(name)) return ['CMAF_AUDIO_128.mp4', 'CMAF_AUDIO_64.mp4'];
  if (/^DASH_\d+\.mp4$/.test(name)) return ['DASH_AUDIO_128.mp4', 'DASH_AUDIO_64.mp4', 'DASH_audio.mp4'];
  if (/^DASH_\d+$/.test(name)) return ['DASH_audio'];
  return [];
}

function videoSlot(d: Obj): MediaSlot | undefined {
  const rv = [obj(obj(d.secure_media)?.reddit_video), obj(obj(d.media)?.reddit_video), obj(obj(d.preview)?.reddit_video_preview)].find((v) => cleanUrl(v?.fallback_url));
  const url = cleanUrl(rv?.fallback_url);
  if (!rv || !url) return undefined;
  const h = num(rv.height);
  const base = { kind: 'video' as const, mime: 'video/mp4', w: num(rv.width), h, duration_s: num(rv.duration), bitrate: (num(rv.bitrate_kbps) ?? 0) * 1000 || undefined, watermark: false };
  const label = `${h ?? 'fallback'}${h ? 'p' : ''}`;
  const video = new URL(url);
  // A gif rendered as mp4 (is_gif) and a post without sound (has_audio false) have no audio track.
  const audio = rv.has_audio === false || rv.is_gif === true ? [] : audioNames(video);
  const out: StreamCandidate[] = audio.map((name) => ({ ...base, url, audio_url: new URL(name, new URL('.', video)).toString(), source_quality: `dash_${label}+${name.replace(/\.mp4$/, '')}` }));
  out.push({ ...base, url, source_quality: audio.length ? `fallback_${label}_video_only` : `fallback_${label}` });
  return slot('video', out);
}

const EXT: Record<string, string> = { 'image/jpg': 'jpg', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

function gallerySlots(d: Obj): MediaSlot[] {
  const meta = obj(d.media_metadata);
  if (!meta) return [];
  const order = arr(obj(d.gallery_data)?.items).map((i) => str(obj(i)?.media_id)).filter((id): id is string => !!id);
  return slots(
    (order.length ? order : Object.keys(meta)).map((id) => {
      const m = obj(meta[id]);
      if (!m || (m.status !== undefined && m.status !== 'valid')) return undefined;
      const s = obj(m.s);
      const w = num(s?.x);
      const h = num(s?.y);
      if (m.e === 'AnimatedImage') {
        const mp4 = cleanUrl(s?.mp4);
        if (mp4) return slot('video', [{ kind: 'video', url: mp4, mime: 'video/mp4', w, h, watermark: false, source_quality: 'gallery_mp4' }]);
        const gif = cleanUrl(s?.gif);
        return gif ? slot('image', [{ kind: 'image', url: gif, mime: 'image/gif', w, h, watermark: false, source_quality: 'gallery_gif' }]) : undefined;
      }
      const ext = EXT[str(m.m) ?? ''];
      return slot('image', [
        ext && /^[a-z0-9]+$/i.test(id) ? { kind: 'image', url: `https://i.redd.it/${id}.${ext}`, mime: str(m.m)?.replace('jpg', 'jpeg'), w, h, watermark: false, source_quality: 'original' } : undefined,
        cleanUrl(s?.u) ? { kind: 'image', url: cleanUrl(s?.u)!, w, h, watermark: false, source_quality: 'preview_source' } : undefined,
      ]);
    }),
  );
}

function imageSlot(d: Obj): MediaSlot | undefined {
  const link = cleanUrl(d.url_overridden_by_dest ?? d.url);
  const source = obj(obj(arr(obj(d.preview)?.images)[0])?.source);
  const isImage = d.post_hint === 'image' || (!!link && /^https:\/\/i\.redd\.it\/[^/]+\.(?:jpe?g|png|gif|webp)$/i.test(link));
  if (!isImage) return undefined;
  const w = num(source?.width);
  const h = num(source?.height);
  return slot('image', [
    link && new URL(link).hostname === 'i.redd.it' ? { kind: 'image', url: link, w, h, watermark: false, source_quality: 'original' } : undefined,
    cleanUrl(source?.url) ? { kind: 'image', url: cleanUrl(source?.url)!, w, h, watermark: false, source_quality: 'preview_source' } : undefined,
  ]);
}

export function postSlots(post: Obj): MediaSlot[] {
  const d = mediaSource(post);
  const video = videoSlot(d);
  if (video) return [video];
  const pics = gallerySlots(d);
  if (pics.length) return pics;
  return slots([imageSlot(d)]);
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A reddit post\'s media: v.redd.it video with its separate audio track (muxed), every gallery image as the i.redd.it original, or the single i.redd.it image',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { items, raw } = await readPost(ctx, params);
    const draft = items[0];
    if (!draft) throw new NotFound(`reddit has no post ${String(params.query)}`);
    // A comment reference resolves to the comment: it has no media of its own.
    return { draft, slots: raw ? postSlots(raw) : [] };
  },
};
