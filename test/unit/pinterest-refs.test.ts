import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boardUrl, parseOwnerRef, parsePinRef, pinUrl, refFromUrl, userUrl } from '../../src/platforms/pinterest/refs.js';

const pinId = fc.bigInt({ min: 1n, max: 10n ** 19n - 1n }).map(String);
const username = fc.stringMatching(/^[A-Za-z0-9_]{3,30}$/).filter((u) => !['pin', 'amp', 'search', 'ideas', 'today', 'explore', 'business', 'settings', 'login', 'resource', 'board', 'videos', 'about'].includes(u.toLowerCase()));
/** Board slugs: lowercase words with dashes, or unicode names (percent-encoded in links). */
const slug = fc.oneof(fc.stringMatching(/^[a-z0-9]{1,12}(?:-[a-z0-9]{1,12}){0,3}$/), fc.constantFrom('fursuit-灰调', 'café-ideen', 'ночь')).filter((s) => s !== 'pins' && s !== 'boards');
const domain = fc.constantFrom('www.pinterest.com', 'pinterest.com', 'br.pinterest.com', 'in.pinterest.com', 'www.pinterest.co.uk', 'www.pinterest.fr', 'www.pinterest.de', 'pinterest.com.au', 'www.pinterest.jp', 'www.pinterest.ca', 'www.pinterest.com.mx', 'nl.pinterest.com');
const slugText = fc.stringMatching(/^[a-z0-9]{1,10}(?:-[a-z0-9]{1,10}){0,4}$/);

describe('pinterest pin references', () => {
  it('every pin link form on every domain gives back the pin id', () => {
    fc.assert(
      fc.property(pinId, domain, slugText, (id, host, title) => {
        for (const form of [
          id,
          pinUrl(id),
          `https://${host}/pin/${id}/`,
          `https://${host}/pin/${id}`,
          `${host}/pin/${id}/?mt=login`,
          `https://${host}/pin/${title}--${id}/`,
          `https://${host}/amp/pin/${id}/`,
          `https://${host}/pin/${id}/sent/?invite_code=abc&sender=1&sfo=1`,
          `Saw this on Pinterest https://${host}/pin/${id}/ and loved it`,
        ]) {
          expect(parsePinRef(form)).toEqual({ id });
        }
      }),
    );
  });
  it('pin.it and url_shortener links stay short links (followed later), from prose too', () => {
    expect(parsePinRef('https://pin.it/4xYzSbx')).toEqual({ short: '4xYzSbx' });
    expect(parsePinRef('pin.it/4xYzSbx')).toEqual({ short: '4xYzSbx' });
    expect(parsePinRef('look https://pin.it/4xYzSbx wow')).toEqual({ short: '4xYzSbx' });
    expect(parsePinRef('https://api.pinterest.com/url_shortener/4xYzSbx/redirect/')).toEqual({ short: '4xYzSbx' });
    expect(parseOwnerRef('https://pin.it/9bRdSbx')).toEqual({ kind: 'short', code: '9bRdSbx' });
  });
  it('refuses other sites, users, boards, searches and junk with a message naming the forms', () => {
    expect(() => parsePinRef('https://www.instagram.com/p/981234567890120001/')).toThrow(/not a pinterest pin/);
    expect(() => parsePinRef('https://www.pinterest.com/harborlight/')).toThrow(/is a pinterest user, not a pin/);
    expect(() => parsePinRef('https://www.pinterest.com/search/pins/?q=x')).toThrow(/pin\.it share link/);
    expect(() => parsePinRef('0123')).toThrow(/not a pinterest pin/);
    expect(() => parsePinRef('')).toThrow(/required/);
    expect(refFromUrl(new URL('https://www.pinterest.evil.example/pin/1/'))).toBeUndefined();
    expect(refFromUrl(new URL('https://pinterest.com.evil.example/pin/1/'))).toBeUndefined();
    expect(refFromUrl(new URL('https://www.pinterest.com/pin/not-a-number/'))).toBeUndefined();
  });
});

describe('pinterest user and board references', () => {
  it('users round-trip through every form and domain; tabs pick the feed', () => {
    fc.assert(
      fc.property(username, domain, (user, host) => {
        for (const form of [user, `@${user}`, userUrl(user), `https://${host}/${user}/`, `${host}/${user}`, `https://${host}/${user}/_saved/`, `https://${host}/${user}/boards/`]) {
          expect(parseOwnerRef(form)).toEqual({ kind: 'user', user });
        }
        expect(parseOwnerRef(`https://${host}/${user}/_created/`)).toEqual({ kind: 'user', user, feed: 'created' });
        expect(parseOwnerRef(`${user}/_created`)).toEqual({ kind: 'user', user, feed: 'created' });
        expect(parseOwnerRef(`https://${host}/${user}/pins/`)).toEqual({ kind: 'user', user, feed: 'pins' });
      }),
    );
  });
  it('boards round-trip (unicode slugs percent-encoded in links, plain in user/board)', () => {
    fc.assert(
      fc.property(username, slug, domain, (user, board, host) => {
        const link = boardUrl(user, board);
        expect(refFromUrl(new URL(link))).toEqual({ kind: 'board', user, board });
        for (const form of [link, `https://${host}/${user}/${encodeURIComponent(board)}/`, `${user}/${board}`, `${user}/${encodeURIComponent(board)}/`, `@${user}/${board}`]) {
          expect(parseOwnerRef(form)).toEqual({ kind: 'board', user, board });
        }
      }),
    );
  });
  it('reserved pages, sections, pins and junk are no user or board', () => {
    expect(refFromUrl(new URL('https://www.pinterest.com/ideas/'))).toBeUndefined();
    expect(refFromUrl(new URL('https://www.pinterest.com/search/pins/?q=x'))).toBeUndefined();
    expect(refFromUrl(new URL('https://www.pinterest.com/harborlight/board/section/'))).toBeUndefined();
    expect(refFromUrl(new URL('https://www.pinterest.com/harborlight/_tried/'))).toBeUndefined();
    expect(() => parseOwnerRef('https://www.pinterest.com/pin/981234567890120001/')).toThrow(/is a pin, not a user or board/);
    expect(() => parseOwnerRef('two words')).toThrow(/not a pinterest user or board/);
    expect(() => parseOwnerRef('https://twitter.com/harborlight')).toThrow(/not a pinterest user or board/);
    expect(() => parseOwnerRef('  ')).toThrow(/required/);
  });
  it('a board named like an Object.prototype property is a board (fast-check found "constructor")', () => {
    for (const board of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(parseOwnerRef(`https://www.pinterest.com/harborlight/${board}/`)).toEqual({ kind: 'board', user: 'harborlight', board });
    }
  });
});
