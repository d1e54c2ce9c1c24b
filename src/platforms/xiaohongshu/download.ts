import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { num, slot, slots } from '../download-slots.js';
import { detailAction, resolveDetail } from './detail.js';
import { CODECS, httpsUrl, imageToken, obj, objs, scene, str } from './parse.js';
import type { Json } from './state.js';

/*
 * A note's streams as the feed answer or the note page lists them. Pictures: the original behind the
 * picture's file token on sns-img-bd (what XHS-Downloader fetches: no watermark), then the web renditions
 * the answer names (WB_DFT / url_default, WB_PRV / url_pre: re-encoded, smaller, and reported by crawler
 * authors to carry the platform's watermark, so marked as such). Videos: every rendition of
 * video.media.stream.<codec>[] (master_url and its backup_urls), plus the uploaded original behind
 * consumer.origin_video_key (no watermark). A crawler reports the h264 renditions watermarked and the h265
 * ones clean; unconfirmed, the h264 ones are marked watermarked so none is passed off as clean.
 */

function imageCandidates(img: Json): StreamCandidate[] {
  const full = scene(img, 'WB_DFT') ?? httpsUrl(img.url_default) ?? httpsUrl(img.url_size_large) ?? httpsUrl(img.url);
  const prv = scene(img, 'WB_PRV') ?? httpsUrl(img.url_pre);
  const token = full ? imageToken(full) : prv ? imageToken(prv) : undefined;
  const w = num(img.width);
  const h = num(img.height);
  const out: StreamCandidate[] = [];
  // Only the original is known to have the picture's own size; the renditions are scaled down.
  if (token) out.push({ kind: 'image', url: `https://sns-img-bd.xhscdn.com/${token}`, w, h, watermark: false, source_quality: 'original' });
  if (full) out.push({ kind: 'image', url: full, watermark: true, source_quality: 'web_default' });
  if (prv) out.push({ kind: 'image', url: prv, watermark: true, source_quality: 'web_preview' });
  return out;
}

/** Every rendition of media.stream (or a live photo's stream): master first, then its backups. */
function streamCandidates(holder: Json | undefined): StreamCandidate[] {
  const streams = obj(obj(holder?.media)?.stream) ?? obj(holder?.stream);
  const out: StreamCandidate[] = [];
  for (const codec of CODECS) {
    for (const s of objs(streams?.[codec])) {
      const w = num(s.width);
      const h = num(s.height);
      // Named by the short side, as platforms name qualities (a 720×1280 portrait stream is 720p).
      const label = `${codec}_${w && h ? `${Math.min(w, h)}p` : 'stream'}`;
      const ms = num(s.duration);
      const base = { kind: 'video' as const, w, h, duration_s: ms ? Math.round(ms / 100) / 10 : undefined, bitrate: num(s.video_bitrate) ?? num(s.avg_bitrate), bytes: num(s.size), mime: 'video/mp4', watermark: codec === 'h264' };
      const master = httpsUrl(s.master_url);
      if (master) out.push({ ...base, url: master, source_quality: label });
      for (const b of Array.isArray(s.backup_urls) ? s.backup_urls : []) {
        const url = httpsUrl(b);
        if (url) out.push({ ...base, url, source_quality: `${label}_backup` });
      }
    }
  }
  return out;
}

export function noteSlots(raw: unknown): MediaSlot[] {
  const e = obj(raw);
  const card = obj(e?.note_card) ?? obj(e?.note) ?? e;
  if (!card) return [];
  const video = obj(card.video) ?? obj(card.video_info_v2);
  if (card.type === 'video' || video) {
    const key = str(obj(video?.consumer)?.origin_video_key);
    const origin: StreamCandidate | undefined = key ? { kind: 'video', url: `https://sns-video-bd.xhscdn.com/${key}`, mime: 'video/mp4', watermark: false, source_quality: 'origin_video_key' } : undefined;
    return slots([slot('video', [...streamCandidates(video), origin])]);
  }
  const images = objs(card.image_list).length ? objs(card.image_list) : objs(card.images_list);
  return slots(
    images.flatMap((img, i) => {
      const live = img.live_photo === true ? streamCandidates(img) : [];
      const group = live.length ? `live_${i + 1}` : undefined;
      return [slot('image', imageCandidates(img), group), live.length ? slot('video', live, group) : undefined];
    }),
  );
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A xiaohongshu note\'s media: picture originals (no watermark), every video rendition (h265 and the uploaded original before the h264 ones, reported watermarked), live photos as still + clip',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, raw } = await resolveDetail(ctx, params.query);
    return { draft, slots: noteSlots(raw) };
  },
};
