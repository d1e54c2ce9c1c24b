import { ParseError } from '../../crawl/errors.js';
import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { awemeImageSlots } from '../douyin/download.js';
import { absUrl } from '../download-slots.js';
import { findItem } from './detail.js';
import { appStreams, itemToDraft, obj, objs, urlOf, usableStream, webPlayAddr, webRenditions, type Json, type Stream } from './parse.js';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
const http = (v: unknown): string | undefined => (typeof v === 'string' && /^https?:\/\//.test(v) ? v : undefined);

/** A rendition parse.ts's stream readers found, as a watermark-free download candidate. */
function renditionCandidate(s: Stream, durationS: number | undefined, size?: { w?: number; h?: number }): StreamCandidate | undefined {
  const url = absUrl(s.url);
  if (!url) return undefined;
  const w = size ? size.w : s.w;
  const h = size ? size.h : s.h;
  const codec = s.codec === 'h265' ? 'h265' : 'h264';
  return { kind: 'video', url, w, h, bitrate: s.bitrate || undefined, bytes: s.bytes, duration_s: durationS, watermark: false, source_quality: `play_addr_no_watermark_${s.gear ?? (h ? `${h}p` : 'rendition')}_${codec}` };
}

/**
 * Web-shape video (itemStruct.video): every bitrateInfo rendition's PlayAddr (watermark-free), playAddr, and
 * downloadAddr (watermarked), read by parse.ts's stream readers: bytevc2 renditions play nowhere and H.265
 * video-only tracks carry no audio, both left out; www.tiktok.com/aweme/v1/play/ copies lose to CDN ones.
 * When playAddr is the very URL of downloadAddr, nothing says it is clean: it is marked so.
 */
export function webVideoCandidates(video: Json, durationS?: number): StreamCandidate[] {
  const out = webRenditions(video).filter(usableStream).map((s) => renditionCandidate(s, durationS)).filter((c): c is StreamCandidate => !!c);
  const download = absUrl(video.downloadAddr);
  const playStream = webPlayAddr(video);
  const play = playStream && usableStream(playStream) ? absUrl(playStream.url) : undefined;
  const w = num(video.width);
  const h = num(video.height);
  if (play) {
    const same = play === download;
    out.push({ kind: 'video', url: play, w, h, duration_s: durationS, watermark: same, source_quality: same ? 'play_addr_same_as_download_addr_maybe_watermarked' : 'play_addr_no_watermark' });
  }
  if (download && download !== play) out.push({ kind: 'video', url: download, w, h, duration_s: durationS, watermark: true, source_quality: 'download_addr_watermarked' });
  return out;
}

/**
 * App-shape video (aweme video): the bit_rate renditions, else play_addr_h264 / play_addr, through parse.ts's
 * appStreams (bytevc2 left out, CDN copies before www.tiktok.com ones); download_addr as the watermarked copy.
 * The address objects report a placeholder 720x720, so the size is the video's own width/height.
 */
export function appVideoCandidates(video: Json, durationS?: number): StreamCandidate[] {
  const size = { w: num(video.width), h: num(video.height) };
  const out: StreamCandidate[] = [];
  for (const s of appStreams(video).filter(usableStream)) {
    const c = s.gear ? renditionCandidate(s, durationS, size) : absUrl(s.url) ? { kind: 'video' as const, url: absUrl(s.url) as string, ...size, duration_s: durationS, watermark: false, source_quality: 'play_addr_no_watermark' } : undefined;
    if (c) out.push(c);
  }
  const download = absUrl(urlOf(video.download_addr));
  if (download && !out.some((c) => c.url === download)) out.push({ kind: 'video', url: download, ...size, duration_s: durationS, watermark: true, source_quality: 'download_addr_watermarked' });
  return out;
}

function webImageSlots(item: Json): MediaSlot[] {
  return objs(obj(item.imagePost)?.images).flatMap((img): MediaSlot[] => {
    const u = obj(img.imageURL);
    const urls = (Array.isArray(u?.urlList) ? u.urlList : []).map(http).filter((x): x is string => !!x);
    return urls.length ? [{ kind: 'image', candidates: urls.slice(0, 3).map((url) => ({ kind: 'image', url, w: num(img.imageWidth), h: num(img.imageHeight), watermark: false, source_quality: 'original' })) }] : [];
  });
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'Store one TikTok post: its watermark-free play stream (highest resolution, then bit rate) or every image of a photo post',
  params: [{ name: 'query', type: 'string', required: true, description: 'a tiktok.com/@user/video/<id> or /photo/<id> URL, a vm/vt.tiktok.com short link, or the numeric id' }],
  async resolve(ctx, params) {
    const { ref, item } = await findItem(ctx, params.query);
    const draft = itemToDraft(item);
    if (!draft) throw new ParseError(`post ${ref.id}: the item carries no id`);
    const images = [...webImageSlots(item), ...awemeImageSlots(item)];
    if (images.length) return { draft, slots: images };
    const video = obj(item.video) ?? {};
    // Web items give duration in seconds, app items in ms.
    const seconds = draft.duration_s;
    const candidates = video.bitrateInfo !== undefined || typeof video.playAddr === 'string' || Array.isArray(video.playAddr) || typeof video.downloadAddr === 'string' ? webVideoCandidates(video, seconds) : appVideoCandidates(video, seconds);
    return { draft, slots: candidates.length ? [{ kind: 'video', candidates }] : [] };
  },
};
