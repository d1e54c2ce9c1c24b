import { NotFound, ParseError, UpstreamError } from '../../crawl/errors.js';
import type { DownloadAction, StreamCandidate } from '../../download/types.js';
import { archive, playurl } from './detail.js';
import { archiveToDraft, aspectOf, obj, objs, pickUrl, positive as num, trackUrls, type Json } from './parse.js';
import { resolveVideo } from './resolve.js';

/** bilibili's quality ids (qn) in words. */
const QN: Record<number, string> = { 6: '240p', 16: '360p', 32: '480p', 64: '720p', 74: '720p60', 80: '1080p', 112: '1080p_plus', 116: '1080p60', 120: '4k', 125: 'hdr', 126: 'dolby_vision', 127: '8k' };
const CODEC: Record<number, string> = { 7: 'avc', 12: 'hevc', 13: 'av1' };

/**
 * Every DASH video track, each joined with the best audio track (highest bandwidth; Dolby/FLAC left out,
 * AAC muxes into MP4 everywhere), or the single progressive durl stream of old archives.
 */
export function playCandidates(raw: unknown, frame?: { width: number; height: number }): StreamCandidate[] {
  const data = obj(raw) ?? {};
  const totalS = num(data.timelength) ? (data.timelength as number) / 1000 : undefined;
  const dash = obj(data.dash);
  const tracks = objs(dash?.video);
  if (tracks.length) {
    const audio = [...objs(dash?.audio)].sort((a, b) => (num(b.bandwidth) ?? 0) - (num(a.bandwidth) ?? 0))[0];
    const audioUrl = audio ? pickUrl(trackUrls(audio)) : undefined;
    const out: StreamCandidate[] = [];
    for (const t of tracks) {
      const url = pickUrl(trackUrls(t));
      if (!url) continue;
      const qn = Number(t.id);
      const label = `dash_${QN[qn] ?? `qn${qn}`}_${CODEC[Number(t.codecid)] ?? String(t.codecs ?? 'video').split('.')[0]}`;
      out.push({
        kind: 'video',
        url,
        audio_url: audioUrl,
        w: num(t.width) ?? frame?.width,
        h: num(t.height) ?? frame?.height,
        // qn first: a higher quality id with a lower bit rate (HEVC) is still the better picture.
        bitrate: qn * 1e8 + (num(t.bandwidth) ?? 0),
        duration_s: totalS ?? num(dash?.duration),
        watermark: false,
        source_quality: audioUrl ? `${label}+dash_audio_${String(audio?.id)}` : `${label}_video_only`,
      });
    }
    return out;
  }
  const durl = objs(data.durl);
  if (durl.length > 1) throw new UpstreamError(`bilibili offers this video only as ${durl.length} progressive segments, which download does not join; a DASH answer (a logged-in profile) has it whole`);
  const url = durl[0] ? pickUrl([durl[0].url, ...((durl[0].backup_url as unknown[] | undefined) ?? [])]) : undefined;
  if (!url) return [];
  const qn = Number(data.quality);
  return [{ kind: 'video', url, w: frame?.width, h: frame?.height, duration_s: totalS, watermark: false, source_quality: `progressive_${QN[qn] ?? `qn${qn}`}` }];
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'Store one bilibili video: the best DASH video track with the best audio track, muxed into one MP4 (progressive for old archives)',
  params: [{ name: 'query', type: 'string', required: true, description: 'BV id, av id, video URL (?p=N picks a part) or b23.tv short link' }],
  async resolve(ctx, params) {
    const ref = await resolveVideo(ctx, params.query);
    const view = await archive(ctx, ref);
    const draft = archiveToDraft(view);
    if (!draft) throw new ParseError(`view ${ref.bvid}: the answer carries no bvid/aid`);
    const pages = objs(view.pages);
    const page = pages.find((p) => Number(p.page) === (ref.part ?? 1)) ?? (ref.part ? undefined : pages[0]);
    if (ref.part && !page) throw new NotFound(`${ref.bvid} has no part ${ref.part} (it has ${pages.length})`);
    const cid = String(page?.cid ?? view.cid ?? '');
    if (!/^\d+$/.test(cid) || cid === '0') throw new ParseError(`view ${ref.bvid} names no cid`);
    const candidates = playCandidates(await playurl(ctx, ref, cid), aspectOf(page?.dimension) ?? aspectOf(view.dimension));
    if (!candidates.length) throw new UpstreamError(`bilibili answered no playable stream for ${ref.bvid} (neither dash nor durl)`);
    return { draft, slots: [{ kind: 'video', candidates }] };
  },
};
