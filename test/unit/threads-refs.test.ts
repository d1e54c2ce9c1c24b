import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonKeepingIds, quoteLongIntegers } from '../../src/platforms/threads/json.js';
import { codeFromUrl, codeToPk, handleFromUrl, parsePostRef, parseUserRef, pkToCode } from '../../src/platforms/threads/refs.js';

const MAX = (1n << 64n) - 1n;
const pk = fc.bigInt({ min: 1n, max: MAX });
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Codes as the site writes them: no leading zero digit ('A'), at most 11 characters, within 64 bits. */
const code = fc
  .array(fc.constantFrom(...ALPHABET.split('')), { minLength: 1, maxLength: 11 })
  .map((cs) => cs.join(''))
  .filter((c) => !c.startsWith('A') && [...c].reduce((n, ch) => n * 64n + BigInt(ALPHABET.indexOf(ch)), 0n) <= MAX);
const handle = fc.stringMatching(/^[a-z0-9._]{1,30}$/).filter((h) => /[a-z]/.test(h));

describe('threads post codes and ids', () => {
  it('recorded pairs convert both ways (the 2023 recordings)', () => {
    for (const [c, id] of [
      ['CuXRXDdNOtH', '3141055616164096839'],
      ['CuXFPIeLLod', '3141002295235099165'],
      ['CuhOXGmr74R', '3143857175171939857'],
      ['CufKflZL8N2', '3143277215847793526'],
      ['CuXXgqAva_p', '3141082664316809193'],
    ]) {
      expect(codeToPk(c!)).toBe(id);
      expect(pkToCode(id!)).toBe(c);
    }
  });
  it('id → code → id for every 64-bit id', () => {
    fc.assert(fc.property(pk, (n) => codeToPk(pkToCode(n)) === n.toString()));
  });
  it('code → id → code for every code the site writes', () => {
    fc.assert(fc.property(code, (c) => pkToCode(codeToPk(c)) === c));
  });
  it('refuses what is not a code or an id', () => {
    expect(() => codeToPk('AAAA')).toThrow(/not a threads post code/);
    expect(() => codeToPk('abc$')).toThrow(/not a threads post code/);
    expect(() => codeToPk('____________')).toThrow(/not a threads post code/);
    expect(() => pkToCode('0')).toThrow(/not a threads post id/);
    expect(() => pkToCode((MAX + 1n).toString())).toThrow(/not a threads post id/);
  });
});

describe('threads references', () => {
  it('every post link form gives back the id and the code', () => {
    fc.assert(
      fc.property(pk, handle, (n, h) => {
        const c = pkToCode(n);
        const want = { pk: n.toString(), code: c };
        for (const form of [
          n.toString(),
          `${n}_314216`,
          c,
          `https://www.threads.com/@${h}/post/${c}`,
          `https://www.threads.net/@${h}/post/${c}/`,
          `https://threads.com/@${h}/post/${c}/media?xmt=AQF0abc`,
          `www.threads.com/t/${c}`,
          `https://www.threads.net/t/${c}?igshid=1`,
          `look at this https://www.threads.com/@${h}/post/${c} !`,
        ]) {
          // A bare code made only of digits is read as an id; the site's codes always hold a letter.
          if (form === c && /^\d+$/.test(c)) continue;
          expect(parsePostRef(form)).toEqual(want);
        }
      }),
    );
  });
  it('every user form gives back the handle (lower case) or the id', () => {
    fc.assert(
      fc.property(handle, (h) => {
        for (const form of [`@${h}`, h, `https://www.threads.com/@${h}`, `https://www.threads.net/@${h}/`, `threads.com/@${h}?igshid=x`, `https://www.threads.com/@${h}/post/CuXRXDdNOtH`]) {
          expect(parseUserRef(form)).toEqual({ handle: h });
        }
      }),
    );
    expect(parseUserRef('314216')).toEqual({ pk: '314216' });
    expect(parseUserRef('@Zuck')).toEqual({ handle: 'zuck' });
  });
  it('refuses other sites and junk with a message naming the forms', () => {
    expect(() => parsePostRef('https://www.instagram.com/p/CuXRXDdNOtH/')).toThrow(/not a threads post reference.*\/t\/<code>/);
    expect(() => parsePostRef('https://www.threads.com/@zuck')).toThrow(/not a threads post reference/);
    expect(() => parsePostRef('')).toThrow(/required/);
    expect(() => parseUserRef('https://www.threads.com/search?q=x')).toThrow(/not a threads user reference/);
    expect(() => parseUserRef('two words')).toThrow(/not a threads user reference/);
    expect(codeFromUrl(new URL('https://evil.example/@a/post/CuXRXDdNOtH'))).toBeUndefined();
    expect(handleFromUrl(new URL('https://www.threads.com/explore'))).toBeUndefined();
  });
});

describe('long ids in JSON', () => {
  it('integers of 16+ digits outside strings become strings; strings, floats and short numbers stay as written', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 10n ** 15n, max: MAX }), fc.integer({ min: 0, max: 2 ** 31 }), fc.string(), (big, small, s) => {
        const text = `{"pk": ${big}, "n": ${small}, "s": ${JSON.stringify(s)}, "f": 1234567890123456.5, "list": [${big},-${big}], "t": "${big}"}`;
        const parsed = parseJsonKeepingIds(text) as Record<string, unknown>;
        expect(parsed.pk).toBe(big.toString());
        expect(parsed.n).toBe(small);
        expect(parsed.s).toBe(s);
        expect(parsed.f).toBe(1234567890123456.5);
        expect(parsed.list).toEqual([big.toString(), `-${big}`]);
        expect(parsed.t).toBe(big.toString());
      }),
    );
  });
  it('digits inside strings, escaped quotes included, are never touched', () => {
    const text = '{"a":"x\\" 12345678901234567890 y","b":12345678901234567890}';
    expect(quoteLongIntegers(text)).toBe('{"a":"x\\" 12345678901234567890 y","b":"12345678901234567890"}');
  });
});
