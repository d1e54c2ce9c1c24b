import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { detailDraft, num, rawOf, slot, slots } from '../download-slots.js';
import type { ItemDraft } from '../types.js';
import { detailAction } from './detail.js';
import { get, httpsUrl, obj } from './parse.js';

type Json = Record<string, unknown>;

/*
 * A zhihu answer's or article's pictures are the ones its body names at full size (data-original, the _r
 * rendition; detail already reads them). A video (zvideo): every entry of playlist and playlist_v2
 * (FHD / HD / SD / LD), sized, with its bitrate and size where the answer gives them. Zhihu serves these
 * as uploaded: no watermark is added to the files.
 */

function videoCandidates(video: Json | undefined): StreamCandidate[] {
  const out: StreamCandidate[] = [];
  for (const [name, list] of [['playlist', obj(video?.playlist)], ['playlist_v2', obj(get(video, 'playlist_v2'))]] as const) {
    for (const [quality, x] of Object.entries(list ?? {})) {
      const s = obj(x);
      const url = httpsUrl(s?.url) ?? httpsUrl(get(s, 'play_url'));
      if (!s || !url) continue;
      const d = num(s.duration ?? video?.duration);
      out.push({ kind: 'video', url, mime: 'video/mp4', w: num(s.width), h: num(s.height), duration_s: d, bitrate: num(s.bitrate) ? num(s.bitrate)! * 1000 : undefined, bytes: num(s.size), watermark: false, source_quality: `${name}_${quality.toLowerCase()}` });
    }
  }
  return out;
}

export function contentSlots(draft: ItemDraft, raw: unknown): MediaSlot[] {
  const z = obj(raw);
  if (draft.type === 'video' && z) return slots([slot('video', videoCandidates(obj(z.video)))]);
  return slots((draft.media ?? []).map((m) => slot(m.kind, [{ kind: m.kind, url: m.url, w: m.w, h: m.h, duration_s: m.duration_s, watermark: false, source_quality: m.kind === 'image' ? 'data_original' : 'detail_stream' }])));
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A zhihu answer\'s or article\'s pictures at full size, or a zhihu video\'s every playlist quality (FHD/HD/SD/LD)',
  params: detailAction.params,
  async resolve(ctx, params) {
    const draft = await detailDraft(ctx, detailAction, params);
    return { draft, slots: contentSlots(draft, rawOf(draft)) };
  },
};
