import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postSlots } from '../../src/platforms/reddit/download.js';
import { SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const sand = (f: string) => resolve(SANDBOX, 'reddit', f);
const run = (query: string, file: string) => resolveDownload({ source: 'reddit', params: { query }, replay: [sand(file)] });

describe('reddit download plans', () => {
  it('v.redd.it (hand-made detail): the CMAF video with its audio track beside it, then the silent fallback; best = with audio', async () => {
    const { plan } = await run('https://www.reddit.com/r/MechanicalKeyboards/comments/1kq7v2a/', 'detail-video-1kq7v2a.har');
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    expect(v.candidates.map((c) => [c.source_quality, c.url, c.audio_url])).toEqual([
      ['dash_720p+CMAF_AUDIO_128', 'https://v.redd.it/7x2kq9r1v3wf1/CMAF_720.mp4?source=fallback', 'https://v.redd.it/7x2kq9r1v3wf1/CMAF_AUDIO_128.mp4'],
      ['dash_720p+CMAF_AUDIO_64', 'https://v.redd.it/7x2kq9r1v3wf1/CMAF_720.mp4?source=fallback', 'https://v.redd.it/7x2kq9r1v3wf1/CMAF_AUDIO_64.mp4'],
      ['fallback_720p_video_only', 'https://v.redd.it/7x2kq9r1v3wf1/CMAF_720.mp4?source=fallback', undefined],
    ]);
    expect(v.candidates[0]).toMatchObject({ w: 1280, h: 720, duration_s: 58, bitrate: 2400000, watermark: false });
    expect(pickBest(v).audio_url).toBe('https://v.redd.it/7x2kq9r1v3wf1/CMAF_AUDIO_128.mp4');
  });

  it('older DASH names: DASH_1080.mp4 → DASH_AUDIO_128.mp4 then DASH_audio.mp4; DASH_480 → DASH_audio; has_audio false → the fallback alone', () => {
    const rv = (fallback_url: string, extra = {}) => postSlots({ secure_media: { reddit_video: { fallback_url, height: 1080, width: 1920, ...extra } } })[0]!.candidates.map((c) => c.audio_url?.split('/').pop() ?? c.source_quality);
    expect(rv('https://v.redd.it/abc/DASH_1080.mp4?source=fallback')).toEqual(['DASH_AUDIO_128.mp4', 'DASH_AUDIO_64.mp4', 'DASH_audio.mp4', 'fallback_1080p_video_only']);
    expect(rv('https://v.redd.it/abc/DASH_480?source=fallback')).toEqual(['DASH_audio', 'fallback_1080p_video_only']);
    expect(rv('https://v.redd.it/abc/DASH_1080.mp4', { has_audio: false })).toEqual(['fallback_1080p']);
  });

  it('gallery (hand-made detail): every image in gallery_data order, the i.redd.it original before the preview copy', async () => {
    const { plan } = await run('https://www.reddit.com/comments/1kq6m0c', 'detail-gallery-1kq6m0c.har');
    expect(plan.slots.map((s) => s.kind)).toEqual(['image', 'image', 'image']);
    const first = plan.slots[0]!;
    expect(first.candidates.map((c) => [c.source_quality, c.url, c.w, c.h])).toEqual([
      ['original', 'https://i.redd.it/a8c2k4m6p1wf1.jpg', 4000, 3000],
      ['preview_source', 'https://preview.redd.it/a8c2k4m6p1wf1.jpg?width=4000&format=pjpg&auto=webp&s=g0s', 4000, 3000],
    ]);
    expect(plan.slots.map((s) => pickBest(s).url)).toEqual(['https://i.redd.it/a8c2k4m6p1wf1.jpg', 'https://i.redd.it/b9d3l5n7q2wf1.jpg', 'https://i.redd.it/c1e4m6o8r3wf1.png']);
  });

  it('single image (hand-made detail): the i.redd.it link, then the preview source', async () => {
    const { plan } = await run('https://redd.it/1kq5z9d', 'detail-image-1kq5z9d.har');
    expect(plan.slots).toHaveLength(1);
    expect(plan.slots[0]!.candidates.map((c) => [c.source_quality, c.url, c.w, c.h])).toEqual([
      ['original', 'https://i.redd.it/h3k9f2m1x8wf1.jpeg', 3024, 4032],
      ['preview_source', 'https://preview.redd.it/h3k9f2m1x8wf1.jpeg?auto=webp&s=i0', 3024, 4032],
    ]);
  });
});
