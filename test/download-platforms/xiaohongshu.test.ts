import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { noteSlots } from '../../src/platforms/xiaohongshu/download.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const LOGIN = { cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530' };
const run = (query: string, replay: string[]) => resolveDownload({ source: 'xiaohongshu', params: { query }, replay, session: LOGIN });

describe('xiaohongshu download plans', () => {
  it('picture note (real feed answer): the original behind the file token first, then the web renditions (marked watermarked); best = original, no watermark', async () => {
    const { plan } = await run('https://www.xiaohongshu.com/explore/66696f98000000000d00f289?xsec_token=ABZ-_OXhUoJXvDZeOemUyk6oifaI3tE-Q_HaTaQUyDRb4=&xsec_source=pc_search', [resolve(FIXTURES, 'xiaohongshu/detail-feed-66696f98000000000d00f289.har')]);
    expect(plan.draft.native_id).toBe('66696f98000000000d00f289');
    expect(plan.slots).toHaveLength(1);
    const [s] = plan.slots;
    expect(s!.kind).toBe('image');
    expect(s!.candidates.map((c) => [c.source_quality, c.url, c.w, c.h, c.watermark])).toEqual([
      ['original', 'https://sns-img-bd.xhscdn.com/1040g008313ul3ln81c6g5o8vavbg961a6bl9og0', 2048, 2048, false],
      ['web_default', 'https://sns-webpic-qc.xhscdn.com/202409181841/a73813229398edf85761900823585f74/1040g008313ul3ln81c6g5o8vavbg961a6bl9og0!nd_dft_wlteh_webp_3', undefined, undefined, true],
      ['web_preview', 'https://sns-webpic-qc.xhscdn.com/202409181841/bff0298c25a42f55870b1203b456f370/1040g008313ul3ln81c6g5o8vavbg961a6bl9og0!nd_prv_wlteh_webp_3', undefined, undefined, true],
    ]);
    expect(pickBest(s!).source_quality).toBe('original');
  });

  it('video note: every rendition (h264 720p + backup, 1080p, h265 1080p) and the uploaded original; h264 marked watermarked; best = h265 1080p', async () => {
    const { plan } = await run('https://www.xiaohongshu.com/explore/6745c0a2000000001e01f2a2?xsec_token=ABsbxN2videoToken0123456789abcdefGHIJKLmno_-%3D', [resolve(SANDBOX, 'xiaohongshu/detail-feed-video.har')]);
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    expect(v.kind).toBe('video');
    expect(v.candidates.map((c) => c.source_quality)).toEqual(['h264_720p', 'h264_720p_backup', 'h264_1080p', 'h265_1080p', 'origin_video_key']);
    expect(v.candidates.map((c) => c.watermark)).toEqual([true, true, true, false, false]);
    expect(v.candidates[1]!.url).toBe('https://sns-video-bd.xhscdn.com/stream/79/110/258/01e745c0a2sbx0001_258.mp4?sign=0a1b2c&t=6745e0a0');
    expect(v.candidates[2]).toMatchObject({ w: 1080, h: 1920, bitrate: 2400000, bytes: 18700000, duration_s: 61.2 });
    expect(v.candidates[4]!.url).toBe('https://sns-video-bd.xhscdn.com/pre_post/1040g2t031sbxn2origin0g5o8vavbg961a6bl9og0');
    const best = pickBest(v);
    expect(best.source_quality).toBe('h265_1080p');
    expect(best.watermark).toBe(false);
    // Without an h265 rendition the uploaded original (unsized) comes before any h264 one.
    expect(pickBest({ kind: 'video', candidates: v.candidates.filter((c) => !c.source_quality.startsWith('h265')) }).source_quality).toBe('origin_video_key');
  });

  it('live photo (hand-made note in the feed shape): the still and its clip are two slots of one group', () => {
    const img = (n: number, live: boolean) => ({
      width: 1440, height: 1920, live_photo: live,
      url_default: `http://sns-webpic-qc.xhscdn.com/202501010000/abc${n}/1040g00831live${n}!nd_dft_wlteh_jpg_3`,
      stream: live ? { h264: [{ master_url: `http://sns-video-qc.xhscdn.com/stream/live${n}.mp4`, backup_urls: [], width: 1440, height: 1920, duration: 2900 }] } : {},
    });
    const got = noteSlots({ note_card: { type: 'normal', image_list: [img(1, true), img(2, false)] } });
    expect(got.map((s) => [s.kind, s.group, s.candidates[0]!.source_quality])).toEqual([
      ['image', 'live_1', 'original'],
      ['video', 'live_1', 'h264_1440p'],
      ['image', undefined, 'original'],
    ]);
    expect(got[1]!.candidates[0]).toMatchObject({ url: 'https://sns-video-qc.xhscdn.com/stream/live1.mp4', duration_s: 2.9, watermark: true });
  });

  it('live photo (hand-made note page, anonymous): the pictures, and the live one\'s still and clip as two slots of one group', async () => {
    const N1 = '6745c0a1000000000703d1e1';
    const { plan } = await resolveDownload({ source: 'xiaohongshu', params: { query: `https://www.xiaohongshu.com/explore/${N1}?xsec_token=ABsbxN1travelToken0123456789abcdefGHIJKLmn-_w%3D&xsec_source=pc_search` }, replay: [resolve(SANDBOX, `xiaohongshu/detail-page-${N1}.har`)] });
    expect(plan.slots.map((s) => [s.kind, s.group, pickBest(s).source_quality])).toEqual([
      ['image', undefined, 'original'],
      ['image', 'live_2', 'original'],
      ['video', 'live_2', expect.stringMatching(/^h26[45]_\d+p/)],
    ]);
    expect(plan.slots.map((s) => pickBest(s).url)).toEqual(plan.draft.media!.map((m) => m.url));
  });
});
