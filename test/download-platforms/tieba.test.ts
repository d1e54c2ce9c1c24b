import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { originalOf } from '../../src/platforms/tieba/download.js';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

describe('tieba download plans', () => {
  it('thread page (real): the /forum/pic/item/ original behind the scaled page picture first; best = the original', async () => {
    const { plan } = await resolveDownload({ source: 'tieba', params: { query: 'https://tieba.baidu.com/p/9117905169?share=9105' }, replay: [resolve(FIXTURES, 'tieba/detail-thread-9117905169.har')] });
    expect(plan.slots.length).toBe(plan.draft.media!.length);
    const s = plan.slots[0]!;
    expect(s.candidates.map((c) => [c.source_quality, c.url])).toEqual([
      ['original_pic_item', 'https://tiebapic.baidu.com/forum/pic/item/0a763eeff01f3a291c5210eedf25bc315c607c18.jpg'],
      ['page_image', plan.draft.media![0]!.url],
    ]);
    expect(pickBest(s)).toMatchObject({ source_quality: 'original_pic_item', watermark: false });
  });

  it('a sandbox picture name that is no tieba hash keeps the page copy alone', async () => {
    const { plan } = await resolveDownload({ source: 'tieba', params: { query: '7000000001' }, replay: [resolve(SANDBOX, 'tieba/detail-thread-7000000001.har')] });
    expect(plan.slots[0]!.candidates.map((c) => c.source_quality)).toEqual(['page_image']);
  });

  it('originalOf: scaled forms map to /forum/pic/item/, other hosts and the original itself do not', () => {
    expect(originalOf('https://imgsa.baidu.com/forum/w%3D580%3B/sign=abc/0a763eeff01f3a29.jpg')).toBe('https://imgsa.baidu.com/forum/pic/item/0a763eeff01f3a29.jpg');
    expect(originalOf('https://tiebapic.baidu.com/forum/pic/item/0a763eeff01f3a291c5210eedf25bc315c607c18.jpg')).toBeUndefined();
    expect(originalOf('https://evil.example/forum/w%3D580/sign=abc/0a763eeff01f3a29.jpg')).toBeUndefined();
  });
});
