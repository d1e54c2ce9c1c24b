import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeQueryValue } from '../../src/platforms/tieba/charset.js';
import { cleanPortrait, parseForumRef, parseThreadRef, parseUserRef, tidFromUrl } from '../../src/platforms/tieba/refs.js';

const tid = fc.bigInt({ min: 1_000_000n, max: 99_999_999_999n }).map(String);
/** GB2312 level-1 hanzi (lead 0xB0–0xD7, trail 0xA1–0xFE; 0xD7FA–0xD7FE are unassigned). */
const hanzi = fc
  .tuple(fc.integer({ min: 0xb0, max: 0xd7 }), fc.integer({ min: 0xa1, max: 0xfe }))
  .filter(([l, t]) => !(l === 0xd7 && t > 0xf9))
  .map(([l, t]) => new TextDecoder('gbk').decode(Uint8Array.from([l, t])));
const ascii = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'.split(''));
const name = fc.array(fc.oneof({ weight: 3, arbitrary: hanzi }, { weight: 1, arbitrary: ascii }), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
const pct = (bytes: Uint8Array | Buffer): string => [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const gbk = (s: string): string => pct(iconv.encode(s, 'gbk'));
const portrait = fc.tuple(fc.stringMatching(/^[0-9a-f]{8}$/), fc.stringMatching(/^[A-Za-z0-9_-]{22}$/)).map(([h, b]) => `tb.1.${h}.${b}`);

describe('tieba thread references', () => {
  it('every thread link form gives back the tid (share params dropped)', () => {
    fc.assert(
      fc.property(tid, (t) => {
        for (const form of [
          t,
          `https://tieba.baidu.com/p/${t}`,
          `http://tieba.baidu.com/p/${t}?share=9105&fr=sharewise&see_lz=0&sfc=copy&client_type=2&st=1722942841&unique=X`,
          `tieba.baidu.com/p/${t}?pid=150726500312&cid=0#150726500312`,
          `https://c.tieba.baidu.com/p/${t}?lp=5028`,
          `https://jump2.bdimg.com/p/${t}`,
          `http://jump.bdimg.com/p/${t}/`,
          `https://tieba.baidu.com/f?kz=${t}`,
          `https://tieba.baidu.com/mo/q/m?kz=${t}&is_bakan=0`,
          `https://tieba.baidu.com/mo/q/checkurl?url=${encodeURIComponent(`https://tieba.baidu.com/p/${t}?share=9105`)}&urlrefer=abc`,
          `【贴吧】看看这个帖子 https://tieba.baidu.com/p/${t}?share=9105&fr=share 点击链接查看`,
        ]) {
          expect(parseThreadRef(form)).toEqual({ tid: t });
        }
      }),
    );
  });
  it('a jump*.bdimg.com safecheck link is kept for one no-redirect request', () => {
    expect(parseThreadRef('https://jump2.bdimg.com/safecheck/index?url=rN3wPs8te/pL4AOY0zAwhz3wi8AXlR5g')).toEqual({ jump: 'https://jump2.bdimg.com/safecheck/index?url=rN3wPs8te/pL4AOY0zAwhz3wi8AXlR5g' });
  });
  it('refuses other sites, other tieba pages and junk, naming the forms', () => {
    expect(() => parseThreadRef('https://evil.example/p/123456789')).toThrow(/not a tieba thread reference/);
    expect(() => parseThreadRef('https://tieba.baidu.com/f?kw=abc')).toThrow(/not a tieba thread reference/);
    expect(() => parseThreadRef('')).toThrow(/required/);
    expect(tidFromUrl(new URL('https://tieba.baidu.com/p/abc'))).toBeUndefined();
  });
});

describe('tieba forum references', () => {
  it('a /f?kw= link gives back the name whether kw is UTF-8 or GBK, with or without ie=', () => {
    fc.assert(
      fc.property(name, (n) => {
        expect(parseForumRef(n)).toBe(n);
        expect(parseForumRef(`https://tieba.baidu.com/f?kw=${encodeURIComponent(n)}`)).toBe(n);
        expect(parseForumRef(`https://tieba.baidu.com/f?ie=utf-8&kw=${encodeURIComponent(n)}&fr=search`)).toBe(n);
        expect(parseForumRef(`http://tieba.baidu.com/f?kw=${gbk(n)}`)).toBe(n);
        expect(parseForumRef(`tieba.baidu.com/f?kw=${gbk(n)}&ie=gbk&pn=50`)).toBe(n);
        expect(parseForumRef(`https://tieba.baidu.com/f/good?kw=${gbk(n)}&tab=good`)).toBe(n);
      }),
    );
  });
  it('the recorded GBK forum links of the search page decode', () => {
    expect(parseForumRef('https://tieba.baidu.com/f?kw=%CE%E4%BA%BA%BD%BB%BB%A5%BF%D5%BC%E4')).toBe('武汉交互空间');
    expect(parseForumRef('https://tieba.baidu.com/f?kw=%B3%C7%CA%D0gdp')).toBe('城市gdp');
    expect(parseForumRef('https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0&ie=utf-8&pn=50')).toBe('盗墓笔记');
  });
  it('refuses links that name no forum', () => {
    expect(() => parseForumRef('https://tieba.baidu.com/f?ie=utf-8')).toThrow(/names no forum/);
    expect(() => parseForumRef('https://tieba.baidu.com/p/123')).toThrow(/not a tieba forum link/);
  });
});

describe('tieba user references', () => {
  it('portrait forms give back the portrait without its ?t= suffix', () => {
    fc.assert(
      fc.property(portrait, fc.integer({ min: 1_300_000_000, max: 1_900_000_000 }), (p, t) => {
        for (const form of [
          p,
          `${p}?t=${t}`,
          `https://tieba.baidu.com/home/main?id=${p}`,
          `https://tieba.baidu.com/home/main?id=${p}?t=${t}&fr=pb`,
          `https://tieba.baidu.com/home/main/?id=${p}&fr=frs`,
          `https://tieba.baidu.com/home/main?id=${encodeURIComponent(`${p}?t=${t}`)}&ie=utf-8`,
        ]) {
          expect(parseUserRef(form)).toEqual({ portrait: p });
        }
      }),
    );
  });
  it('user-name forms give back the name, UTF-8 or GBK', () => {
    fc.assert(
      fc.property(name, (n) => {
        expect(parseUserRef(n)).toEqual({ name: n });
        expect(parseUserRef(`@${n}`)).toEqual({ name: n });
        expect(parseUserRef(`https://tieba.baidu.com/home/main?un=${encodeURIComponent(n)}&ie=utf-8&fr=pb`)).toEqual({ name: n });
        expect(parseUserRef(`https://tieba.baidu.com/home/main?un=${gbk(n)}`)).toEqual({ name: n });
        expect(parseUserRef(`http://tieba.baidu.com/i/sys/jump?un=${gbk(n)}`)).toEqual({ name: n });
      }),
    );
  });
  it('refuses non-user links and names with spaces', () => {
    expect(() => parseUserRef('https://tieba.baidu.com/p/123')).toThrow(/not a tieba user link/);
    expect(() => parseUserRef('two words')).toThrow(/not a tieba user name/);
    expect(cleanPortrait('00000000')).toBeUndefined();
    expect(cleanPortrait('tb.1.b08d8f12.IR-tbLlZ2GkD6ARA-mfGOA?t=1532192361')).toBe('tb.1.b08d8f12.IR-tbLlZ2GkD6ARA-mfGOA');
  });
});

describe('query values in UTF-8 or GBK', () => {
  it('UTF-8 wins when both decodings read as names; ie= decides when given', () => {
    expect(decodeQueryValue('%E4%B8%AD%E6%96%87')).toBe('中文');
    expect(decodeQueryValue('%D6%D0%CE%C4')).toBe('中文');
    // "路" in GBK is C2 B7, which is also valid UTF-8 for "·": read as the name it is.
    expect(decodeQueryValue('%C2%B7')).toBe('路');
    expect(decodeQueryValue('%C2%B7', 'utf-8')).toBe('·');
    expect(decodeQueryValue('a+b%20c')).toBe('a b c');
    expect(decodeQueryValue('%ZZ')).toBeUndefined();
  });
});
