import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CrawlContext } from '../../src/platforms/types.js';
import { statusSlots } from '../../src/platforms/weibo/download.js';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const body = (file: string): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[0].response.content.text);
const ctx = { platform: 'weibo', warn: () => {} } as unknown as CrawlContext;

describe('weibo download plans', () => {
  it('video (real statuses/show): mp4_720p_mp4, mp4_hd_mp4, mp4_ld_mp4 by the answer\'s keys; best = 720p', async () => {
    const { plan } = await resolveDownload({ source: 'weibo', params: { query: 'https://m.weibo.cn/detail/4645748019299849' }, replay: [resolve(FIXTURES, 'weibo/detail-statuses-show-4645748019299849.har')] });
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    expect(v.candidates.map((c) => [c.source_quality, c.w, c.h])).toEqual(expect.arrayContaining([['mp4_720p_mp4', 1280, 720], ['mp4_hd_mp4', 852, 480], ['mp4_ld_mp4', 640, 360]]));
    expect(v.candidates.some((c) => c.url.includes('.m3u8'))).toBe(false);
    expect(pickBest(v)).toMatchObject({ source_quality: 'mp4_720p_mp4', url: plan.draft.media![0]!.url, watermark: false });
  });

  it('pictures (real m.weibo.cn timeline mblog): large (geo-sized) before the list size; best = large', () => {
    const mblog = body(resolve(FIXTURES, 'weibo/posts-arknights-timeline.har')).data.cards.map((c: any) => c.mblog).find((m: any) => m?.pics?.length);
    const got = statusSlots(ctx, mblog);
    expect(got).toHaveLength(mblog.pics.length);
    expect(got[0]!.candidates.map((c) => [c.source_quality, c.url, c.w, c.h])).toEqual([
      ['large', mblog.pics[0].large.url, 1920, 1080],
      ['list_size', mblog.pics[0].url, undefined, undefined],
    ]);
    expect(pickBest(got[0]!).source_quality).toBe('large');
  });

  it('pictures (hand-made weibo.com mymblog): pic_infos in pic_ids order, largest first', () => {
    const list = body(resolve(SANDBOX, 'weibo/pc-posts-mymblog-6279793937.har')).data.list;
    const mblog = list.find((m: any) => m.pic_infos);
    const got = statusSlots(ctx, mblog);
    expect(got).toHaveLength(mblog.pic_ids.length);
    expect(pickBest(got[0]!).url).toBe(mblog.pic_infos[mblog.pic_ids[0]].largest.url);
  });
});
