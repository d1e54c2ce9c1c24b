import { describe, expect, it } from 'vitest';
import { cookieNames, parseCookies } from '../../src/accounts/cookies.js';

describe('cookie import', () => {
  it('reads a Cookie header string, with or without the prefix', () => {
    expect(parseCookies('SUB=abc; SUBP=0033')).toBe('SUB=abc; SUBP=0033');
    expect(parseCookies('Cookie: a=1;b=2')).toBe('a=1; b=2');
  });
  it('reads a Netscape cookies.txt, including HttpOnly lines, skipping comments', () => {
    const txt = ['# Netscape HTTP Cookie File', '.weibo.com\tTRUE\t/\tTRUE\t1999999999\tSUB\tabc', '#HttpOnly_.weibo.com\tTRUE\t/\tTRUE\t0\tSUBP\txyz', ''].join('\n');
    expect(parseCookies(txt)).toBe('SUB=abc; SUBP=xyz');
  });
  it('reads a JSON export', () => {
    expect(parseCookies('[{"name":"a","value":"1","domain":".x.com"},{"name":"b","value":"2"}]')).toBe('a=1; b=2');
    expect(parseCookies([{ name: 'a', value: '1' }])).toBe('a=1');
  });
  it('refuses what would smuggle headers or is not cookies', () => {
    expect(() => parseCookies('a=1\r\nX-Evil: 1')).toThrow();
    expect(() => parseCookies('just text')).toThrow(/name=value/);
    expect(() => parseCookies('[{"name":"a"}]')).toThrow(/cookies\[0\]/);
    expect(() => parseCookies('')).toThrow();
    expect(() => parseCookies(42)).toThrow();
  });
  it('lists names only', () => {
    expect(cookieNames('a=1; b=2')).toEqual(['a', 'b']);
  });
});
