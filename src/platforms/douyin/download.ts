import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { findAweme } from './detail.js';
import { num } from '../download-slots.js';
import { durationS, firstUrl, imageList, obj, objs, str, withoutWatermark, type Json } from './parse.js';

function urls(addr: unknown): string[] {
  const list = obj(addr)?.url_list;
  return (Array.isArray(list) ? list : []).map((u) => str(u)).filter((u): u is string => !!u && /^https?:\/\//.test(u));
}

/**
 * Every stream of one aweme video, in douyin's and TikTok's shared terms: each bit_rate[] rendition's
 * play_addr (clean), play_addr itself (its /playwm/ share-page form made clean), and download_addr (the
 * watermarked download copy, listed so `source_quality` can say so when nothing else is offered).
 */
export function awemeVideoCandidates(video: Json, durationS?: number): StreamCandidate[] {
  const out: StreamCandidate[] = [];
  for (const r of objs(video.bit_rate)) {
    const addr = obj(r.play_addr);
    const url = firstUrl(addr);
    if (!url) continue;
    const w = num(addr?.width);
    const h = num(addr?.height);
    const bitrate = num(r.bit_rate);
    const gear = str(r.gear_name) ?? (h ? `${Math.min(w ?? h, h)}p` : 'rendition');
    out.push({ kind: 'video', url: withoutWatermark(url), w, h, bitrate, bytes: num(addr?.data_size), duration_s: durationS, watermark: false, source_quality: `play_addr_no_watermark_${gear}${bitrate ? `_${Math.round(bitrate / 1000)}kbps` : ''}` });
  }
  const play = obj(video.play_addr) ?? obj(video.play_addr_h264);
  const playUrl = firstUrl(play);
  if (playUrl) {
    out.push({ kind: 'video', url: withoutWatermark(playUrl), w: num(play?.width) ?? num(video.width), h: num(play?.height) ?? num(video.height), bytes: num(play?.data_size), duration_s: durationS, watermark: false, source_quality: 'play_addr_no_watermark' });
  }
  const dl = obj(video.download_addr);
  const dlUrl = urls(dl)[0];
  if (dlUrl) out.push({ kind: 'video', url: dlUrl, w: num(dl?.width), h: num(dl?.height), bytes: num(dl?.data_size), duration_s: durationS, watermark: true, source_quality: 'download_addr_watermarked' });
  return out;
}

/** Image posts: every image (JPEG/WebP before HEIC), and a live photo's clip as the second half of its group. */
export function awemeImageSlots(a: Json): MediaSlot[] {
  const list = imageList(a);
  const slots: MediaSlot[] = [];
  list.forEach((img, i) => {
    const all = urls(img);
    const ordered = [...all.filter((u) => !/\.heic(?:\?|$)/i.test(u)), ...all.filter((u) => /\.heic(?:\?|$)/i.test(u))];
    const clip = obj(img.video);
    const group = clip ? `live_${i + 1}` : undefined;
    if (ordered.length) {
      slots.push({
        kind: 'image',
        group,
        // Mirrors of one picture: the first that answers is stored.
        candidates: ordered.slice(0, 3).map((url) => ({ kind: 'image', url, w: num(img.width), h: num(img.height), watermark: false, source_quality: 'original' })),
      });
    }
    if (clip) {
      const c = awemeVideoCandidates(clip, durationS(clip.duration));
      if (c.length) slots.push({ kind: 'video', group, candidates: c });
    }
  });
  return slots;
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'Store one douyin post: its watermark-free video (the highest bit rate) or every image of a note, live photos with their clip',
  params: [{ name: 'query', type: 'string', required: true, description: 'aweme id, www.douyin.com/video/<id> or /note/<id> link, a ?modal_id= link, or a v.douyin.com share link' }],
  async resolve(ctx, params) {
    const { aweme, draft } = await findAweme(ctx, params.query);
    const images = awemeImageSlots(aweme);
    if (images.length || draft.type === 'image') return { draft, slots: images };
    const video = obj(aweme.video);
    const candidates = video ? awemeVideoCandidates(video, draft.duration_s) : [];
    return { draft, slots: candidates.length ? [{ kind: 'video', candidates }] : [] };
  },
};
