import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { absUrl, fetchable, isPlaylist, num, slot } from '../download-slots.js';
import { detailAction, resolvePost } from './detail.js';
import { obj, objs, originalOf, pbsUrl, str, type Json } from './parse.js';

/*
 * An X post's media from its tweet (GraphQL or the embed endpoint, both read as one shape). Pictures:
 * name=orig (the uploaded size) then name=large (at most 2048 px). Videos and GIFs: every mp4 variant
 * with its bitrate and the size written in its path (/vid/<w>x<h>/); the m3u8 variant is a playlist the
 * core does not fetch. X serves no watermarked variant.
 */

const SIZE = /\/(\d{2,5})x(\d{2,5})\//;

function videoCandidates(m: Json): { candidates: StreamCandidate[]; hls: boolean } {
  const info = obj(m.video_info);
  const ms = num(info?.duration_millis);
  const candidates: StreamCandidate[] = [];
  let hls = false;
  for (const v of objs(info?.variants)) {
    // A relative or otherwise unusable URL is skipped, never handed to new URL() (a TypeError) or the fetcher.
    const url = absUrl(v.url) ?? absUrl(v.src);
    const type = str(v.content_type) ?? str(v.type);
    if (!url) continue;
    if (type === 'application/x-mpegURL' || isPlaylist(url)) {
      hls = true;
      continue;
    }
    if (type && type !== 'video/mp4') continue;
    const size = SIZE.exec(new URL(url).pathname);
    const bitrate = num(v.bitrate);
    candidates.push({ kind: 'video', url, mime: 'video/mp4', w: size ? Number(size[1]) : undefined, h: size ? Number(size[2]) : undefined, bitrate, duration_s: ms ? ms / 1000 : undefined, watermark: false, source_quality: str(m.type) === 'animated_gif' ? 'gif_mp4' : `variant_${bitrate ? Math.round(bitrate / 1000) : 0}kbps` });
  }
  return { candidates, hls };
}

export function tweetSlots(ctx: Parameters<DownloadAction['resolve']>[0], tweet: Json): MediaSlot[] {
  const legacy = obj(originalOf(tweet).legacy) ?? {};
  const ext = objs(obj(legacy.extended_entities)?.media);
  const list = ext.length ? ext : objs(obj(legacy.entities)?.media);
  const hlsOnly: string[] = [];
  const out = list.map((m, i) => {
    const type = str(m.type);
    if (type === 'video' || type === 'animated_gif') {
      const { candidates, hls } = videoCandidates(m);
      if (!candidates.length && hls) hlsOnly.push(`X video ${i + 1}`);
      return slot('video', candidates);
    }
    const poster = str(m.media_url_https) ?? str(m.media_url);
    if (!poster) return undefined;
    const info = obj(m.original_info);
    return slot('image', [
      { kind: 'image', url: pbsUrl(poster), w: num(info?.width), h: num(info?.height), watermark: false, source_quality: 'original' },
      { kind: 'image', url: pbsUrl(poster, 'large'), watermark: false, source_quality: 'large' },
    ]);
  });
  return fetchable(ctx, out, hlsOnly);
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'An X post\'s media: pictures at name=orig, every mp4 variant of its videos and GIFs by bitrate (HLS-only videos are named, not fetched)',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, tweet } = await resolvePost(ctx, params.query);
    return { draft, slots: tweetSlots(ctx, tweet) };
  },
};
