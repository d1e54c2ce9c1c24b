import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { detailDraft, rawOf, slot, slots, slotsFromDraft } from '../download-slots.js';
import { detailAction } from './detail.js';
import { arr, httpUrl, msToSeconds, obj, objs, positive } from './parse.js';

type Json = Record<string, unknown>;
import { unwrapJson } from './state.js';

/*
 * A kuaishou video's streams from the photo object detail read (GraphQL, share page, mobile page or
 * photo/info). Every representation of manifest / videoResource.h264 (h264) and manifestH265 /
 * videoResource.hevc (h265), its url then its backupUrl entries, sized and with their bitrate; then the
 * plain photoUrl / photoUrls / mainMvUrls / mp4Url, and photoH265Url. These are the streams the site
 * itself plays: no watermark (the app burns one in only when a viewer saves a video). Picture posts
 * (atlas) are the pictures detail lists.
 */

function representations(manifest: unknown, codec: 'h264' | 'h265', duration?: number): StreamCandidate[] {
  const out: StreamCandidate[] = [];
  for (const set of objs(obj(unwrapJson(manifest))?.adaptationSet)) {
    const d = duration ?? msToSeconds(set.duration);
    for (const r of objs(set.representation)) {
      const w = positive(r.width);
      const h = positive(r.height);
      const c = typeof r.codecs === 'string' && /hev|hvc|h265/i.test(r.codecs) ? 'h265' : codec;
      const p = w && h ? `${Math.min(w, h)}p` : 'stream';
      const label = `manifest_${c}_${p}${typeof r.qualityType === 'string' && r.qualityType !== p ? `_${r.qualityType}` : ''}`;
      // avgBitrate / maxBitrate are in kbps.
      const kbps = positive(r.avgBitrate) ?? positive(r.maxBitrate);
      const base = { kind: 'video' as const, mime: 'video/mp4', w, h, bitrate: kbps ? kbps * 1000 : undefined, bytes: positive(r.fileSize), duration_s: d, watermark: false };
      const main = httpUrl(r.url);
      if (main) out.push({ ...base, url: main, source_quality: label });
      for (const b of arr(r.backupUrl)) {
        const url = httpUrl(b);
        if (url) out.push({ ...base, url, source_quality: `${label}_backup` });
      }
    }
  }
  return out;
}

const urls = (v: unknown): string[] => [httpUrl(v), ...objs(v).map((o) => httpUrl(o.url))].filter((u): u is string => !!u);

export function photoSlots(photo: Json): MediaSlot[] {
  const d = msToSeconds(photo.duration);
  const resource = obj(unwrapJson(photo.videoResource));
  const plain = (list: string[], label: string): StreamCandidate[] => list.map((url) => ({ kind: 'video', url, mime: 'video/mp4', duration_s: d, watermark: false, source_quality: label }));
  return slots([
    slot('video', [
      ...representations(photo.manifest, 'h264', d),
      ...representations(resource?.h264, 'h264', d),
      ...representations(photo.manifestH265, 'h265', d),
      ...representations(resource?.hevc, 'h265', d),
      ...plain([...urls(photo.photoUrl), ...urls(photo.photoUrls), ...urls(photo.mainMvUrls), ...urls(photo.mp4Url)], 'photoUrl'),
      ...plain([...urls(photo.photoH265Url), ...urls(photo.photoH265Urls)], 'photoH265Url'),
    ]),
  ]);
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A kuaishou video\'s streams: every manifest representation (h264 and h265, with backups) and photoUrl; picture posts\' pictures',
  params: detailAction.params,
  async resolve(ctx, params) {
    const draft = await detailDraft(ctx, detailAction, params);
    const photo = obj(rawOf(draft));
    if (draft.type === 'image' || !photo) return { draft, slots: slotsFromDraft(draft, draft.type === 'image' ? 'atlas_picture' : 'detail_stream') };
    return { draft, slots: photoSlots(photo) };
  },
};
