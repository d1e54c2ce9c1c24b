import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESERVED, parsePostRef, parseTagRef, parseUserRef, pkToShortcode, shortcodeToPk } from '../../src/platforms/instagram/refs.js';

const pk = fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }).map(String);
/** Media pks since 2012 have 17 digits or more (shortcodes of 10+ characters). */
const modernPk = fc.bigInt({ min: 10n ** 16n, max: (1n << 64n) - 1n }).map(String);
/** Usernames with a letter (an all-digit reference is read as a numeric id; @123 names the account). */
// Site paths (p, reel, explore, …) are not names anyone can register.
const handle = fc.stringMatching(/^[a-z0-9_]{0,6}[a-z][a-z0-9_]{0,6}(?:\.[a-z0-9_]{1,8})?$/).filter((h) => !RESERVED.has(h));

describe('instagram shortcode ↔ media pk', () => {
  it('recorded pairs convert both ways', () => {
    // detail-media-a1-CAnqPB-Jzcj.har, posts-clips-user-reels.har, the timeline fixture.
    for (const [code, id] of [
      ['CAnqPB-Jzcj', '2317006284167526179'],
      ['CPv3UqsBFvg', '2589531623544609760'],
      ['B7eUksNFA-K', '2224305748263047050'],
      ['DDFYfRtyV59', '3514322786674368125'],
    ]) {
      expect(shortcodeToPk(code)).toBe(id);
      expect(pkToShortcode(id)).toBe(code);
    }
  });
  it('every pk survives the round trip, from a full media id too', () => {
    fc.assert(
      fc.property(pk, fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String), (id, owner) => {
        const code = pkToShortcode(id);
        expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(shortcodeToPk(code)).toBe(id);
        expect(pkToShortcode(`${id}_${owner}`)).toBe(code);
      }),
    );
  });
  it('every shortcode survives the round trip (no leading A, which is a zero digit)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[B-Za-z0-9_-][A-Za-z0-9_-]{4,9}$/), (code) => {
        expect(pkToShortcode(shortcodeToPk(code)!)).toBe(code);
      }),
    );
  });
  it("a private post's long code (28 extra characters) decodes to the same pk", () => {
    fc.assert(
      fc.property(pk, fc.stringMatching(/^[A-Za-z0-9_-]{28}$/), (id, tail) => {
        const code = pkToShortcode(id);
        expect(shortcodeToPk(`${code}${tail}`)).toBe(id);
        expect(parsePostRef(`https://www.instagram.com/p/${code}${tail}/`)).toEqual({ pk: id, shortcode: code, private: true });
      }),
    );
  });
  it('refuses what is not a code: junk characters, too long, past 64 bits', () => {
    expect(shortcodeToPk('ab$cd')).toBeUndefined();
    expect(shortcodeToPk('')).toBeUndefined();
    expect(shortcodeToPk('A')).toBeUndefined();
    expect(shortcodeToPk('_____________')).toBeUndefined();
    expect(shortcodeToPk('__________________')).toBeUndefined();
  });
});

describe('instagram post references', () => {
  it('every link form gives back the pk and shortcode', () => {
    fc.assert(
      fc.property(modernPk, handle, (id, user) => {
        const shortcode = pkToShortcode(id);
        const want = { pk: id, shortcode };
        for (const form of [
          id,
          `${id}_52418700001`,
          shortcode,
          `https://www.instagram.com/p/${shortcode}/`,
          `https://www.instagram.com/p/${shortcode}/?utm_source=ig_web_copy_link&igsh=MzRlODBiNWFlZA==`,
          `https://instagram.com/reel/${shortcode}`,
          `https://www.instagram.com/reels/${shortcode}/`,
          `https://www.instagram.com/tv/${shortcode}/`,
          `https://www.instagram.com/${user}/p/${shortcode}/`,
          `https://www.instagram.com/${user}/reel/${shortcode}/`,
          `https://m.instagram.com/p/${shortcode}/c/18010000000000001/`,
          `https://instagr.am/p/${shortcode}/`,
          `instagram.com/p/${shortcode}`,
          `look at this https://www.instagram.com/p/${shortcode}/ !`,
        ]) {
          expect(parsePostRef(form)).toEqual(want);
        }
      }),
    );
  });
  it("the first posts' one- and two-character codes work in links, not as bare words", () => {
    expect(parsePostRef('https://instagr.am/p/B/')).toEqual({ pk: '1', shortcode: 'B' });
    expect(shortcodeToPk('B')).toBe('1');
    expect(() => parsePostRef('Bx')).toThrow(/not an instagram post/);
    expect(parseUserRef('@123')).toEqual({ username: '123' });
  });
  it('share links stay share links (followed with a no-redirect request later)', () => {
    expect(parsePostRef('https://www.instagram.com/share/reel/BAsbxHarbor1?igsh=x')).toEqual({ share: 'https://www.instagram.com/share/reel/BAsbxHarbor1/' });
    expect(parsePostRef('https://www.instagram.com/share/_j8VKKUfE')).toEqual({ share: 'https://www.instagram.com/share/_j8VKKUfE/' });
  });
  it('refuses other sites, profiles and junk with a message naming the forms', () => {
    expect(() => parsePostRef('https://www.tiktok.com/@a/video/7300000000000000001')).toThrow(/not an instagram post/);
    expect(() => parsePostRef('https://www.instagram.com/harborcook/')).toThrow(/instagram\.com\/p\//);
    expect(() => parsePostRef('https://instagram.com.evil.example/p/CAnqPB-Jzcj/')).toThrow(/not an instagram post/);
    expect(() => parsePostRef('')).toThrow(/required/);
    expect(() => parsePostRef('0')).toThrow();
  });
});

describe('instagram account and hashtag references', () => {
  it('every account form gives back the username (lowercase) or the numeric id', () => {
    fc.assert(
      fc.property(handle, (user) => {
        for (const form of [user, `@${user}`, `https://www.instagram.com/${user}/`, `https://instagram.com/${user}?hl=en`, `https://www.instagram.com/stories/${user}/3600000000000000101/`, `instagr.am/${user}`]) {
          expect(parseUserRef(form)).toEqual({ username: user });
        }
        expect(parseUserRef(`@${user.toUpperCase()}`)).toEqual({ username: user });
      }),
    );
    expect(parseUserRef('1518284433')).toEqual({ id: '1518284433' });
  });
  it('site pages are not accounts', () => {
    for (const form of ['https://www.instagram.com/explore/', 'https://www.instagram.com/p/CAnqPB-Jzcj/', 'https://www.instagram.com/accounts/login/', 'https://www.instagram.com/reels/']) {
      expect(() => parseUserRef(form)).toThrow(/not an instagram account/);
    }
    expect(() => parseUserRef('two words')).toThrow(/not an instagram account/);
    expect(() => parseUserRef('.dot')).toThrow();
  });
  it('hashtags: #tag, a word, an explore link; lowercase', () => {
    expect(parseTagRef('#Paris')).toBe('paris');
    expect(parseTagRef('harborfood')).toBe('harborfood');
    expect(parseTagRef('https://www.instagram.com/explore/tags/caf%C3%A9/')).toBe('café');
    expect(parseTagRef('#東京')).toBe('東京');
    expect(() => parseTagRef('two words')).toThrow(/not a hashtag/);
    expect(() => parseTagRef('https://www.instagram.com/harborcook/')).toThrow(/not a hashtag/);
  });
});
