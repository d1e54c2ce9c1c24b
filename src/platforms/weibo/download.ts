import type { CrawlContext } from '../types.js';
import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { absUrl, fetchable, isPlaylist, num, slot } from '../download-slots.js';
import { detailAction, readStatus } from './detail.js';
import { isVideoCard, obj, str, videoDuration, videoStreams } from './parse.js';

type Json = Record<string, unknown>;

/*
 * A weibo status's media from its mblog (m.weibo.cn or weibo.com). Video cards: every stream the card
 * lists (page_info.urls mp4_720p_mp4 / mp4_hd_mp4 / mp4_ld_mp4, media_info stream_url_hd / stream_url /
 * h265 ones, weibo.com's playback_list), labelled with the answer's own key; HLS entries are playlists the
 * core does not fetch. Pictures: pics[].large (m.weibo.cn, geo-sized) then the list size; weibo.com's
 * pic_infos largest / original / mw2000 / large / bmiddle. Weibo serves these as stored: a watermark the
 * author chose to stamp at upload is part of every size, so none is marked.
 */

function videoSlot(pageInfo: Json, hls: string[]): MediaSlot | undefined {
  const d = videoDuration(pageInfo);
  const candidates: StreamCandidate[] = [];
  const streams = videoStreams(pageInfo);
  for (const s of streams) {
    const url = absUrl(s.url);
    if (!url || isPlaylist(url)) continue;
    candidates.push({ kind: 'video', url, mime: 'video/mp4', w: s.w, h: s.h, duration_s: d, watermark: false, source_quality: s.label || 'stream' });
  }
  if (!candidates.length && streams.length) hls.push('weibo video (HLS)');
  return slot('video', candidates);
}

function sized(v: unknown, label: string): StreamCandidate | undefined {
  const o = obj(v);
  const url = absUrl(o?.url);
  const geo = obj(o?.geo);
  return url ? { kind: 'image', url, w: num(o?.width ?? geo?.width), h: num(o?.height ?? geo?.height), watermark: false, source_quality: label } : undefined;
}

export function statusSlots(ctx: CrawlContext, mblog: Json): MediaSlot[] {
  const hls: string[] = [];
  const pageInfo = obj(mblog.page_info);
  if (pageInfo && isVideoCard(pageInfo)) return fetchable(ctx, [videoSlot(pageInfo, hls)], hls);
  const pics = Array.isArray(mblog.pics) ? mblog.pics.map(obj).filter((p): p is Json => !!p) : [];
  if (pics.length) return fetchable(ctx, pics.map((p) => slot('image', [sized(p.large, 'large'), absUrl(p.url) ? { kind: 'image', url: absUrl(p.url)!, watermark: false, source_quality: 'list_size' } : undefined])), hls);
  const infos = obj(mblog.pic_infos);
  if (!infos) return [];
  const ids = (Array.isArray(mblog.pic_ids) ? mblog.pic_ids : []).map(str).filter((id): id is string => !!id && !!obj(infos[id]));
  return fetchable(
    ctx,
    (ids.length ? ids : Object.keys(infos)).map((id) => {
      const info = obj(infos[id]);
      return slot('image', ['largest', 'original', 'mw2000', 'large', 'bmiddle'].map((k) => sized(info?.[k], k)));
    }),
    hls,
  );
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A weibo status\'s media: every mp4 stream of its video (720p / hd / ld, h265) or every picture at its largest size',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, mblog } = await readStatus(ctx, params);
    return { draft, slots: statusSlots(ctx, mblog) };
  },
};
