import { load } from '../../crawl/cheerio.js';
import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { dashRepresentations } from '../dash-manifest.js';
import { detailDraft, rawOf, slot, slots } from '../download-slots.js';
import type { ItemDraft } from '../types.js';
import { detailAction, type PostPage } from './detail.js';
import { attrJson, embeddedSources, fbcdn, SOURCE_PREFERENCE } from './parse.js';

/*
 * A facebook post's media from the page detail read. A video: the inline player's data-store (hd_src,
 * sd_src and its dashManifest: every DASH video representation with the best audio one beside it), the
 * stream URLs of the page's scripts near the video's id (hd before sd), and the URL detail picked.
 * Pictures: the image detail picked (the page names one size). Facebook adds no watermark.
 */

const LABEL: Record<string, string> = { hd_src: 'hd', hd_src_no_ratelimit: 'hd', playable_url_quality_hd: 'hd', browser_native_hd_url: 'hd', sd_src: 'sd', sd_src_no_ratelimit: 'sd', playable_url: 'sd', browser_native_sd_url: 'sd', src: 'sd' };

function videoCandidates(page: PostPage | undefined, videoId: string | undefined, picked: NonNullable<ItemDraft['media']>[number]): StreamCandidate[] {
  const out: StreamCandidate[] = [];
  const progressive = (key: string, url: string): StreamCandidate => ({ kind: 'video', url, mime: 'video/mp4', watermark: false, duration_s: picked.duration_s, source_quality: `progressive_${LABEL[key] ?? 'sd'}_${key}` });
  if (page) {
    const $ = load(page.html);
    for (const el of $('[data-sigil="inlineVideo"]').toArray()) {
      const ds = attrJson($(el).attr('data-store'));
      if (!ds || (videoId && String(ds.videoID ?? '') !== videoId)) continue;
      const reps = dashRepresentations(typeof ds.dashManifest === 'string' ? ds.dashManifest : undefined).filter((r) => fbcdn(r.url));
      const audio = reps.filter((r) => r.kind === 'audio').sort((a, b) => (b.bandwidth ?? 0) - (a.bandwidth ?? 0))[0];
      for (const r of reps.filter((x) => x.kind === 'video').sort((a, b) => (b.bandwidth ?? 0) - (a.bandwidth ?? 0))) {
        out.push({ kind: 'video', url: r.url, audio_url: audio?.url, mime: 'video/mp4', w: r.w, h: r.h, bitrate: r.bandwidth, duration_s: picked.duration_s, watermark: false, source_quality: `dash_${r.label ?? (r.h ? `${r.h}p` : 'video')}${audio ? '+audio' : '_no_audio'}` });
      }
      for (const key of SOURCE_PREFERENCE) {
        const url = fbcdn(typeof ds[key] === 'string' ? (ds[key] as string) : undefined);
        if (url) out.push(progressive(key, url));
      }
    }
    for (const s of embeddedSources(page.html, videoId)) out.push(progressive(s.key, s.url));
  }
  // The URL detail picked; the size the page gives is the video's, not necessarily this file's.
  out.push({ kind: 'video', url: picked.url, mime: 'video/mp4', duration_s: picked.duration_s, watermark: false, source_quality: 'page_video' });
  // The same URL under several keys: slot() keeps it once, with the most telling label (first seen).
  return out;
}

export function pageSlots(draft: ItemDraft, page: PostPage | undefined): MediaSlot[] {
  // A post link lands on its video's page (302): the draft's canonical URL names the video then.
  const fromUrl = /\/videos\/(?:[^/]+\/)?(\d+)|[?&]v=(\d+)|\/reel\/(\d+)/.exec(draft.url ?? '');
  const videoId = page?.want.videoId ?? fromUrl?.slice(1).find(Boolean) ?? (draft.type === 'video' ? draft.native_id : undefined);
  return slots(
    (draft.media ?? []).map((m) =>
      m.kind === 'video' ? slot('video', videoCandidates(page, videoId, m)) : slot('image', [{ kind: 'image', url: m.url, w: m.w, h: m.h, watermark: false, source_quality: 'page_image' }]),
    ),
  );
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A public facebook post\'s media: a video\'s DASH video + audio (muxed) or its hd/sd progressive stream; the post\'s pictures',
  params: detailAction.params,
  async resolve(ctx, params) {
    const draft = await detailDraft(ctx, detailAction, params);
    return { draft, slots: pageSlots(draft, rawOf(draft) as PostPage | undefined) };
  },
};
