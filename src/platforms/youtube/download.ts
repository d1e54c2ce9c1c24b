import { Blocked, NotFound } from '../../crawl/errors.js';
import type { DownloadAction, StreamCandidate } from '../../download/types.js';
import { playability } from './api.js';
import { playerOf } from './detail.js';
import { num } from '../download-slots.js';
import { detailDraft, directFormat, playableStream } from './parse.js';
import { parseVideoRef } from './refs.js';
import { arr, obj, str, type Json } from './text.js';

const label = (f: Json) => str(f.qualityLabel) ?? (num(f.height) ? `${num(f.height)}p` : `itag${String(f.itag)}`);

/**
 * streamingData in download's terms: every MP4 adaptive video format joined with the best MP4 audio format
 * (muxed without re-encoding), and the progressive formats (audio and video in one file) as fallbacks.
 * Formats that only come signature-ciphered are not offered: deciphering needs the player's JavaScript.
 */
export function youtubeCandidates(pr: Json): { candidates: StreamCandidate[]; ciphered: boolean } {
  const sd = obj(pr.streamingData) ?? {};
  const adaptive = arr(sd.adaptiveFormats).map(obj).filter((f): f is Json => !!f);
  const progressive = arr(sd.formats).map(obj).filter((f): f is Json => !!f);
  const ciphered = [...adaptive, ...progressive].some((f) => f.signatureCipher !== undefined || f.cipher !== undefined);
  const mp4 = (f: Json, kind: 'video' | 'audio') => directFormat(f) && new RegExp(`^${kind}/mp4`).test(str(f.mimeType) ?? '');
  const audio = adaptive.filter((f) => mp4(f, 'audio')).sort((a, b) => (num(b.bitrate) ?? 0) - (num(a.bitrate) ?? 0))[0];
  const duration = (f: Json) => (num(f.approxDurationMs) ? (num(f.approxDurationMs) as number) / 1000 : undefined);
  const out: StreamCandidate[] = [];
  if (audio) {
    for (const f of adaptive.filter((x) => mp4(x, 'video'))) {
      out.push({
        kind: 'video',
        url: f.url as string,
        audio_url: audio.url as string,
        w: num(f.width),
        h: num(f.height),
        bitrate: num(f.bitrate),
        duration_s: duration(f),
        mime: 'video/mp4',
        watermark: false,
        source_quality: `adaptive_${label(f)}_itag${String(f.itag)}+audio_itag${String(audio.itag)}`,
      });
    }
  }
  for (const f of progressive.filter(directFormat)) {
    out.push({ kind: 'video', url: f.url as string, w: num(f.width), h: num(f.height), bitrate: num(f.bitrate), duration_s: duration(f), watermark: false, source_quality: `progressive_${label(f)}_itag${String(f.itag)}` });
  }
  return { candidates: out, ciphered };
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'Store one YouTube video: the best MP4 adaptive video with the best audio, muxed into one MP4 (a progressive format as the fallback)',
  params: [{ name: 'query', type: 'string', required: true, description: 'the video: youtube.com/watch?v=<id>, /shorts/<id>, youtu.be/<id>, or an 11-character id' }],
  async resolve(ctx, params) {
    const id = parseVideoRef(params.query);
    const { pr, client } = await playerOf(ctx, id);
    // Typed errors for login, age gate, bot checks and private videos come from here.
    const verdict = playability(pr, `video ${id}`);
    if (!verdict.playable) throw new NotFound(`video ${id} has no playable stream: ${verdict.reason}`);
    const choice = playableStream(pr);
    const draft = detailDraft({ videoId: id, player: pr, stream: 'stream' in choice ? choice.stream : undefined });
    if (client === 'WEB') throw new Blocked(`video ${id}: only the WEB player answered, and its streams need a PO token this service cannot mint`);
    const { candidates, ciphered } = youtubeCandidates(pr);
    if (!candidates.length) {
      throw new Blocked(
        ciphered
          ? `video ${id}: YouTube offers its streams only signature-ciphered (signatureCipher / n parameter), which needs the player JavaScript this service does not run`
          : `video ${id}: YouTube offered no stream with a direct URL (only an HLS playlist or none)`,
      );
    }
    return { draft, slots: [{ kind: 'video', candidates }] };
  },
};
