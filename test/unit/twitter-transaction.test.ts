import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { animationKey, bezierAt, chunkIndices, deriveKeys, hexOf, pageFrameRows, pageKeyBytes, pageScripts, signingChunkIn, signingChunkUrl, TransactionPageError, transactionId } from '../../src/platforms/twitter/transaction.js';

/*
 * The vector: sandbox/twitter/home-page.har (hand-made: an x.com/home page and its ondemand.s chunk, in
 * the shapes the published tools read) run through the reference implementation, twscrape's xclid.py
 * @9745b021d8 (its Cubic, cacl_anim_key and XClIdGen.calc, executed with Python 3 outside this project),
 * at a fixed time and random byte. Our port is independent code; equal outputs say both read the
 * algorithm the same way.
 */
const har = JSON.parse(readFileSync(resolve(process.cwd(), 'sandbox/twitter/home-page.har'), 'utf8'));
const HTML: string = har.log.entries[0].response.content.text;
const CHUNK: string = har.log.entries[1].response.content.text;
const ANIMATION_KEY = 'a790710d99999999999980851eb851eb8520851eb851eb8520d999999999999800';

describe('x-client-transaction-id', () => {
  it('derives the animation key of the reference implementation', () => {
    const keys = deriveKeys(HTML, CHUNK);
    expect(keys.keyBytes).toHaveLength(48);
    expect(keys.animationKey).toBe(ANIMATION_KEY);
  });

  it('computes the reference ids for a GET and a POST at fixed times and random bytes', () => {
    const keys = deriveKeys(HTML, CHUNK);
    expect(transactionId(keys, 'GET', '/i/api/graphql/BGd0T_j7oVwlW5U79tO_0A/SearchTimeline', 1776675600000, 0x5a)).toBe('WmezxrdWgQZXS6Gj0inWwJ2dMSOABiFN5Y8Bd6FFLi5BR8WfT8G3Hs0ACtnsFXKF+vrdzF+dWOsBhDdZammh3TPi9NUDWQ');
    expect(transactionId(keys, 'post', '/1.1/guest/activate.json', 1776675601234, 0)).toBe('AD3pnO0M21wNEfv5iHOMmsfHa3naXHsXv9VbLfsfdHQbHZ/FFZvtRJdaUIO2TyjfoKGHlgWFABgeCimZvO4e/kcTwB9jAw');
  });

  it('the bytes: the random byte, then key, seconds since 2023-05-01T07:00Z (little-endian), 16 hash bytes, 3, each XORed with it', () => {
    const keys = deriveKeys(HTML, CHUNK);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1682924400000, max: 2_500_000_000_000 }), (r, now) => {
        const raw = Buffer.from(transactionId(keys, 'GET', '/x', now, r), 'base64');
        expect(raw[0]).toBe(r);
        const plain = [...raw.subarray(1)].map((b) => b ^ r);
        expect(plain.slice(0, 48)).toEqual(keys.keyBytes);
        const s = Math.floor((now - 1682924400000) / 1000);
        expect(plain[48]! | (plain[49]! << 8) | (plain[50]! << 16) | (plain[51]! * 2 ** 24)).toBe(s);
        expect(plain.at(-1)).toBe(3);
        expect(plain).toHaveLength(48 + 4 + 16 + 1);
      }),
      { numRuns: 50 },
    );
  });

  it('reads the page: key bytes, the frame picked by key[5], 16 rows of 11 numbers; the chunk: indices', () => {
    const key = pageKeyBytes(HTML);
    const rows = pageFrameRows(HTML, key);
    expect(rows).toHaveLength(16);
    expect(rows.every((r) => r.length === 11)).toBe(true);
    expect(chunkIndices(CHUNK)).toEqual([12, 23, 2, 5]);
  });

  it('names what is missing from a page', () => {
    expect(() => pageKeyBytes('<html></html>')).toThrow(TransactionPageError);
    expect(() => pageFrameRows('<meta name="twitter-site-verification" content="AAAAAAAAAAAA">', [0, 0, 0, 0, 0, 0])).toThrow(/no loading-x-anim frames/);
    expect(() => chunkIndices('nothing here')).toThrow(/no key-byte indices/);
    expect(() => animationKey([1, 2, 3], 0.5)).toThrow(/11 expected/);
  });

  it('hex with a fraction as the page writes it (the reference float_to_hex, lower-cased)', () => {
    expect(hexOf(0)).toBe('');
    expect(hexOf(1)).toBe('1');
    expect(hexOf(0.5)).toBe('.8');
    expect(hexOf(0.25)).toBe('.4');
    expect(hexOf(0.1)).toBe('.1999999999999a');
    expect(hexOf(0.87)).toBe('.deb851eb851eb8');
  });

  it('the cubic timing function: 0 → 0, 1 → 1, extrapolates outside, stays within bounds of a monotone curve', () => {
    const ease = [0.25, 0.1, 0.25, 1];
    expect(bezierAt(ease, 0)).toBe(0);
    expect(bezierAt(ease, 1)).toBe(1);
    expect(bezierAt([0, 0, 1, 1], 0.3)).toBeCloseTo(0.3, 3);
    expect(bezierAt(ease, -0.5)).toBeCloseTo(-0.2, 6);
    fc.assert(fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), (t) => {
      const y = bezierAt(ease, t);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(1.0001);
    }));
  });

  it('finds the signing chunk: the legacy chunk maps, a direct link, a relative import in a bundle', () => {
    expect(signingChunkUrl(HTML)).toBe('https://abs.twimg.com/responsive-web/client-web/ondemand.s.4f1d2a9a.js');
    expect(signingChunkUrl('<link href="https://abs.twimg.com/x-web/prod/sign.o-3b9c1f.js">')).toBe('https://abs.twimg.com/x-web/prod/sign.o-3b9c1f.js');
    expect(signingChunkUrl('<html>no chunk</html>')).toBeUndefined();
    expect(signingChunkIn('import("./sign.o-77aa.js").then(m=>m)', 'https://abs.twimg.com/x-web/prod/entry-client-9f.js')).toBe('https://abs.twimg.com/x-web/prod/sign.o-77aa.js');
    expect(signingChunkIn('const design="design.o-1.js"', 'https://abs.twimg.com/x-web/a.js')).toBeUndefined();
    expect(pageScripts('<script src="https://abs.twimg.com/x-web/prod/a.js"></script><script src="https://abs.twimg.com/x-web/prod/a.js"></script>')).toEqual(['https://abs.twimg.com/x-web/prod/a.js']);
  });
});
