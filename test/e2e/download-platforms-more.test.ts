import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadMedia, mediaHar, type DownloadMedia, type MediaHarEntry } from '../helpers/media-har.js';
import { resolveDownload } from '../helpers/resolve-download.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * download on the other fifteen platforms' resolvers through the real server in replay: each post comes
 * from its platform's recording (real fixtures read in place, or the hand-made sandbox), and a hand-made
 * HAR answers every stream URL the post's plan names with small real media made by ffmpeg: a video with a
 * separate audio track gets a video-only and an audio-only half (so the stored file proves the mux), a
 * progressive stream a clip with both, a picture a JPEG. One service for the whole file.
 */
const FIX = '/work/shared/fixtures';
const SBX = resolve('sandbox');
const LOGINS: Record<string, string> = {
  twitter: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface',
  xiaohongshu: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530',
};

interface Case {
  source: string;
  query: string;
  replay: string[];
}

const CASES: Record<string, Case> = {
  reddit: { source: 'reddit', query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq7v2a/', replay: [join(SBX, 'reddit/detail-video-1kq7v2a.har')] },
  redditGallery: { source: 'reddit', query: 'https://www.reddit.com/comments/1kq6m0c', replay: [join(SBX, 'reddit/detail-gallery-1kq6m0c.har')] },
  facebook: { source: 'facebook', query: 'https://www.facebook.com/Nintendo/posts/4193752747375813', replay: [join(FIX, 'facebook/detail-video-nintendo-286348296528911.har')] },
  twitter: { source: 'twitter', query: 'https://x.com/TheFigen_/status/1671508600538161153', replay: [join(FIX, 'twitter/detail-tweet-with-video-1671508600538161153.har')] },
  xiaohongshu: { source: 'xiaohongshu', query: 'https://www.xiaohongshu.com/explore/66696f98000000000d00f289?xsec_token=ABZ-_OXhUoJXvDZeOemUyk6oifaI3tE-Q_HaTaQUyDRb4=&xsec_source=pc_search', replay: [join(FIX, 'xiaohongshu/detail-feed-66696f98000000000d00f289.har')] },
  telegram: { source: 'telegram', query: 't.me/s/anna_news/46908', replay: [join(FIX, 'telegram/detail-message-photo-and-video-anna_news-46908.har')] },
  weibo: { source: 'weibo', query: 'https://m.weibo.cn/detail/4645748019299849', replay: [join(FIX, 'weibo/detail-statuses-show-4645748019299849.har')] },
  pinterest: { source: 'pinterest', query: '672584525610478245', replay: [join(FIX, 'pinterest/detail-pin-672584525610478245.har')] },
  bluesky: { source: 'bluesky', query: 'at://did:plc:kvwvcn5iqfooopmyzvb4qzba/app.bsky.feed.post/3kaheyt6vpc22', replay: [join(FIX, 'bluesky/detail-post-thread-3kaheyt6vpc22.har')] },
  tieba: { source: 'tieba', query: '9117905169', replay: [join(FIX, 'tieba/detail-thread-9117905169.har')] },
  kuaishou: { source: 'kuaishou', query: '3xp4tq7wz3hb5ca', replay: [join(SBX, 'kuaishou/detail-share-page-3xp4tq7wz3hb5ca.har')] },
  zhihu: { source: 'zhihu', query: 'zvideo:1600000000000000001', replay: [join(SBX, 'zhihu/detail-zvideo-1600000000000000001.har')] },
  toutiao: { source: 'toutiao', query: 'https://www.toutiao.com/video/7505382061495176511/', replay: [join(SBX, 'toutiao/detail-video.har'), join(SBX, 'toutiao/ttwid-register.har')] },
  mastodon: { source: 'mastodon', query: 'https://mastodon.social/@harbor/113500000000000300', replay: [join(SBX, 'mastodon/detail-status-video.har')] },
  instagram: { source: 'instagram', query: 'DH1xO0naABl', replay: [join(SBX, 'instagram/site-pages.har'), join(SBX, 'instagram/detail-polaris-DH1xO0naABl.har')] },
  threads: { source: 'threads', query: 'https://www.threads.com/@harbor.lights/post/DODrFU-QAAB', replay: [join(SBX, 'threads/session-page.har'), join(SBX, 'threads/detail-post-page-3712000000000000001.har')] },
};

let m: DownloadMedia;
let s: Running;

/** Every URL each case's plan names, answered with media of the right shape. */
async function mediaEntries(): Promise<MediaHarEntry[]> {
  const out = new Map<string, MediaHarEntry>();
  for (const c of Object.values(CASES)) {
    const cookies = LOGINS[c.source];
    const { plan } = await resolveDownload({ source: c.source, params: { query: c.query }, replay: c.replay, session: cookies ? { cookies } : undefined });
    for (const cand of plan.slots.flatMap((x) => x.candidates)) {
      if (cand.kind === 'image') out.set(cand.url, { url: cand.url, body: m.jpeg, mime: 'image/jpeg' });
      else if (cand.audio_url) {
        out.set(cand.url, { url: cand.url, body: m.videoOnly, mime: 'video/mp4' });
        out.set(cand.audio_url, { url: cand.audio_url, body: m.audioOnly, mime: 'audio/mp4' });
      } else if (!out.has(cand.url)) out.set(cand.url, { url: cand.url, body: m.progressive, mime: 'video/mp4' });
    }
  }
  return [...out.values()];
}

function ffprobe(buf: Buffer): { streams: string[]; duration: number } {
  const f = join(mkdtempSync(join(tmpdir(), 'dl-probe-')), 'f.mp4');
  writeFileSync(f, buf);
  const j = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type:format=duration', '-of', 'json', f]).toString());
  return { streams: j.streams.map((x: { codec_type: string }) => x.codec_type).sort(), duration: Number(j.format.duration) };
}

beforeAll(async () => {
  m = downloadMedia();
  const media = mediaHar(await mediaEntries());
  s = await startService({ config: { replay: [...new Set(Object.values(CASES).flatMap((c) => c.replay)), media] } });
  for (const [platform, cookies] of Object.entries(LOGINS)) {
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform, name: 'default', cookies } });
    expect(r.status, r.text).toBeLessThan(300);
  }
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function download(name: keyof typeof CASES) {
  const c = CASES[name]!;
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: c.source, action: 'download', params: { query: c.query } } });
  expect(r.status, r.text.slice(0, 500)).toBe(200);
  expect(r.body.result?.error, JSON.stringify(r.body).slice(0, 800)).toBeUndefined();
  return r.body.result as { items: Array<{ id: string }>; files: Array<{ url: string; kind: string; mime: string; bytes: number; source_quality: string }> };
}

async function bytesOf(url: string): Promise<Buffer> {
  const res = await fetch(s.base + url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function expectMuxed(file: { url: string }): Promise<void> {
  const probe = ffprobe(await bytesOf(file.url));
  expect(probe.streams).toEqual(['audio', 'video']);
  expect(probe.duration).toBeGreaterThan(1.8);
  expect(probe.duration).toBeLessThan(2.3);
}

describe('download on the other platforms (replay, real server)', () => {
  it('reddit v.redd.it: the CMAF video track and its CMAF_AUDIO_128 track muxed into one MP4', async () => {
    const r = await download('reddit');
    expect(r.files).toHaveLength(1);
    expect(r.files[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', source_quality: 'dash_720p+CMAF_AUDIO_128' });
    await expectMuxed(r.files[0]!);
  });

  it('reddit gallery: every image, each the i.redd.it original', async () => {
    const r = await download('redditGallery');
    expect(r.files.map((f) => [f.kind, f.source_quality])).toEqual([['image', 'original'], ['image', 'original'], ['image', 'original']]);
  });

  it('facebook: the 1080p DASH video with the AAC track, muxed', async () => {
    const r = await download('facebook');
    expect(r.files).toHaveLength(1);
    expect(r.files[0]).toMatchObject({ kind: 'video', source_quality: 'dash_1080p+audio' });
    await expectMuxed(r.files[0]!);
  });

  it('twitter: the highest mp4 variant, progressive (picture and sound in one file)', async () => {
    const r = await download('twitter');
    expect(r.files).toHaveLength(1);
    expect(r.files[0]).toMatchObject({ kind: 'video', bytes: m.progressive.length, source_quality: 'variant_2176kbps' });
    expect(ffprobe(await bytesOf(r.files[0]!.url)).streams).toEqual(['audio', 'video']);
  });

  it('xiaohongshu: the picture original behind its file token (watermark-free)', async () => {
    const r = await download('xiaohongshu');
    expect(r.files.map((f) => [f.kind, f.source_quality, f.bytes])).toEqual([['image', 'original', m.jpeg.length]]);
  });

  it('telegram: an album stores its video and both photos', async () => {
    const r = await download('telegram');
    expect(r.files.map((f) => [f.kind, f.source_quality])).toEqual([['video', 'web_preview_video'], ['image', 'web_preview_photo'], ['image', 'web_preview_photo']]);
  });

  it('one file per platform with the stream each picks', async () => {
    const picks: Record<string, string> = {};
    for (const name of ['weibo', 'pinterest', 'bluesky', 'tieba', 'kuaishou', 'zhihu', 'toutiao', 'mastodon', 'instagram', 'threads'] as const) {
      const r = await download(name);
      expect(r.files.length, name).toBeGreaterThan(0);
      picks[name] = r.files.map((f) => `${f.kind}:${f.source_quality}`).join(',');
    }
    expect(picks).toMatchObject({
      weibo: 'video:mp4_720p_mp4',
      pinterest: 'image:original',
      bluesky: expect.stringMatching(/^image:fullsize(,image:fullsize)*$/),
      tieba: expect.stringMatching(/^image:original_pic_item/),
      kuaishou: 'video:manifest_h264_1080p',
      zhihu: 'video:playlist_fhd',
      toutiao: 'video:video_list_720p',
      mastodon: 'video:original',
    });
    expect(picks.instagram).toMatch(/^video:(progressive|dash)_/);
    expect(picks.threads).toMatch(/image:image_versions2_largest/);
  });
});
