import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CrawlContext } from '../../src/platforms/types.js';
import { tweetSlots } from '../../src/platforms/twitter/download.js';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const LOGIN = { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' };

describe('twitter download plans', () => {
  it('video post (real TweetDetail): every mp4 variant with bitrate and size, the m3u8 left out; best = 720x1280 at 2176 kbps', async () => {
    const { plan } = await resolveDownload({ source: 'twitter', params: { query: 'https://x.com/TheFigen_/status/1671508600538161153' }, replay: [resolve(FIXTURES, 'twitter/detail-tweet-with-video-1671508600538161153.har')], session: LOGIN });
    expect(plan.slots).toHaveLength(1);
    const v = plan.slots[0]!;
    expect(v.kind).toBe('video');
    expect(v.candidates.map((c) => [c.source_quality, c.w, c.h, c.bitrate])).toEqual([
      ['variant_632kbps', 320, 568, 632000],
      ['variant_950kbps', 480, 852, 950000],
      ['variant_2176kbps', 720, 1280, 2176000],
    ]);
    expect(v.candidates.some((c) => c.url.includes('.m3u8'))).toBe(false);
    const best = pickBest(v);
    expect(best.url).toBe('https://video.twimg.com/ext_tw_video/1668857866328100864/pu/vid/720x1280/ENfeGwtfyiYvpNy8.mp4?tag=12');
    expect(best).toMatchObject({ watermark: false, duration_s: 5.434, mime: 'video/mp4' });
  });

  it('picture post (hand-made embed answer, anonymous): name=orig first, name=large second; best = orig', async () => {
    const file = resolve(SANDBOX, 'twitter/detail-embed-fallback.har');
    const id = JSON.parse(readFileSync(file, 'utf8')).log.entries[2].request.url.match(/id=(\d+)/)[1];
    const { plan } = await resolveDownload({ source: 'twitter', params: { query: id }, replay: [file] });
    expect(plan.slots).toHaveLength(1);
    const s = plan.slots[0]!;
    expect(s.kind).toBe('image');
    expect(s.candidates.map((c) => [c.source_quality, c.url])).toEqual([
      ['original', 'https://pbs.twimg.com/media/HtIdEbOaRd5x?format=jpg&name=orig'],
      ['large', 'https://pbs.twimg.com/media/HtIdEbOaRd5x?format=jpg&name=large'],
    ]);
    expect(pickBest(s)).toMatchObject({ source_quality: 'original', watermark: false });
  });

  it('text post (real TweetDetail): no slots', async () => {
    const { plan } = await resolveDownload({ source: 'twitter', params: { query: '1649191520250245121' }, replay: [resolve(FIXTURES, 'twitter/detail-tweet-1649191520250245121.har')], session: LOGIN });
    expect(plan.slots).toEqual([]);
  });

  it('first tweet (real TweetResultByRestId, anonymous): no media, no slots', async () => {
    const { plan } = await resolveDownload({ source: 'twitter', params: { query: 'https://x.com/jack/status/20' }, replay: [resolve(FIXTURES, 'twitter/detail-tweet-result-by-rest-id-20.har')] });
    expect(plan.draft.native_id).toBe('20');
    expect(plan.slots).toEqual([]);
  });

  it('guest video (hand-made sandbox): the variants of the sandbox answer', async () => {
    const { plan } = await resolveDownload({ source: 'twitter', params: { query: 'https://t.co/hArb0rLnk' }, replay: [resolve(SANDBOX, 'twitter/resolve-tco.har'), resolve(SANDBOX, 'twitter/detail-guest-video.har')] });
    expect(plan.slots.map((s) => s.kind)).toContain('video');
    expect(pickBest(plan.slots.find((s) => s.kind === 'video')!).url).toMatch(/^https:\/\/video\.twimg\.com\/.+\.mp4/);
  });

  it('a video offered only as an HLS playlist is an upstream_error naming it, never an empty plan', () => {
    const warned: string[] = [];
    const ctx = { platform: 'twitter', warn: (m: string) => warned.push(m) } as unknown as CrawlContext;
    const tweet = { legacy: { extended_entities: { media: [{ type: 'video', media_url_https: 'https://pbs.twimg.com/amplify_video_thumb/1/img/x.jpg', video_info: { variants: [{ content_type: 'application/x-mpegURL', url: 'https://video.twimg.com/amplify_video/1/pl/x.m3u8' }] } }] } } };
    expect(() => tweetSlots(ctx, tweet)).toThrow(expect.objectContaining({ code: 'upstream_error', message: expect.stringContaining('only as a streaming playlist (X video 1)') }));
  });

  it('a variant with a relative URL is skipped (no TypeError); the absolute mp4 variant is kept', () => {
    const ctx = { platform: 'twitter', warn: () => undefined } as unknown as CrawlContext;
    const tweet = { legacy: { extended_entities: { media: [{ type: 'video', video_info: { variants: [
      { content_type: 'video/mp4', bitrate: 2176000, url: '/amplify_video/1/vid/1280x720/rel.mp4' },
      { content_type: 'video/mp4', bitrate: 832000, url: 'https://video.twimg.com/amplify_video/1/vid/640x360/abs.mp4' },
    ] } }] } } };
    const got = tweetSlots(ctx, tweet);
    expect(got).toHaveLength(1);
    expect(got[0]!.candidates.map((c) => [c.url, c.w, c.h])).toEqual([['https://video.twimg.com/amplify_video/1/vid/640x360/abs.mp4', 640, 360]]);
  });

  it('a variant without a content type whose URL names a playlist (any case) is the HLS variant, not an mp4', () => {
    const ctx = { platform: 'twitter', warn: () => undefined } as unknown as CrawlContext;
    const tweet = { legacy: { extended_entities: { media: [{ type: 'video', video_info: { variants: [{ url: 'https://video.twimg.com/amplify_video/1/pl/X.M3U8?tag=1' }] } }] } } };
    expect(() => tweetSlots(ctx, tweet)).toThrow(expect.objectContaining({ code: 'upstream_error', message: expect.stringContaining('only as a streaming playlist (X video 1)') }));
  });
});
