import { ParseError } from '../../crawl/errors.js';
import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { awemeImageSlots, awemeVideoCandidates } from '../douyin/download.js';
import { findItem } from './detail.js';
import { itemToDraft, obj, objs, type Json } from './parse.js';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
const http = (v: unknown): string | undefined => (typeof v === 'string' && /^https?:\/\//.test(v) ? v : undefined);
const firstOfList = (v: unknown): string | undefined => (Array.isArray(v) ? v.map(http).find(Boolean) : undefined);

/**
 * Web-shape video (itemStruct.video): every bitrateInfo rendition's PlayAddr (watermark-free), playAddr, and
 * downloadAddr (watermarked). bytevc2 renditions play nowhere and H.265 video-only tracks carry no audio:
 * both are left out. When playAddr is the very URL of downloadAddr, nothing says it is clean: it is marked so.
 */
export function webVideoCandidates(video: Json, durationS?: number): StreamCandidate[] {
  const out: StreamCandidate[] = [];
  for (const b of objs(video.bitrateInfo)) {
    const play = obj(b.PlayAddr);
    const url = firstOfList(play?.UrlList);
    const codec = `${String(b.CodecType ?? '')} ${String(play?.UrlKey ?? '')}`.toLowerCase();
    if (!url || /bytevc2|h266/.test(codec) || /\/media-video-hvc1\/?(?:\?|$)/.test(url)) continue;
    const h = num(play?.Height);
    const kind = /h265|hevc|bytevc1/.test(codec) ? 'h265' : 'h264';
    out.push({ kind: 'video', url, w: num(play?.Width), h, bitrate: num(b.Bitrate), bytes: num(play?.DataSize), duration_s: durationS, watermark: false, source_quality: `play_addr_no_watermark_${String(b.GearName ?? (h ? `${h}p` : 'rendition'))}_${kind}` });
  }
  const download = http(video.downloadAddr);
  const play = http(video.playAddr) ?? objs(video.playAddr).map((p) => http(p.src)).find(Boolean);
  const w = num(video.width);
  const h = num(video.height);
  if (play) {
    const same = play === download;
    out.push({ kind: 'video', url: play, w, h, duration_s: durationS, watermark: same, source_quality: same ? 'play_addr_same_as_download_addr_maybe_watermarked' : 'play_addr_no_watermark' });
  }
  if (download && download !== play) out.push({ kind: 'video', url: download, w, h, duration_s: durationS, watermark: true, source_quality: 'download_addr_watermarked' });
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
    const candidates = video.bitrateInfo !== undefined || typeof video.playAddr === 'string' || Array.isArray(video.playAddr) || typeof video.downloadAddr === 'string' ? webVideoCandidates(video, seconds) : awemeVideoCandidates(video, seconds);
    return { draft, slots: candidates.length ? [{ kind: 'video', candidates }] : [] };
  },
};
