import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/crawl/errors.js';
import { authorUrl, handleFrom, parseChannelRef, parseVideoRef } from '../../src/platforms/youtube/refs.js';

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');
const idOf = (n: number) => fc.array(fc.constantFrom(...ID_CHARS), { minLength: n, maxLength: n }).map((a) => a.join(''));

describe('youtube video references', () => {
  it.each([
    ['tjz2u2DiveM', 'tjz2u2DiveM'],
    ['https://www.youtube.com/watch?v=tjz2u2DiveM', 'tjz2u2DiveM'],
    ['https://www.youtube.com/watch?v=xaQJbozY_Is&t=42s&list=PL123', 'xaQJbozY_Is'],
    ['www.youtube.com/watch?feature=share&v=xaQJbozY_Is', 'xaQJbozY_Is'],
    ['youtube.com/watch?v=-_DaUyAB_DE', '-_DaUyAB_DE'],
    ['http://m.youtube.com/watch?v=tjz2u2DiveM', 'tjz2u2DiveM'],
    ['https://music.youtube.com/watch?v=tjz2u2DiveM&si=abc', 'tjz2u2DiveM'],
    ['https://www.youtube.com/shorts/tjz2u2DiveM', 'tjz2u2DiveM'],
    ['https://youtube.com/shorts/tjz2u2DiveM?feature=share', 'tjz2u2DiveM'],
    ['https://www.youtube.com/live/8VajtrESJzA?si=x', '8VajtrESJzA'],
    ['https://www.youtube.com/embed/8VajtrESJzA', '8VajtrESJzA'],
    ['https://www.youtube-nocookie.com/embed/8VajtrESJzA', '8VajtrESJzA'],
    ['https://youtu.be/tjz2u2DiveM', 'tjz2u2DiveM'],
    ['youtu.be/tjz2u2DiveM?t=3', 'tjz2u2DiveM'],
    ['  https://youtu.be/xaQJbozY_Is  ', 'xaQJbozY_Is'],
  ])('%s → %s', (input, id) => {
    expect(parseVideoRef(input)).toBe(id);
  });

  it.each(['', 'tjz2u2Dive', 'tjz2u2DiveMM', 'https://www.youtube.com/@creativecommons', 'https://vimeo.com/12345', 'https://www.youtube.com/watch?v=short', 'not a url'])(
    'rejects %j as invalid input',
    (input) => {
      expect(() => parseVideoRef(input)).toThrow(InvalidInput);
    },
  );

  it('every 11-character id survives every URL form', () => {
    fc.assert(
      fc.property(idOf(11), (id) => {
        for (const form of [id, `https://www.youtube.com/watch?v=${id}`, `https://www.youtube.com/shorts/${id}`, `https://youtu.be/${id}`, `youtube.com/embed/${id}`]) {
          expect(parseVideoRef(form)).toBe(id);
        }
      }),
    );
  });
});

describe('youtube channel references', () => {
  it.each([
    ['UCTwECeGqMZee77BjdoYtI2Q', { channelId: 'UCTwECeGqMZee77BjdoYtI2Q' }],
    ['https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q', { channelId: 'UCTwECeGqMZee77BjdoYtI2Q' }],
    ['youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q/videos', { channelId: 'UCTwECeGqMZee77BjdoYtI2Q' }],
    ['@creativecommons', { resolveUrl: 'https://www.youtube.com/@creativecommons' }],
    ['creativecommons', { resolveUrl: 'https://www.youtube.com/@creativecommons' }],
    ['https://www.youtube.com/@creativecommons', { resolveUrl: 'https://www.youtube.com/@creativecommons' }],
    ['https://m.youtube.com/@creativecommons/videos?view=0', { resolveUrl: 'https://www.youtube.com/@creativecommons' }],
    ['https://www.youtube.com/user/creativecommons', { resolveUrl: 'https://www.youtube.com/user/creativecommons' }],
    ['www.youtube.com/user/creativecommons/videos', { resolveUrl: 'https://www.youtube.com/user/creativecommons' }],
    ['https://www.youtube.com/c/creativecommons', { resolveUrl: 'https://www.youtube.com/c/creativecommons' }],
    ['https://www.youtube.com/creativecommons', { resolveUrl: 'https://www.youtube.com/creativecommons' }],
    ['@ジョニー', { resolveUrl: 'https://www.youtube.com/@ジョニー' }],
    ['https://www.youtube.com/@%E3%82%B8%E3%83%A7%E3%83%8B%E3%83%BC', { resolveUrl: 'https://www.youtube.com/@ジョニー' }],
  ])('%s', (input, ref) => {
    expect(parseChannelRef(input)).toEqual(ref);
  });

  it.each(['', '   ', 'https://www.youtube.com/watch?v=tjz2u2DiveM', 'https://www.youtube.com/results?search_query=x', 'https://twitter.com/creativecommons', 'two words', '@'])(
    'rejects %j as invalid input',
    (input) => {
      expect(() => parseChannelRef(input)).toThrow(InvalidInput);
    },
  );

  it('every UC… id survives the bare and /channel/ forms', () => {
    fc.assert(
      fc.property(idOf(22), (tail) => {
        const id = `UC${tail}`;
        expect(parseChannelRef(id)).toEqual({ channelId: id });
        expect(parseChannelRef(`https://www.youtube.com/channel/${id}`)).toEqual({ channelId: id });
      }),
    );
  });
});

describe('youtube handles and author URLs', () => {
  it('reads a handle from canonicalBaseUrl, ownerProfileUrl or plain text', () => {
    expect(handleFrom('/@BlindTest-Chill')).toBe('@BlindTest-Chill');
    expect(handleFrom('http://www.youtube.com/@jonytube131')).toBe('@jonytube131');
    expect(handleFrom('@kurzgesagt')).toBe('@kurzgesagt');
    expect(handleFrom('/channel/UCuEBTg6pcG7s3PpPGRtFKQA')).toBeUndefined();
    expect(handleFrom(undefined)).toBeUndefined();
  });

  it('prefers the stable channel URL, then the handle URL', () => {
    expect(authorUrl({ id: 'UCTwECeGqMZee77BjdoYtI2Q', handle: '@creativecommons' })).toBe('https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q');
    expect(authorUrl({ handle: '@creativecommons' })).toBe('https://www.youtube.com/@creativecommons');
    expect(authorUrl({ handle: 'creativecommons' })).toBe('https://www.youtube.com/@creativecommons');
    expect(authorUrl({ id: 'not-a-channel' })).toBeUndefined();
    expect(authorUrl({})).toBeUndefined();
  });
});
