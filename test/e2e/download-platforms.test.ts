import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadMedia, mediaHar, type DownloadMedia, type MediaHarEntry } from '../helpers/media-har.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * download on bilibili and youtube through the real server: the platforms' real fixture answers for the
 * post (read in place), and a hand-made HAR answering every stream URL they name with media made by ffmpeg
 * (video-only and audio-only halves for DASH/adaptive). ffprobe checks the muxed file.
 */
const FIX = '/work/shared/fixtures';
let m: DownloadMedia;
let s: Running;

function answers(file: string): Array<Record<string, any>> {
  const har = JSON.parse(readFileSync(join(FIX, file), 'utf8'));
  return har.log.entries.map((e: any) => {
    try {
      return JSON.parse(e.response.content.text);
    } catch {
      return {};
    }
  });
}

function ffprobe(buf: Buffer): { streams: string[]; duration: number } {
  const f = join(mkdtempSync(join(tmpdir(), 'dl-probe-')), 'f.mp4');
  writeFileSync(f, buf);
  const j = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type:format=duration', '-of', 'json', f]).toString());
  return { streams: j.streams.map((x: { codec_type: string }) => x.codec_type).sort(), duration: Number(j.format.duration) };
}

/** Every URL of a track (base and backups), answered with one body. */
function track(t: Record<string, any>, body: Buffer, mime: string): MediaHarEntry[] {
  return [t.baseUrl ?? t.base_url, ...(t.backupUrl ?? t.backup_url ?? [])].filter(Boolean).map((url: string) => ({ url, body, mime }));
}

beforeAll(async () => {
  m = downloadMedia();
  const bili = answers('bilibili/detail-playurl-dash-BV1rp4y1e745.har')[0].data.dash;
  const yt = answers('youtube/detail-player-tjz2u2DiveM.har').find((a) => a.streamingData)!.streamingData;
  const tt = answers('tiktok/detail-item-6832324357851778309.har')[0].itemInfo.itemStruct.video;
  const entries: MediaHarEntry[] = [
    { url: tt.playAddr, body: m.progressive, mime: 'video/mp4' },
    ...bili.video.flatMap((t: any) => track(t, m.videoOnly, 'video/mp4')),
    ...bili.audio.flatMap((t: any) => track(t, m.audioOnly, 'audio/mp4')),
    ...yt.adaptiveFormats.map((f: any) => ({ url: f.url, body: f.mimeType.startsWith('audio') ? m.audioOnly : m.videoOnly, mime: f.mimeType.split(';')[0] })),
  ];
  s = await startService({
    config: {
      replay: [
        join(FIX, 'bilibili/detail-playurl-dash-BV1rp4y1e745.har'),
        resolve('sandbox/bilibili/detail-view-BV1rp4y1e745.har'),
        join(FIX, 'youtube/detail-player-tjz2u2DiveM.har'),
        join(FIX, 'tiktok/detail-item-6832324357851778309.har'),
        join(FIX, 'youtube/error-private-video.har'),
        mediaHar(entries),
      ],
    },
  });
});
afterAll(async () => {
  await s?.close();
});

async function download(source: string, params: Record<string, unknown>) {
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source, action: 'download', params } });
  expect(r.status, r.text.slice(0, 500)).toBe(200);
  expect(r.body.result?.error, JSON.stringify(r.body).slice(0, 800)).toBeUndefined();
  return r.body.result;
}

async function bytesOf(url: string): Promise<Buffer> {
  const res = await fetch(s.base + url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('download: DASH and adaptive streams are muxed (replay)', () => {
  it('bilibili: the 1080p AVC DASH track with the best audio track, one MP4 with both streams', async () => {
    const r = await download('bilibili', { query: 'https://m.bilibili.com/video/BV1rp4y1e745' });
    expect(r.items[0].id).toMatch(/^bilibili:/);
    expect(r.files).toHaveLength(1);
    expect(r.files[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', source_quality: 'dash_1080p_avc+dash_audio_30280' });
    const probe = ffprobe(await bytesOf(r.files[0].url));
    expect(probe.streams).toEqual(['audio', 'video']);
    expect(probe.duration).toBeGreaterThan(1.8);
    expect(probe.duration).toBeLessThan(2.3);
  });

  it('bilibili quality=smallest: the 360p track, still with audio', async () => {
    const r = await download('bilibili', { query: 'BV1rp4y1e745', quality: 'smallest' });
    expect(r.files[0].source_quality).toMatch(/^dash_360p_(avc|hevc)\+dash_audio_30280$/);
  });

  it('youtube: the largest MP4 adaptive video (itag 135, 384×480, which YouTube labels 360p) with audio itag 140, muxed', async () => {
    const r = await download('youtube', { query: 'https://youtu.be/tjz2u2DiveM' });
    expect(r.items[0].id).toBe('youtube:tjz2u2DiveM');
    expect(r.files[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', source_quality: 'adaptive_360p_itag135+audio_itag140' });
    const probe = ffprobe(await bytesOf(r.files[0].url));
    expect(probe.streams).toEqual(['audio', 'video']);
    expect(probe.duration).toBeGreaterThan(1.8);
    expect(probe.duration).toBeLessThan(2.3);
  });

  it('tiktok: a play stream that is the very download_addr is not passed off as watermark-free', async () => {
    const r = await download('tiktok', { query: '6832324357851778309' });
    expect(r.items[0].id).toBe('tiktok:6832324357851778309');
    expect(r.files[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', bytes: m.progressive.length, source_quality: 'play_addr_same_as_download_addr_maybe_watermarked' });
    expect(r.warnings.join(' ')).toMatch(/only a watermarked stream/);
    expect(ffprobe(await bytesOf(r.files[0].url)).streams).toEqual(['audio', 'video']);
  });

  it('youtube: a private video is an honest not_found with YouTube\'s reason, no file', async () => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'youtube', action: 'download', params: { query: 'https://youtu.be/8VajtrESJzA' } } });
    expect(r.body.result).toMatchObject({ ok: false, files: [], error: { code: 'not_found' } });
    expect(r.body.result.error.message).toMatch(/private/i);
  });
});
