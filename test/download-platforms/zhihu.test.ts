import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const sand = (f: string) => resolve(SANDBOX, 'zhihu', f);

describe('zhihu download plans', () => {
  it('video (hand-made zvideo answer): LD, HD and FHD of the playlist, sized, kbps → bps; best = FHD', async () => {
    const { plan } = await resolveDownload({ source: 'zhihu', params: { query: 'zvideo:1600000000000000001' }, replay: [sand('detail-zvideo-1600000000000000001.har')] });
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    expect(v.candidates.map((c) => [c.source_quality, c.w, c.h, c.bitrate])).toEqual([
      ['playlist_ld', 640, 360, 400000],
      ['playlist_hd', 1280, 720, 1200000],
      ['playlist_fhd', 1920, 1080, 2500000],
    ]);
    expect(pickBest(v)).toMatchObject({ source_quality: 'playlist_fhd', url: plan.draft.media![0]!.url, duration_s: 183.5, watermark: false });
  });

  it('answer (hand-made): one slot per body picture at full size (data-original), as detail lists them', async () => {
    const { plan } = await resolveDownload({ source: 'zhihu', params: { query: 'https://www.zhihu.com/question/1800000000000000001/answer/1900000000000000001' }, replay: [sand('detail-answer-1900000000000000001.har')] });
    expect(plan.slots.length).toBe(plan.draft.media!.length);
    expect(plan.slots.length).toBeGreaterThan(0);
    plan.slots.forEach((s, i) => expect(s.candidates[0]).toMatchObject({ kind: 'image', url: plan.draft.media![i]!.url, source_quality: 'data_original', watermark: false }));
  });
});
