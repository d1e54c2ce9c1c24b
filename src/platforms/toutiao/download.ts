import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { num, slot, slots, slotsFromDraft } from '../download-slots.js';
import { detailAction, readPost } from './detail.js';
import { obj, type Json } from './json.js';
import { trackUrl } from './parse.js';

const entries = (list: unknown): Json[] => (Array.isArray(list) ? list : Object.values(obj(list) ?? {})).map(obj).filter((o): o is Json => !!o);

/*
 * A toutiao post's media from its page. A video: every video_list track by definition (main_url, then
 * backup_url_1), sized from video_meta; where the page offers only dynamic_video (separate tracks), each
 * video track with the best audio track beside it (muxed by the core). Articles and micro-posts: the
 * pictures detail lists. Toutiao's page streams carry no watermark.
 */

function track(e: Json, duration: number | undefined, label: string): StreamCandidate[] {
  const meta = obj(e.video_meta) ?? e;
  const def = typeof meta.definition === 'string' ? meta.definition : undefined;
  const base = { kind: 'video' as const, mime: 'video/mp4', w: num(meta.vwidth), h: num(meta.vheight), bytes: num(meta.size), bitrate: num(meta.real_bitrate) ?? num(meta.bitrate), duration_s: duration, watermark: false };
  const out: StreamCandidate[] = [];
  const main = trackUrl(e.main_url);
  if (main) out.push({ ...base, url: main, source_quality: `${label}_${def ?? 'track'}` });
  const backup = trackUrl(e.backup_url_1);
  if (backup) out.push({ ...base, url: backup, source_quality: `${label}_${def ?? 'track'}_backup` });
  return out;
}

export function playSlots(play: Json): MediaSlot[] {
  const d = num(play.video_duration);
  const progressive = entries(play.video_list).flatMap((e) => track(e, d, 'video_list'));
  const dynamic = obj(play.dynamic_video);
  const audio = entries(dynamic?.dynamic_audio_list)
    .map((e) => ({ url: trackUrl(e.main_url) ?? trackUrl(e.backup_url_1), bitrate: num(obj(e.audio_meta)?.real_bitrate) ?? num(obj(e.audio_meta)?.bitrate) ?? 0 }))
    .filter((a): a is { url: string; bitrate: number } => !!a.url)
    .sort((a, b) => b.bitrate - a.bitrate)[0];
  const split = entries(dynamic?.dynamic_video_list).flatMap((e) => track(e, d, 'dynamic_video').map((c) => (audio ? { ...c, audio_url: audio.url, source_quality: `${c.source_quality}+audio` } : { ...c, source_quality: `${c.source_quality}_video_only` })));
  return slots([slot('video', [...progressive, ...split])]);
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A toutiao post\'s media: every video track by definition (separate video + audio muxed where the page splits them), an article\'s or micro-post\'s pictures',
  params: detailAction.params,
  async resolve(ctx, params) {
    const page = await readPost(ctx, params);
    if (page.videoPlayInfo) return { draft: page.draft, slots: playSlots(page.videoPlayInfo) };
    return { draft: page.draft, slots: slotsFromDraft(page.draft, 'page_image') };
  },
};
