import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSnowflake, isTweetId, parseTimelineRef, parseTweetRef, parseUserRef, profileUrl, snowflakeAt, snowflakeTimeMs, TWITTER_EPOCH_MS, tweetIdFromUrl, tweetUrl } from '../../src/platforms/twitter/refs.js';
import { syndicationToken } from '../../src/platforms/twitter/detail.js';
import { timelineIdOf } from '../../src/platforms/twitter/trending.js';

describe('twitter tweet references', () => {
  it.each([
    ['1649191520250245121', '1649191520250245121'],
    ['20', '20'],
    ['https://x.com/XDevelopers/status/1649191520250245121', '1649191520250245121'],
    ['https://twitter.com/XDevelopers/status/1649191520250245121?s=20&t=abc', '1649191520250245121'],
    ['https://mobile.twitter.com/TheFigen_/status/1671508600538161153/video/1', '1671508600538161153'],
    ['https://www.x.com/jack/status/20/photo/1', '20'],
    ['http://x.com/i/web/status/1649191520250245121', '1649191520250245121'],
    ['https://twitter.com/i/status/1649191520250245121', '1649191520250245121'],
    ['https://twitter.com/jack/statuses/20', '20'],
    ['https://fxtwitter.com/jack/status/20', '20'],
    ['https://d.fxtwitter.com/jack/status/20.mp4', '20'],
    ['https://vxtwitter.com/jack/status/20', '20'],
    ['https://fixupx.com/jack/status/20#m', '20'],
    ['x.com/jack/status/20', '20'],
    ['look at this https://x.com/jack/status/20 wow', '20'],
  ])('%s → %s', (q, id) => {
    expect(parseTweetRef(q)).toEqual({ id });
  });

  it('a t.co link is a short link to resolve', () => {
    expect(parseTweetRef('https://t.co/hArb0rLnk')).toEqual({ short: 'https://t.co/hArb0rLnk' });
    expect(parseTweetRef('t.co/abc123/')).toEqual({ short: 'https://t.co/abc123' });
  });

  it.each(['', 'abc', 'https://x.com/jack', 'https://x.com/jack/status/abc', 'https://example.com/jack/status/20', 'https://www.youtube.com/watch?v=20', '99999999999999999999999'])('%j is refused', (q) => {
    expect(() => parseTweetRef(q)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('tweet links round-trip for any id and handle, on every host', () => {
    const hosts = ['x.com', 'twitter.com', 'mobile.twitter.com', 'www.twitter.com', 'fxtwitter.com', 'vxtwitter.com', 'fixupx.com', 'fixvx.com'];
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: (1n << 63n) - 1n }), fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/), fc.constantFrom(...hosts), fc.constantFrom('', '/photo/1', '/video/1', '?s=20', '#reply'), (n, handle, host, tail) => {
        const id = n.toString();
        expect(parseTweetRef(`https://${host}/${handle}/status/${id}${tail}`)).toEqual({ id });
        expect(tweetIdFromUrl(new URL(tweetUrl(id, handle)))).toBe(id);
        expect(tweetIdFromUrl(new URL(`https://x.com/i/web/status/${id}`))).toBe(id);
      }),
    );
  });
});

describe('twitter account references', () => {
  it.each([
    ['@XDevelopers', { handle: 'XDevelopers' }],
    ['xdevelopers', { handle: 'xdevelopers' }],
    ['783214', { handle: '783214' }],
    ['1580000000000000001', { id: '1580000000000000001' }],
    ['id:783214', { id: '783214' }],
    ['user_id:12', { id: '12' }],
    ['https://x.com/jack', { handle: 'jack' }],
    ['https://twitter.com/jack/with_replies?lang=en', { handle: 'jack' }],
    ['https://mobile.twitter.com/jack/media', { handle: 'jack' }],
    ['https://x.com/i/user/783214', { id: '783214' }],
    ['https://twitter.com/intent/user?user_id=12', { id: '12' }],
    ['https://twitter.com/intent/follow?screen_name=jack', { handle: 'jack' }],
  ])('%s', (q, ref) => {
    expect(parseUserRef(q)).toEqual(ref);
  });

  it('a community is a timeline for posts only', () => {
    expect(parseTimelineRef('https://x.com/i/communities/1501272736215322629', true)).toEqual({ community: '1501272736215322629' });
    expect(() => parseTimelineRef('https://x.com/i/communities/1501272736215322629', false)).toThrow(/not an X account reference/);
  });

  it.each(['', '@', 'https://x.com/home', 'https://x.com/search?q=x', 'https://x.com/explore', 'https://x.com/i/flow/login', 'not a handle!', 'https://example.com/jack', 'a'.repeat(21)])('%j is refused', (q) => {
    expect(() => parseUserRef(q)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('profile links round-trip for any handle', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/).filter((h) => !['i', 'home', 'search', 'explore', 'settings', 'messages', 'notifications', 'hashtag', 'intent', 'share', 'tos', 'privacy', 'login', 'logout', 'signup', 'compose', 'account', 'download', 'jobs', 'about', 'help', 'communities', 'lists', 'bookmarks', 'status', 'statuses'].includes(h.toLowerCase())), (handle) => {
        expect(parseUserRef(profileUrl(handle))).toEqual({ handle });
        expect(parseUserRef(`@${handle}`)).toEqual({ handle });
      }),
    );
  });
});

describe('tweet ids and time (snowflake)', () => {
  it('the recorded posts: id → their created_at', () => {
    expect(Math.floor(snowflakeTimeMs('1649191520250245121')! / 1000)).toBe(1682032873);
    expect(Math.floor(snowflakeTimeMs('1671508600538161153')! / 1000)).toBe(1687353680);
    expect(new Date(snowflakeTimeMs('2074976613713031490')!).toISOString().slice(0, 19)).toBe('2026-07-08T21:59:10');
  });

  it('pre-snowflake ids have no time in them', () => {
    expect(isSnowflake('20')).toBe(false);
    expect(snowflakeTimeMs('20')).toBeUndefined();
    expect(snowflakeTimeMs('29700859247')).toBeUndefined();
    expect(isTweetId('0')).toBe(false);
    expect(isTweetId('18446744073709551616')).toBe(false);
  });

  it('ms → smallest id → ms, and every id of that ms maps back to it', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number(TWITTER_EPOCH_MS) + 60_000, max: Number(TWITTER_EPOCH_MS) + 2 ** 41 - 1 }), fc.integer({ min: 0, max: (1 << 22) - 1 }), (ms, low) => {
        const base = BigInt(snowflakeAt(ms));
        const id = (base | BigInt(low)).toString();
        expect(snowflakeTimeMs(id)).toBe(ms);
        expect(BigInt(snowflakeAt(snowflakeTimeMs(id)!))).toBe(base);
      }),
    );
  });

  it('later ids are later in time', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n << 40n, max: (1n << 63n) - 1n }), fc.bigInt({ min: 1n << 22n, max: 1n << 50n }), (a, d) => {
        const b = a + d;
        if (b >= 1n << 63n) return;
        expect(snowflakeTimeMs(b.toString())!).toBeGreaterThanOrEqual(snowflakeTimeMs(a.toString())!);
      }),
    );
  });

  it('before the epoch there is no id', () => {
    expect(() => snowflakeAt(0)).toThrow(RangeError);
  });
});

describe('derived tokens', () => {
  it('the embed token: ((id / 1e15) · π) in base 36 without zeros and point (same as yt-dlp js_number_to_string)', () => {
    expect(syndicationToken('20')).toBe('6dq1a2xwd93');
    expect(syndicationToken('1649191520250245121')).toBe('3zx362dq7v');
    expect(syndicationToken('2045936718443446274')).toBe('4yjhzp8g4o');
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: (1n << 63n) - 1n }), (n) => {
        expect(syndicationToken(n.toString())).toMatch(/^[1-9a-z]+$/);
      }),
    );
  });

  it('Explore tab timeline ids match the ones twscrape hard-codes', () => {
    expect(timelineIdOf('trending')).toBe('VGltZWxpbmU6DAC2CwABAAAACHRyZW5kaW5nAAA');
    expect(timelineIdOf('news')).toBe('VGltZWxpbmU6DAC2CwABAAAABG5ld3MAAA');
    expect(timelineIdOf('sports')).toBe('VGltZWxpbmU6DAC2CwABAAAABnNwb3J0cwAA');
    expect(timelineIdOf('entertainment')).toBe('VGltZWxpbmU6DAC2CwABAAAADWVudGVydGFpbm1lbnQAAA');
  });
});
