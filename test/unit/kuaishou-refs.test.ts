import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrawlError } from '../../src/crawl/errors.js';
import { creatorFromUrl, mobilePhotoUrl, parseCreatorRef, parsePostRef, photoFromUrl, profileUrl, videoUrl } from '../../src/platforms/kuaishou/refs.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

const ID = '3xa7hvqbt9rg9my';
const EID = '3x27q2f82gnxn4e';
const webId = fc.stringMatching(/^3x[0-9a-z]{13}$/);
const shortCode = fc.stringMatching(/^[A-Za-z0-9_-]{3,20}$/);

describe('kuaishou post references', () => {
  it.each([
    [ID, { photoId: ID }],
    ['  3XA7HVQBT9RG9MY ', { photoId: ID }],
    [`https://www.kuaishou.com/short-video/${ID}`, { photoId: ID }],
    [`https://www.kuaishou.com/short-video/${ID}?authorId=${EID}&streamSource=search&area=searchxxnull&searchKey=python`, { photoId: ID }],
    [`www.kuaishou.com/short-video/${ID}`, { photoId: ID }],
    [`https://www.kuaishou.com/long-video/${ID}`, { photoId: ID }],
    [`https://video.kuaishou.com/short-video/${ID}?authorId=${EID}`, { photoId: ID }],
    [`https://live.kuaishou.com/u/${EID}/${ID}`, { photoId: ID }],
    [`https://v.m.chenzhongtech.com/fw/photo/${ID}?fid=0&cc=share_copylink&photoId=${ID}&userId=${EID}`, { photoId: ID }],
    [`v.m.chenzhongtech.com/fw/photo/${ID}`, { photoId: ID }],
    ['https://v.kuaishou.com/cv2KST', { short: 'https://v.kuaishou.com/cv2KST' }],
    ['v.kuaishou.com/onRLuG/', { short: 'https://v.kuaishou.com/onRLuG' }],
    ['https://www.kuaishou.com/f/X-7hmDemoTok3n', { short: 'https://www.kuaishou.com/f/X-7hmDemoTok3n' }],
    ['看看这个作品 https://v.kuaishou.com/imBpXt 复制此链接，打开快手', { short: 'https://v.kuaishou.com/imBpXt' }],
  ])('%s', (input, expected) => {
    expect(parsePostRef(input)).toEqual(expected);
  });

  it.each([
    ['', 'invalid_request'],
    ['3x27q2f82gnxn4', 'invalid_request'], // 14 characters
    ['4xa7hvqbt9rg9my', 'invalid_request'],
    ['https://www.douyin.com/video/7300000000000000000', 'invalid_request'],
    [`https://www.kuaishou.com/profile/${EID}`, 'invalid_request'],
    ['https://www.kuaishou.com/short-video/not-an-id', 'invalid_request'],
    ['https://evil.example/?u=https://www.kuaishou.com/short-video/3xa7hvqbt9rg9my', 'invalid_request'],
    ['https://v.kuaishou.com/', 'invalid_request'],
  ])('%s is refused', (input, expected) => {
    expect(code(() => parsePostRef(input))).toBe(expected);
  });

  it('every photo id round-trips through every URL form', () => {
    fc.assert(
      fc.property(webId, webId, (id, eid) => {
        for (const form of [id, id.toUpperCase(), videoUrl(id), `${videoUrl(id)}?authorId=${eid}`, mobilePhotoUrl(id), `https://live.kuaishou.com/u/${eid}/${id}`]) {
          expect(parsePostRef(form)).toEqual({ photoId: id });
        }
        expect(photoFromUrl(new URL(`https://v.m.chenzhongtech.com/fw/photo/x?photoId=${id}`))).toBe(id);
      }),
    );
  });

  it('every short code is kept as a link to follow, never read as an id', () => {
    fc.assert(
      fc.property(shortCode, (c) => {
        expect(parsePostRef(`https://v.kuaishou.com/${c}`)).toEqual({ short: `https://v.kuaishou.com/${c}` });
        expect(parsePostRef(`https://www.kuaishou.com/f/${c}`)).toEqual({ short: `https://www.kuaishou.com/f/${c}` });
      }),
    );
  });

  it('no arbitrary text is taken for a post, and nothing but InvalidInput is thrown', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        let ref: ReturnType<typeof parsePostRef> | undefined;
        try {
          ref = parsePostRef(s);
        } catch (e) {
          expect((e as CrawlError).code).toBe('invalid_request');
          return;
        }
        if ('photoId' in ref) expect(ref.photoId).toMatch(/^3x[0-9a-z]{13}$/);
        else expect(ref.short).toMatch(/^https:\/\/(v\.kuaishou\.com\/|www\.kuaishou\.com\/f\/)/);
      }),
    );
  });
});

describe('kuaishou creator references', () => {
  it.each([
    [EID, { userId: EID }],
    ['555258693', { userId: '555258693' }],
    [`https://www.kuaishou.com/profile/${EID}`, { userId: EID }],
    [`www.kuaishou.com/profile/${EID}?fid=0`, { userId: EID }],
    [`https://live.kuaishou.com/profile/${EID}`, { userId: EID }],
    [`https://v.m.chenzhongtech.com/fw/user/${EID}?fid=0`, { userId: EID }],
    ['https://v.kuaishou.com/pRfL8k', { short: 'https://v.kuaishou.com/pRfL8k' }],
    ['@QQ552310885', { name: 'QQ552310885' }],
    ['@快√手⇒518', { name: '快√手⇒518' }],
  ])('%s', (input, expected) => {
    expect(parseCreatorRef(input)).toEqual(expected);
  });

  it.each(['', 'somebody', '@', '@has space', 'https://www.kuaishou.com/short-video/3xa7hvqbt9rg9my', 'https://example.com/profile/3x27q2f82gnxn4e', '0123'])('%s is refused', (input) => {
    expect(code(() => parseCreatorRef(input))).toBe('invalid_request');
  });

  it('eids and numeric ids round-trip through the profile URL forms', () => {
    fc.assert(
      fc.property(fc.oneof(webId, fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map(String)), (id) => {
        expect(parseCreatorRef(id)).toEqual({ userId: id });
        expect(parseCreatorRef(profileUrl(id))).toEqual({ userId: id });
        expect(creatorFromUrl(new URL(`https://live.kuaishou.com/profile/${id}`))).toBe(id);
      }),
    );
  });
});
