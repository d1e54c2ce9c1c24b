import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const sand = (f: string) => resolve(SANDBOX, 'kuaishou', f);

describe('kuaishou download plans', () => {
  it('video (hand-made share page): every manifest representation (h264 and h265) with its backup CDN; best = the 1080p h264 at 4100 kbps, no watermark', async () => {
    const { plan } = await resolveDownload({ source: 'kuaishou', params: { query: '3xp4tq7wz3hb5ca' }, replay: [sand('detail-share-page-3xp4tq7wz3hb5ca.har')] });
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    const manifest = v.candidates.filter((c) => c.source_quality.startsWith('manifest_'));
    expect(manifest.map((c) => c.source_quality)).toEqual(['manifest_h264_720p', 'manifest_h264_720p_backup', 'manifest_h264_1080p', 'manifest_h264_1080p_backup', 'manifest_h265_1080p', 'manifest_h265_1080p_backup']);
    expect(new URL(manifest[1]!.url).hostname).toBe('v1.kwaicdn.com');
    const best = pickBest(v);
    expect(best).toMatchObject({ source_quality: 'manifest_h264_1080p', w: 1080, h: 1920, bitrate: 4100000, watermark: false });
    expect(best.url).toBe(plan.draft.media![0]!.url);
  });

  it('mobile share page (hand-made INIT_STATE): the streams detail reads, the one detail picks among them', async () => {
    const { plan } = await resolveDownload({ source: 'kuaishou', params: { query: '复制打开快手 https://www.kuaishou.com/f/X-7hmDemoTok3n 看看' }, replay: [sand('resolve-share-links.har'), sand('detail-mobile-page-3xjc8p2vf6ht3ya.har')] });
    expect(plan.slots.length).toBeGreaterThan(0);
    const urls = plan.slots.flatMap((s) => s.candidates.map((c) => c.url));
    for (const m of plan.draft.media ?? []) expect(urls).toContain(m.url);
    expect(plan.slots.every((s) => s.candidates.every((c) => c.watermark === false))).toBe(true);
  });
});
