import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const body = (file: string): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries.at(-1).response.content.text);

describe('pinterest download plans', () => {
  it('picture pin (real PinResource): images.orig first, then every sized copy largest first; best = orig', async () => {
    const file = resolve(FIXTURES, 'pinterest/detail-pin-672584525610478245.har');
    const images = body(file).resource_response.data.images;
    const { plan } = await resolveDownload({ source: 'pinterest', params: { query: '672584525610478245' }, replay: [file] });
    expect(plan.slots).toHaveLength(1);
    const s = plan.slots[0]!;
    expect(s.candidates[0]).toMatchObject({ source_quality: 'original', url: images.orig.url, w: images.orig.width, h: images.orig.height });
    expect(s.candidates.map((c) => c.source_quality).sort()).toEqual(Object.keys(images).map((k) => (k === 'orig' ? 'original' : k)).sort());
    expect(pickBest(s)).toMatchObject({ source_quality: 'original', watermark: false });
  });

  it('video pin (hand-made): V_720P and V_EXP4 mp4s, the HLS playlist left out; best = the 1080x1920 V_EXP4 (larger than V_720P)', async () => {
    const { plan } = await resolveDownload({ source: 'pinterest', params: { query: '981234567890120002' }, replay: [resolve(SANDBOX, 'pinterest/detail-pin-981234567890120002.har')] });
    const v = plan.slots[0]!;
    expect(v.candidates.map((c) => c.source_quality).sort()).toEqual(['V_720P', 'V_EXP4']);
    expect(pickBest(v)).toMatchObject({ source_quality: 'V_EXP4', url: 'https://v1.pinimg.com/videos/mc/expMp4/a1/c0/ff/ee/c0ffeea1_t2.mp4', w: 1080, h: 1920, duration_s: 14.5, watermark: false });
    expect(v.candidates.find((c) => c.source_quality === 'V_720P')).toMatchObject({ url: 'https://v1.pinimg.com/videos/mc/720p/a1/c0/ff/ee/c0ffeea1.mp4', w: 720, h: 1280 });
  });

  it('idea pin (hand-made): its image and video pages in order, each at its largest', async () => {
    const { plan } = await resolveDownload({ source: 'pinterest', params: { query: 'https://www.pinterest.com/pin/981234567890120003/' }, replay: [resolve(SANDBOX, 'pinterest/detail-pin-981234567890120003.har')] });
    expect(plan.slots.map((s) => [s.kind, pickBest(s).w, pickBest(s).h])).toEqual([
      ['image', 1080, 1920],
      ['video', 1080, 1920],
      ['image', 1080, 1920],
    ]);
  });
});
