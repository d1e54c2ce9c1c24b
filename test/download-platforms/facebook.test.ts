import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const run = (query: string, replay: string[]) => resolveDownload({ source: 'facebook', params: { query }, replay });

describe('facebook download plans', () => {
  it('video (real m. page): every DASH video representation of the player with the AAC track beside it, then the player progressive src (the one detail names); best = 1080p DASH + audio', async () => {
    const { plan } = await run('https://www.facebook.com/Nintendo/posts/4193752747375813', [resolve(FIXTURES, 'facebook/detail-video-nintendo-286348296528911.har')]);
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    const dash = v.candidates.filter((c) => c.source_quality.startsWith('dash_'));
    expect(dash.map((c) => c.h)).toEqual([1080, 720, 480, 360, 240, 144]);
    expect(new Set(dash.map((c) => c.audio_url)).size).toBe(1);
    expect(dash[0]!.audio_url).toMatch(/^https:\/\/video\.[a-z0-9.-]+\.fbcdn\.net\/v\/.+\.mp4\?/);
    expect(v.candidates.at(-1)).toMatchObject({ source_quality: 'progressive_sd_src', url: plan.draft.media![0]!.url })
    expect(v.candidates.at(-1)!.audio_url).toBeUndefined();;
    const best = pickBest(v);
    expect(best).toMatchObject({ source_quality: 'dash_1080p+audio', w: 1920, h: 1080, bitrate: 1712990, watermark: false, duration_s: 237.035 });
  });

  it('video (hand-made m. page): hd_src before sd_src, each labelled; the DASH pair is listed too', async () => {
    const { plan } = await run('https://www.facebook.com/HarborBakery/videos/100064000000202/', [resolve(SANDBOX, 'facebook/detail-video-harborbakery-100064000000202.har')]);
    const labels = plan.slots[0]!.candidates.map((c) => c.source_quality);
    expect(labels.indexOf('progressive_hd_hd_src')).toBeGreaterThanOrEqual(0);
    expect(labels.indexOf('progressive_hd_hd_src')).toBeLessThan(labels.indexOf('progressive_sd_sd_src'));
    expect(plan.slots[0]!.candidates.find((c) => c.source_quality === 'progressive_hd_hd_src')!.url).toMatch(/202_hd_n\.mp4/);
  });

  it('video (hand-made www page): the Relay playable_url_quality_hd / browser_native URLs near the video id', async () => {
    const { plan } = await run('https://www.facebook.com/watch/?v=100064000000203', [resolve(SANDBOX, 'facebook/detail-video-www-100064000000203.har')]);
    const labels = plan.slots[0]!.candidates.map((c) => c.source_quality);
    expect(labels[0]).toBe('progressive_hd_playable_url_quality_hd');
    expect(labels).toContain('progressive_sd_playable_url');
  });

  it('story with pictures (real m. page): one image slot per picture the page shows', async () => {
    const { plan } = await run('3065154550235644', [resolve(FIXTURES, 'facebook/detail-story-nintendo-3065154550235644.har')]);
    expect(plan.slots.length).toBe(plan.draft.media!.length);
    for (const [i, s] of plan.slots.entries()) expect(s.candidates[0]).toMatchObject({ kind: plan.draft.media![i]!.kind, url: plan.draft.media![i]!.url });
  });
});
