import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrawlError } from '../../src/crawl/errors.js';
import { creatorFromUrl, parseCreatorRef, parsePostRef, postUrl, profileUrl, shortLinkOf, videoFromUrl } from '../../src/platforms/tiktok/refs.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

const ID = '7603296357641735445';

describe('tiktok post references', () => {
  it.each([
    [ID, { id: ID }],
    [`  ${ID}  `, { id: ID }],
    [`https://www.tiktok.com/@dua_zahra014/video/${ID}`, { id: ID, handle: 'dua_zahra014' }],
    [`https://www.tiktok.com/@dua_zahra014/video/${ID}?is_from_webapp=1&sender_device=pc`, { id: ID, handle: 'dua_zahra014' }],
    [`www.tiktok.com/@dua_zahra014/video/${ID}/`, { id: ID, handle: 'dua_zahra014' }],
    [`tiktok.com/@some.one-2/video/${ID}`, { id: ID, handle: 'some.one-2' }],
    [`https://m.tiktok.com/@dua_zahra014/video/${ID}`, { id: ID, handle: 'dua_zahra014' }],
    [`https://www.tiktok.com/@harborcook/photo/${ID}`, { id: ID, handle: 'harborcook', photo: true }],
    [`https://www.tiktok.com/@_/video/${ID}`, { id: ID }],
    [`https://www.tiktok.com/@/video/${ID}`, { id: ID }],
    [`https://m.tiktok.com/v/${ID}.html?u_code=0`, { id: ID }],
    [`https://www.tiktok.com/embed/v2/${ID}`, { id: ID }],
    [`https://www.tiktok.com/embed/${ID}`, { id: ID }],
    [`https://www.tiktokv.com/share/video/${ID}/`, { id: ID }],
    [`https://t.tiktok.com/i18n/share/video/${ID}/?region=KR`, { id: ID }],
    ['https://www.tiktok.com/@gordonramsayofficial/video/6832324357851778309', { id: '6832324357851778309', handle: 'gordonramsayofficial' }],
  ])('%s', (input, expected) => {
    expect(parsePostRef(input)).toEqual(expected);
  });

  it('share links are kept for resolution, canonicalised (vm., vt., www.tiktok.com/t/)', () => {
    expect(parsePostRef('https://vm.tiktok.com/ZMhvqjqjq/')).toEqual({ short: 'https://vm.tiktok.com/ZMhvqjqjq/' });
    expect(parsePostRef('vm.tiktok.com/ZMhvqjqjq')).toEqual({ short: 'https://vm.tiktok.com/ZMhvqjqjq/' });
    expect(parsePostRef('https://vt.tiktok.com/ZSe4FqkKd?share=1')).toEqual({ short: 'https://vt.tiktok.com/ZSe4FqkKd/' });
    expect(parsePostRef('https://www.tiktok.com/t/ZTRC5xgJp/')).toEqual({ short: 'https://www.tiktok.com/t/ZTRC5xgJp/' });
    expect(shortLinkOf(new URL('https://www.tiktok.com/@x/video/1'))).toBeUndefined();
  });

  it.each([[''], ['hello world'], ['12345'], ['https://www.youtube.com/watch?v=x'], ['https://www.tiktok.com/@someone'], ['https://www.tiktok.com/foryou'], ['https://evil.example/tiktok.com/@a/video/7603296357641735445']])(
    'refuses %j as invalid_request',
    (input) => {
      expect(code(() => parsePostRef(input))).toBe('invalid_request');
    },
  );

  it('property: the canonical URL of any id (and handle, video or photo) parses back to it', () => {
    const handle = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.]{0,22}[A-Za-z0-9_]$/);
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{17,18}$/), fc.option(handle, { nil: undefined }), fc.boolean(), (id, h, photo) => {
        const ref = parsePostRef(postUrl(id, h, photo));
        expect(ref).toEqual({ id, ...(h ? { handle: h } : {}), ...(photo ? { photo: true } : {}) });
        expect(parsePostRef(id)).toEqual({ id });
      }),
    );
  });

  it('property: no input makes the parser throw anything but a typed invalid_request', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.constantFrom('https://www.tiktok.com/', 'https://vm.tiktok.com/', 'tiktok.com/@a/video/x')), (s) => {
        const c = code(() => parsePostRef(s));
        expect(['no error', 'invalid_request']).toContain(c);
      }),
    );
  });
});

describe('tiktok creator references', () => {
  const SEC = 'MS4wLjABAAAAv7iSuuXDJGDvJkmH_vz1qkDZYo1apxgzaxdBSeIuPiM';
  it.each([
    ['@tiktok', { handle: 'tiktok' }],
    ['tiktok', { handle: 'tiktok' }],
    ['@zainjutt.31', { handle: 'zainjutt.31' }],
    ['https://www.tiktok.com/@tiktok', { handle: 'tiktok' }],
    ['https://www.tiktok.com/@tiktok?lang=en', { handle: 'tiktok' }],
    ['www.tiktok.com/@dua_zahra014/video/7603296357641735445', { handle: 'dua_zahra014' }],
    [SEC, { secUid: SEC }],
    [`@${SEC}`, { secUid: SEC }],
    [`https://www.tiktok.com/@${SEC}`, { secUid: SEC }],
    ['6889508286968038405', { uid: '6889508286968038405' }],
    ['uid:107955', { uid: '107955' }],
    ['https://vt.tiktok.com/ZSabc123/', { short: 'https://vt.tiktok.com/ZSabc123/' }],
  ])('%s', (input, expected) => {
    expect(parseCreatorRef(input)).toEqual(expected);
  });

  it.each([[''], ['two words'], ['@'], ['https://www.tiktok.com/foryou'], ['https://x.com/@tiktok'], ['a'.repeat(40)]])('refuses %j', (input) => {
    expect(code(() => parseCreatorRef(input))).toBe('invalid_request');
  });

  it('property: a profile URL of any handle or secUid parses back to it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.]{0,22}[A-Za-z0-9_]$/), (h) => {
        expect(parseCreatorRef(profileUrl(h))).toEqual({ handle: h });
        expect(parseCreatorRef(`@${h}`)).toEqual({ handle: h });
        expect(creatorFromUrl(new URL(postUrl('7603296357641735445', h)))).toEqual({ handle: h });
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{20,80}$/), (tail) => {
        const sec = `MS4wLjABAAAA${tail}`;
        expect(parseCreatorRef(profileUrl(sec))).toEqual({ secUid: sec });
        expect(parseCreatorRef(sec)).toEqual({ secUid: sec });
      }),
    );
  });

  it('a post URL without a handle names no creator; a video URL is not a creator short link', () => {
    expect(creatorFromUrl(new URL(postUrl('7603296357641735445')))).toBeUndefined();
    expect(videoFromUrl(new URL('https://www.tiktok.com/@tiktok'))).toBeUndefined();
  });
});
