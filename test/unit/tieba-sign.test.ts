import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeSign, encodePairs, SALTS, withSign, type Pair } from '../../src/platforms/tieba/sign.js';

describe('tieba md5 sign', () => {
  it('matches the published vector (aiotieba tests/test_crypto.py)', () => {
    expect(computeSign([['reverse', 1999], ['hello_cosmic', '你好42']], SALTS.app)).toBe('0be9991d2f8371952ab0b9cb14363bc2');
  });

  it('is md5 of the key-sorted key=value pairs with nothing between them, then the salt', () => {
    const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
    expect(computeSign([['kz', '7000000001'], ['_client_type', 20], ['pn', 1]], SALTS.pc)).toBe(md5(`_client_type=20kz=7000000001pn=1${SALTS.pc}`));
    expect(computeSign([], SALTS.pc)).toBe(md5(SALTS.pc));
    // Repeated keys sort by value, as Python's sorted() on tuples does.
    expect(computeSign([['a', 'z'], ['a', 'b']], 'x')).toBe(md5('a=ba=zx'));
  });

  it('does not depend on the order the pairs come in', () => {
    const pairs = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.oneof(fc.string({ maxLength: 12 }), fc.nat())), { selector: (p) => p[0], minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(pairs, fc.nat(), (ps, seed) => {
        const shuffled = [...ps].sort((a, b) => ((a[0].charCodeAt(0) * 31 + seed) % 7) - ((b[0].charCodeAt(0) * 31 + seed) % 7));
        expect(computeSign(shuffled as Pair[], SALTS.pc)).toBe(computeSign(ps as Pair[], SALTS.pc));
      }),
    );
  });

  it('withSign appends the sign of everything before it; encodePairs keeps the order and encodes once', () => {
    const signed = withSign([['word', '旅行'], ['pn', 1]], SALTS.pc);
    expect(signed.map(([k]) => k)).toEqual(['word', 'pn', 'sign']);
    expect(signed[2]![1]).toBe(computeSign([['word', '旅行'], ['pn', '1']], SALTS.pc));
    expect(encodePairs(signed)).toBe(`word=%E6%97%85%E8%A1%8C&pn=1&sign=${signed[2]![1]}`);
    expect(encodePairs([['fr', ''], ['q', 'a b&c=d']])).toBe('fr=&q=a%20b%26c%3Dd');
  });
});
