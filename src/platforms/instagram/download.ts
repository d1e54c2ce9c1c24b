import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { dashRepresentations } from '../dash-manifest.js';
import { detailDraft, rawOf, slot, slots } from '../download-slots.js';
import { detailAction } from './detail.js';
import { httpsUrl, isVideoNode, obj, objs, positive, str } from './parse.js';

type Json = Record<string, unknown>;

/*
 * An Instagram post's media, from the item detail parsed (REST/polaris media item, or a GraphQL node).
 * Videos: the progressive video_versions (picture and sound in one file) and, where the item inlines
 * video_dash_manifest, every DASH video representation with the best audio representation beside it
 * (muxed by the core). Pictures: every image_versions2 candidate (display_resources for nodes), largest
 * first. Instagram stamps no watermark on what it serves.
 */

const kbps = (n: number | undefined): string => (n ? `${Math.round(n / 1000)}k` : 'na');

function dashCandidates(manifest: unknown, durationS?: number): StreamCandidate[] {
  const reps = dashRepresentations(manifest);
  const audio = reps.filter((r) => r.kind === 'audio').sort((a, b) => (b.bandwidth ?? 0) - (a.bandwidth ?? 0))[0];
  return reps
    .filter((r) => r.kind === 'video')
    .map((r) => ({ kind: 'video' as const, url: r.url, audio_url: audio?.url, mime: 'video/mp4', w: r.w, h: r.h, bitrate: r.bandwidth, duration_s: durationS, watermark: false, source_quality: `dash_${r.h ? `${Math.min(r.h, r.w ?? r.h)}p` : 'video'}_${kbps(r.bandwidth)}${audio ? `+audio_${kbps(audio.bandwidth)}` : '_no_audio'}` }));
}

function itemSlot(part: Json): MediaSlot | undefined {
  const d = positive(part.video_duration);
  if (Number(part.media_type) === 2) {
    const progressive = objs(part.video_versions).map((v): StreamCandidate | undefined => {
      const url = httpsUrl(v.url);
      const w = positive(v.width);
      const h = positive(v.height);
      return url ? { kind: 'video', url, mime: 'video/mp4', w, h, duration_s: d, watermark: false, source_quality: `progressive_${w && h ? `${Math.min(w, h)}p` : 'video'}${v.type !== undefined ? `_type${String(v.type)}` : ''}` } : undefined;
    });
    return slot('video', [...dashCandidates(part.video_dash_manifest, d), ...progressive]);
  }
  const images = objs(obj(part.image_versions2)?.candidates)
    .map((c) => ({ url: httpsUrl(c.url), w: positive(c.width), h: positive(c.height) }))
    .filter((c): c is { url: string; w: number | undefined; h: number | undefined } => !!c.url)
    .sort((a, b) => (b.w ?? 0) * (b.h ?? 0) - (a.w ?? 0) * (a.h ?? 0));
  return slot('image', images.map((c, i) => ({ kind: 'image', url: c.url, w: c.w, h: c.h, watermark: false, source_quality: i === 0 ? 'image_versions2_largest' : `image_versions2_${c.w ?? 0}w` })));
}

function nodeSlot(part: Json): MediaSlot | undefined {
  const dims = obj(part.dimensions);
  const w = positive(dims?.width);
  const h = positive(dims?.height);
  if (isVideoNode(part)) {
    const url = httpsUrl(part.video_url);
    const d = positive(part.video_duration);
    // dimensions is the post's display box, not the file's size: video_url (often the DASH video track
    // itself, with its sound) goes unsized so a sized DASH pair with its audio ranks above it.
    return slot('video', [...dashCandidates(obj(part.dash_info)?.video_dash_manifest, d), url ? { kind: 'video', url, mime: 'video/mp4', duration_s: d, watermark: false, source_quality: 'video_url' } : undefined]);
  }
  const display = httpsUrl(part.display_url);
  const resources = objs(part.display_resources)
    .map((r): StreamCandidate | undefined => {
      const url = httpsUrl(r.src);
      const rw = positive(r.config_width);
      return url ? { kind: 'image', url, w: rw, h: positive(r.config_height), watermark: false, source_quality: `display_resources_${rw ?? 0}w` } : undefined;
    })
    .reverse();
  return slot('image', [display ? { kind: 'image', url: display, w, h, watermark: false, source_quality: 'display_url' } : undefined, ...resources]);
}

export function postSlots(raw: unknown): MediaSlot[] {
  const r = obj(raw);
  if (!r) return [];
  if ('media_type' in r || 'image_versions2' in r || 'code' in r) {
    const children = objs(r.carousel_media);
    return slots((children.length ? children : [r]).map(itemSlot));
  }
  const children = objs(obj(r.edge_sidecar_to_children)?.edges).map((e) => obj(e.node)).filter((c): c is Json => !!c);
  return slots((children.length ? children : [r]).map(nodeSlot));
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'An Instagram post\'s media: every carousel item; videos as DASH video + audio (muxed) or the progressive video_versions; pictures at the largest image_versions2 candidate',
  params: detailAction.params,
  async resolve(ctx, params) {
    const draft = await detailDraft(ctx, detailAction, params);
    return { draft, slots: postSlots(rawOf(draft)) };
  },
};
